#pragma once
// The matmul family's table: one spec per variant (its name, title, launch rule, tiles, exactness and
// body), and its one dispatcher. Adding a variant: write its body, add its enumerator
// (matmul_launch.h) and its spec here, and list it in MatmulVariants. The GPU launcher, the emulator,
// the traced emulator, the occupancy API, the register table, the sweep, the CLI and the catalogue
// tests pick it up from here. The tile set {8, 16, 32} is written once, in MatmulTiled::tiles.
#include <cstddef>
#include <type_traits>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/variant_dispatch.h"
#include "matmul_blocktiling.h"
#include "matmul_double_buffer.h"
#include "matmul_body.h"
#include "matmul_launch.h"
#include "matmul_split_k.h"
#include "matmul_tensor_core.h"
#include "matmul_wgmma.h"

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
    static constexpr unsigned k_slice = TILE;  // K per phase staged through shared memory
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

// A body whose block computes more outputs than it has threads says how many: block_tile = {BN, BM}
// (columns, rows of C per block), which the grid divides N and M by.
template <class Body, class = void>
struct has_block_tile : std::false_type {};
template <class Body>
struct has_block_tile<Body, std::void_t<decltype(Body::block_tile)>> : std::true_type {};

// A body that stages A and B through shared memory phase by phase says how much of K a phase covers:
// k_slice (TILE, or BK). The matrix view animates such a kernel phase by phase.
template <class Body, class = void>
struct has_k_slice : std::false_type {};
template <class Body>
struct has_k_slice<Body, std::void_t<decltype(Body::k_slice)>> : std::true_type {};

// 1-D blocktiling, BM = 64, BN = 32, BK = 8, TM = 8: 32 x 8 = 256 threads, 8 outputs of a column each
// (siboehm uses BN = 64 and 512 threads; ptxas -v then reports 40 registers and 20 bytes of spill stores for sm_90).
struct MatmulBlocktile1dBody {
    static constexpr unsigned BM = 64, BN = 32, BK = 8, TM = 8;
    static constexpr unsigned k_slice = BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = BN * (BM / TM);
    static constexpr Dim3 block_tile{BN, BM, 1};
    static constexpr KernelResources ptxas{64, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return std::size_t(BM * BK + BK * BN) * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_blocktile_2d<BM, BN, BK, TM, 1>(ctx, p);  // TN = 1: a column of TM outputs
    }
};

struct MatmulBlocktile1d : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Blocktile1d;
    static constexpr const char* name = "matmul_blocktile_1d";
    static constexpr const char* title = "64x32 block tile through shared memory (BK 8), 8 outputs of a column per thread";
    static constexpr const char* label = "1-D blocktile";
    static constexpr BlockRule block = BlockRule::Fixed;
    static constexpr Dim3 fixed_block{MatmulBlocktile1dBody::BN, MatmulBlocktile1dBody::BM / MatmulBlocktile1dBody::TM, 1};
    static constexpr bool barriers = true;
    static constexpr unsigned items_per_thread = MatmulBlocktile1dBody::TM;
    template <unsigned> using body = MatmulBlocktile1dBody;
};

// 2-D blocktiling, BM = BN = 128, BK = 8, TM = TN = 8: 16 x 16 = 256 threads, an 8 x 8 register tile
// each (siboehm's kernel 5).
struct MatmulBlocktile2dBody {
    static constexpr unsigned BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    static constexpr unsigned k_slice = BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = (BN / TN) * (BM / TM);
    static constexpr Dim3 block_tile{BN, BM, 1};
    static constexpr KernelResources ptxas{128, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return std::size_t(BM * BK + BK * BN) * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_blocktile_2d<BM, BN, BK, TM, TN>(ctx, p);
    }
};

struct MatmulBlocktile2d : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Blocktile2d;
    static constexpr const char* name = "matmul_blocktile_2d";
    static constexpr const char* title = "128x128 block tile through shared memory (BK 8), an 8x8 register tile per thread";
    static constexpr const char* label = "2-D blocktile";
    static constexpr BlockRule block = BlockRule::Fixed;
    static constexpr Dim3 fixed_block{MatmulBlocktile2dBody::BN / MatmulBlocktile2dBody::TN,
                                      MatmulBlocktile2dBody::BM / MatmulBlocktile2dBody::TM, 1};
    static constexpr bool barriers = true;
    static constexpr unsigned items_per_thread = MatmulBlocktile2dBody::TM * MatmulBlocktile2dBody::TN;
    template <unsigned> using body = MatmulBlocktile2dBody;
};

