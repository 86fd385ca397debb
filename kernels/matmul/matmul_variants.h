#pragma once
// The matmul family's table: one spec per variant (its name, title, launch rule, tiles, exactness and
// body), and its one dispatcher. Adding a variant: write its body, add its enumerator
// (matmul_launch.h) and its spec here, and list it in MatmulVariants. The GPU launcher, the emulator,
// the traced emulator, the occupancy API, the register table, the sweep, the CLI and the catalogue
// tests pick it up from here. The tile set {8, 16, 32} is written once, in MatmulTiled::tiles.
#include <cstddef>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/variant_dispatch.h"
#include "matmul_body.h"
#include "matmul_launch.h"

namespace cvz {

// What a launch may change in a body beyond its problem: the barrier lesson (emulator only).
struct MatmulRunOptions {
    bool second_barrier = true;
};

// Naive: one thread per output element, a row of A and a column of B from global memory. The family's
// reference variant.
struct MatmulNaive : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Naive;
    static constexpr const char* name = "matmul_naive";
    static constexpr const char* title = "one thread per output element, A and B read from global memory";
    static constexpr const char* label = "naive";
    static constexpr BlockRule block = BlockRule::TwoD;
    static constexpr KernelResources ptxas{32, 0};
    static constexpr unsigned max_threads = 1024;
    static constexpr std::size_t shared_bytes(Dim3) { return 0; }
    template <unsigned> using body = MatmulNaive;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_naive(ctx, p);
    }
};

// Shared-memory tiled for one TILE: a TILE x TILE block stages a tile of A and of B per phase.
template <unsigned TILE>
struct MatmulTiledBody {
    static constexpr unsigned tile = TILE;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = TILE * TILE;
    static constexpr KernelResources ptxas{TILE == 32 ? 31 : 32, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return 2 * std::size_t(TILE) * TILE * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions o = {}) {
        matmul_tiled<TILE>(ctx, p, TiledOptions{o.second_barrier});
    }
};

struct MatmulTiled : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Tiled;
    static constexpr const char* name = "matmul_tiled";
    static constexpr const char* title = "TILE x TILE blocks stage tiles of A and B through shared memory";
    static constexpr const char* label = "tiled";
    static constexpr BlockRule block = BlockRule::Tile;
    static constexpr bool barriers = true;
    using tiles = TileList<8, 16, 32>;
    template <unsigned TILE> using body = MatmulTiledBody<TILE>;
};

using MatmulVariants = VariantList<MatmulNaive, MatmulTiled>;

// The dispatcher: f(Body{}) with the body of `variant` for `tile` (ignored by variants without one).
template <class F>
Status with_matmul_variant(MatmulVariant variant, unsigned tile, F&& f) {
    return with_variant(MatmulVariants{}, "matmul", variant, tile, std::forward<F>(f));
}
template <class F>
Status with_matmul_variant(const MatmulLaunch& launch, F&& f) {
    return with_matmul_variant(launch.kernel, launch.tile, std::forward<F>(f));
}

// The family's catalogue entries, in table order.
const std::vector<KernelInfo>& matmul_catalogue();

// The entry of `variant`, or null when there is no such variant.
const KernelInfo* matmul_variant_info(MatmulVariant variant);

}  // namespace cvz