// 2-D blocktiling with 16-byte loads and A staged transposed (siboehm's kernel 6), same tile sizes.
struct MatmulBlocktileVecBody : MatmulBlocktile2dBody {
    static constexpr KernelResources ptxas{107, 0};
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_blocktile_vec<BM, BN, BK, TM, TN>(ctx, p);
    }
};

struct MatmulBlocktileVec : MatmulBlocktile2d {
    static constexpr MatmulVariant id = MatmulVariant::BlocktileVec;
    static constexpr const char* name = "matmul_blocktile_vec";
    static constexpr const char* title =
        "2-D blocktile with 16-byte (float4) loads of A and B and the A tile stored transposed in shared memory";
    static constexpr const char* label = "vec blocktile";
    template <unsigned> using body = MatmulBlocktileVecBody;
};

// Warptiling (siboehm's kernel 10): BM = BN = 128, BK = 16; four warps of 64 x 64 outputs, each swept in
// four 64 x 16 sub-tiles; a thread holds 8 x 4 outputs per sub-tile (128 in all). 128 threads.
struct MatmulWarptileBody {
    static constexpr unsigned BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WNITER = 4, TM = 8, TN = 4;
    static constexpr unsigned k_slice = BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = (BM / WM) * (BN / WN) * 32;
    static constexpr Dim3 block_tile{BN, BM, 1};
    static constexpr KernelResources ptxas{195, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return std::size_t(BM * BK + BK * BN) * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_warptile<BM, BN, BK, WM, WN, WNITER, TM, TN>(ctx, p);
    }
};

struct MatmulWarptile : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Warptile;
    static constexpr const char* name = "matmul_warptile";
    static constexpr const char* title =
        "128x128 block tile (BK 16), 64x64 warp tiles, 8x4 thread tiles, float4 loads and a transposed A tile";
    static constexpr const char* label = "warptile";
    static constexpr BlockRule block = BlockRule::Fixed;
    static constexpr Dim3 fixed_block{MatmulWarptileBody::max_threads, 1, 1};
    static constexpr bool barriers = true;
    static constexpr unsigned items_per_thread = 128;  // 8 x 4 outputs in each of 4 sub-tiles
    template <unsigned> using body = MatmulWarptileBody;
};

// Double buffering (the fp32 ladder's last rung, matmul_double_buffer.h): 128 x 256 outputs per block,
// BK = 16, 256 threads of 8 x 16 outputs in 4 x 4 sub-tiles (64 rows and 64 columns apart), two shared
// buffers (48.5 KiB: the launchers opt in beyond 48), the next phase fetched into registers during the
// current one, phases wholly inside A and B read without bounds checks (INTERIOR). One block an SM
// (min_blocks = 1: 241 registers, no spill). Chosen on the H200 (bench_matmul_gpu_fp32_configs,
// 2026-12-03) among 128 x 128, 128 x 256, 64 x 128, 128 x 64 and 64 x 64 tiles, BK 8 and 16, warps of
// 16 x 2 and 8 x 4 threads, 1 to 4 blocks an SM, with and without the interior path, and cp.async
// stages with A transposed by 4-byte copies (matmul_async_stages.h): at 4096^3 46.8 TFLOP/s, 91% of
// cuBLAS SGEMM (the previous 128 x 128 tiles at two blocks an SM, 128 registers and 40 bytes of
// spill: 81% in the same run; with the interior path 85.5%). Its 16 x 32 tiles at 4096^3 are 3.9
// waves of 132; shapes with fewer tiles are split-K's (below), whose 128 x 128 tiles fill more SMs.
// A k's 8 x 16 fmas go row by row with every other row backwards (ORDER 1, the same sums): 241
// registers, 92.7% of cuBLAS at 4096^3 against 90.8% row by row in the same run
// (bench_matmul_gpu_fp32_configs, 2026-12-03, docs/measurements/2026-12-03-fp32-4096-h200.md).
struct MatmulDoubleBufferBody {
    using Tiles = DoubleBufferTiles<128, 256, 16, 8, 16, 16, true, 1>;
    static constexpr unsigned k_slice = Tiles::BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = Tiles::THREADS;
    static constexpr unsigned min_blocks = 1;
    static constexpr Dim3 block_tile{Tiles::BN, Tiles::BM, 1};
    static constexpr KernelResources ptxas{241, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return 2 * std::size_t(Tiles::STAGE_FLOATS) * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_double_buffer<Tiles>(ctx, p);
    }
};

struct MatmulDoubleBuffer : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::DoubleBuffer;
    static constexpr const char* name = "matmul_double_buffer";
    static constexpr const char* title =
        "128x256 block tile (BK 16), 8x16 outputs per thread in 4x4 sub-tiles, two shared buffers with the next tiles "
        "fetched during the multiply, interior tiles read without bounds checks";
    static constexpr const char* label = "double buffer";
    static constexpr BlockRule block = BlockRule::Fixed;
    static constexpr Dim3 fixed_block{MatmulDoubleBufferBody::max_threads, 1, 1};
    static constexpr bool barriers = true;
    static constexpr unsigned items_per_thread = MatmulDoubleBufferBody::Tiles::TM * MatmulDoubleBufferBody::Tiles::TN;
    template <unsigned> using body = MatmulDoubleBufferBody;
};

// The tensor-core rungs (matmul_tensor_core.h): 128 x 128 outputs per block, 4 warps of 64 x 64
// outputs, each a 4 x 8 grid of mma.sync m16n8k8 TF32 tiles, A fragments by ldmatrix.x4. TF32: BK = 16
// through three cp.async stages (57 KiB of shared memory: the launchers opt in beyond 48 KiB); 3xTF32:
// BK = 8 through four (42 KiB). Chosen on the H200 (bench_matmul_gpu_tc_configs, 2026-12-03, at
// 4096^3, 1537 x 769 x 1023 and 1024^3) among BK 8, 16 and 32, 2 to 4 stages, 128 x 128, 128 x 256,
// 256 x 128 and 128 x 64 block tiles and 4, 8 or 16 warps: TF32 131 TFLOP/s at 4096^3 (the fastest,
// 256 x 128 BK 32 with 159 KiB, 2% more; the previous 8 warps of 64 x 32, 113); 3xTF32 36 TFLOP/s
// (255 registers, 32 bytes of spill; 8 warps of 64 x 32, 26). The mma.sync rate alone is 270 TFLOP/s.
// Not bit-identical to the fp32 rungs (TF32 operands, the tensor cores' own sums): exact = false, and
// each says what a test may expect of it (operand_bits, matmul_test_tolerance).
template <unsigned PASSES>
struct MatmulTensorCoreBody {
    using Tiles = std::conditional_t<PASSES == 1, TensorCoreTiles<128, 128, 16, 2, 2, 3>, TensorCoreTiles<128, 128, 8, 2, 2, 4>>;
    static constexpr unsigned passes = PASSES;
    static constexpr unsigned part_k = PASSES == 1 ? 0 : MmaShape::K;  // K of a sum apart (3xTF32: each k-step's)
    static constexpr bool passes_outer = false;                          // its passes per k-step
    static constexpr unsigned operand_bits = PASSES == 1 ? 11 : 24;  // significand bits of a product's factors, about
    static constexpr unsigned k_slice = Tiles::BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = Tiles::THREADS;
    static constexpr Dim3 block_tile{Tiles::BN, Tiles::BM, 1};
    static constexpr KernelResources ptxas{PASSES == 1 ? 238 : 255, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return std::size_t(Tiles::SHARED_FLOATS) * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_tensor_core<Tiles, PASSES>(ctx, p);
    }
};

struct MatmulTf32 : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Tf32;
    static constexpr const char* name = "matmul_tf32";
    static constexpr const char* title =
        "tensor cores: mma.sync m16n8k8 on A and B rounded to TF32, 128x128 block tile fed by cp.async, 64x64 warp tiles, A fragments by ldmatrix";
    static constexpr const char* label = "TF32 mma";
    static constexpr BlockRule block = BlockRule::Fixed;
    static constexpr Dim3 fixed_block{MatmulTensorCoreBody<1>::max_threads, 1, 1};
    static constexpr bool exact = false;
    static constexpr bool barriers = true;
    static constexpr unsigned items_per_thread = 128 * 128 / MatmulTensorCoreBody<1>::max_threads;
    template <unsigned> using body = MatmulTensorCoreBody<1>;
};

struct MatmulTf32x3 : MatmulTf32 {
    static constexpr MatmulVariant id = MatmulVariant::Tf32x3;
    static constexpr const char* name = "matmul_3xtf32";
    static constexpr const char* title =
        "tensor cores at fp32 accuracy: A and B split into TF32 big and small parts, three mma.sync per tile "
        "(small x big, big x small, big x big)";
    static constexpr const char* label = "3xTF32 mma";
    static constexpr Dim3 fixed_block{MatmulTensorCoreBody<3>::max_threads, 1, 1};
    static constexpr unsigned items_per_thread = 128 * 128 / MatmulTensorCoreBody<3>::max_threads;
    template <unsigned> using body = MatmulTensorCoreBody<3>;
};

// Split-K (matmul_split_k.h): the double buffer's loop over 128 x 128 tiles (BK = 16, 256 threads of
// 8 x 8 outputs in 4 x 4 sub-tiles, the interior path) over one of gridDim.z slices of K, then a second
// pass that sums the slices in order. For shapes with fewer output tiles than the GPU has SMs
// (256 x 4096 x 256: 4 tiles; 1024^3: 64; 1537 x 769 x 1023: 104). One block an SM (min_blocks = 1:
// 151 registers, no spill; two blocks an SM cap it at 128 registers and 24 bytes of spill, 3 to 24%
// slower on the H200 at the swept splits, bench_matmul_gpu_fp32_configs 2026-12-03). Its TILE list
// is the number of slices the sweep tries; 0 is the automatic choice from the shape
// (matmul_auto_split_slices). One body for every split: the slices are gridDim.z at run time.
// A k's 8 x 8 fmas go column by column (ORDER 2, the same sums; 151 registers): at 1024^3 (2 slices)
// 98.2% of cuBLAS against 96.1% row by row, at 1537 x 769 x 1023 (1 slice) 80.7% against 80.0%, in
// the same run (2026-12-03, docs/measurements/2026-12-03-fp32-4096-h200.md).
struct MatmulSplitKBody {
    using Tiles = DoubleBufferTiles<128, 128, 16, 8, 8, 16, true, 2>;
    static constexpr bool split_k = true;
    static constexpr unsigned k_slice = Tiles::BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = Tiles::THREADS;
    static constexpr unsigned min_blocks = 1;
    static constexpr Dim3 block_tile{Tiles::BN, Tiles::BM, 1};
    static constexpr KernelResources ptxas{151, 0};
    static constexpr std::size_t shared_bytes(Dim3) { return 2 * std::size_t(Tiles::STAGE_FLOATS) * sizeof(float); }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_split_k<Tiles>(ctx, p);
    }
};

struct MatmulSplitK : MatmulDoubleBuffer {
    static constexpr MatmulVariant id = MatmulVariant::SplitK;
    static constexpr const char* name = "matmul_split_k";
    static constexpr const char* title =
        "split-K: the double buffer's loop on 128x128 tiles over gridDim.z slices of K, the slices' sums added in order "
        "by a second pass";
    static constexpr const char* label = "split-K slices";
    static constexpr bool exact = false;  // a sum of slice sums: within fp32's tolerance, the same bytes on GPU and emulator
    static constexpr Dim3 fixed_block{MatmulSplitKBody::max_threads, 1, 1};
    static constexpr unsigned items_per_thread = MatmulSplitKBody::Tiles::TM * MatmulSplitKBody::Tiles::TN;
    using tiles = TileList<0, 1, 2, 3, 4, 6, 8, 16, 32, 64>;
    template <unsigned> using body = MatmulSplitKBody;
};

// The Hopper rungs (matmul_wgmma.h): the tensor-core rungs on wgmma m64n128k8, 128 x 128 block tiles of
// two warpgroups, K 32 at a time through two shared stages swizzled for wgmma's descriptors, filled by
// every thread while the current tile's wgmmas run. GPU: compute capability 9.0 only (sm_90a code,
// arch_specific); the emulator runs them anywhere. TF32 gives matmul_tf32's bytes (the same chain of
// k8 sums per output); 3xTF32 sums each K tile of 32 apart (part_k), not each k-step.
template <unsigned PASSES>
struct MatmulWgmmaBody {
    using Tiles = WgmmaTiles<PASSES, 2>;
    static constexpr unsigned passes = PASSES;
    static constexpr unsigned part_k = PASSES == 1 ? 0 : Tiles::BK;
    static constexpr bool passes_outer = PASSES == 3;  // a part's passes each over all its k-steps, in turn
    static constexpr unsigned operand_bits = PASSES == 1 ? 11 : 24;
    static constexpr unsigned k_slice = Tiles::BK;
    static constexpr bool barriers = true;
    static constexpr unsigned max_threads = Tiles::THREADS;
    static constexpr unsigned min_blocks = 1;
    static constexpr Dim3 block_tile{Tiles::BN, Tiles::BM, 1};
    static constexpr KernelResources ptxas{PASSES == 1 ? 168 : 255, 0};  // no spill
    static constexpr std::size_t shared_bytes(Dim3) { return Tiles::SHARED_BYTES; }
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const MatmulProblem& p, MatmulRunOptions = {}) {
        matmul_wgmma<Tiles>(ctx, p);
    }
};

struct MatmulTf32Wgmma : VariantDefaults {
    static constexpr MatmulVariant id = MatmulVariant::Tf32Wgmma;
    static constexpr const char* name = "matmul_tf32_wgmma";
    static constexpr const char* title =
        "Hopper tensor cores: wgmma m64n128k8 on A and B rounded to TF32, two warpgroups on a 128x128 tile, "
        "operands swizzled in shared memory (compute capability 9.0)";
    static constexpr const char* label = "TF32 wgmma";
    static constexpr BlockRule block = BlockRule::Fixed;
    static constexpr Dim3 fixed_block{MatmulWgmmaBody<1>::max_threads, 1, 1};
    static constexpr bool exact = false;
    static constexpr bool barriers = true;
    static constexpr unsigned items_per_thread = 128 * 128 / MatmulWgmmaBody<1>::max_threads;
    static constexpr unsigned arch_specific = 90;
    template <unsigned> using body = MatmulWgmmaBody<1>;
};

struct MatmulTf32x3Wgmma : MatmulTf32Wgmma {
    static constexpr MatmulVariant id = MatmulVariant::Tf32x3Wgmma;
    static constexpr const char* name = "matmul_3xtf32_wgmma";
    static constexpr const char* title =
        "Hopper tensor cores at fp32 accuracy: TF32 big and small parts, three wgmma per k-step summed per K tile of 32 "
        "(compute capability 9.0)";
    static constexpr const char* label = "3xTF32 wgmma";
    template <unsigned> using body = MatmulWgmmaBody<3>;
};

using MatmulVariants = VariantList<MatmulNaive, MatmulTiled, MatmulBlocktile1d, MatmulBlocktile2d, MatmulBlocktileVec,
                                   MatmulWarptile, MatmulDoubleBuffer, MatmulTf32, MatmulTf32x3, MatmulSplitK,
                                   MatmulTf32Wgmma, MatmulTf32x3Wgmma>;

// A split-K body: gridDim.z slices of K into C and the workspace, summed by a second pass.
template <class Body, class = void>
struct has_split_k : std::false_type {};
template <class Body>
struct has_split_k<Body, std::void_t<decltype(Body::split_k)>> : std::true_type {};

// A body with min_blocks asks the compiler to fit that many blocks an SM (matmul_kernels.cuh).
template <class Body, class = void>
struct has_min_blocks : std::false_type {};
template <class Body>
struct has_min_blocks<Body, std::void_t<decltype(Body::min_blocks)>> : std::true_type {};

// A tensor-core body says how many MMAs it makes per tile and k-step (1 for TF32, 3 for 3xTF32).
template <class Body, class = void>
struct has_passes : std::false_type {};
template <class Body>
struct has_passes<Body, std::void_t<decltype(Body::passes)>> : std::true_type {};

// A body whose products are not of fp32 factors says how many significand bits its factors keep.
template <class Body, class = void>
struct has_operand_bits : std::false_type {};
template <class Body>
struct has_operand_bits<Body, std::void_t<decltype(Body::operand_bits)>> : std::true_type {};

// The dispatcher: f(Body{}) with the body of `variant` for `tile` (ignored by variants without one).
template <class F>
Status with_matmul_variant(MatmulVariant variant, unsigned tile, F&& f) {
    return with_variant(MatmulVariants{}, "matmul", variant, tile, std::forward<F>(f));
}
template <class F>
Status with_matmul_variant(const MatmulLaunch& launch, F&& f) {
    return with_matmul_variant(launch.kernel, launch.tile, std::forward<F>(f));
}

// The largest matmul_max_relative_error a test may expect against the float64 reference for operands
// in [-1, 1] and K products: 1e-5 * max(1, K / 64) for fp32 products (float accumulation), and
// 2^-9 * sqrt(K) for TF32 factors (each rounded by up to 2^-11 of itself, the errors of K products
// adding up like a random walk; a wrong fragment or tile gives errors near 1). 0 for an unknown variant.
double matmul_test_tolerance(MatmulVariant variant, std::uint32_t k);

// The shared-memory layout that feeds a tensor-core rung's fragments (mma_shared_layout.h), read from
// its body's Tiles; false (and *out untouched) for the other variants.
bool matmul_mma_shared_layout(const MatmulLaunch& launch, MmaSharedLayout* out);

// The family's catalogue entries, in table order.
const std::vector<KernelInfo>& matmul_catalogue();

// The entry of `variant`, or null when there is no such variant.
const KernelInfo* matmul_variant_info(MatmulVariant variant);

}  // namespace cvz
