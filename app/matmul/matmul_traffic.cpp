#include "app/matmul/matmul_traffic.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "kernels/emulator/emulate.h"
#include "kernels/emulator/traced_context.h"
#include "kernels/matmul/matmul_variants.h"

namespace cvz {

MatmulTraffic predicted_matmul_traffic(const MatmulLaunch& l, std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    MatmulTraffic t;
    const Dim3 g = matmul_grid(l, m, n);
    t.global_stores = std::uint64_t(m) * n;
    if (l.kernel == MatmulVariant::Naive) {
        t.global_loads = 2ull * m * n * k;
        t.max_global_loads_per_thread = 2ull * k;
        return t;
    }
    const std::uint64_t T = l.tile, phases = tile_phases(k, l.tile);
    const std::uint64_t threads = std::uint64_t(g.x) * g.y * T * T;
    t.global_loads = std::uint64_t(m) * g.x * k + std::uint64_t(n) * g.y * k;
    t.max_global_loads_per_thread = 2 * phases;
    t.shared_stores = threads * phases * 2;
    t.shared_loads = threads * phases * 2 * T;
    t.barriers = threads * phases * (l.second_barrier ? 2 : 1);
    return t;
}

namespace {

// Counts accesses by space: an address inside the block's shared memory is a shared access.
struct TrafficCounter {
    std::mutex mutex;
    MatmulTraffic totals;
    std::unordered_map<std::uint64_t, std::uint64_t> per_thread_global;
    std::size_t shared_bytes = 0;

    void on_access(const EmuContext& c, Access a, const void* p, std::size_t) {
        const auto* base = static_cast<const unsigned char*>(c.shared_);
        const auto* q = static_cast<const unsigned char*>(p);
        const bool shared = base && q >= base && q < base + shared_bytes;
        std::lock_guard lock(mutex);
        if (shared) (a == Access::Load ? totals.shared_loads : totals.shared_stores)++;
        else if (a == Access::Store) totals.global_stores++;
        else {
            totals.global_loads++;
            const std::uint64_t id = (linear_block_id(c.block_idx(), c.grid_dim()) << 11) + linear_thread_id(c.thread_idx(), c.block_dim());
            totals.max_global_loads_per_thread = std::max(totals.max_global_loads_per_thread, ++per_thread_global[id]);
        }
    }
    void on_sync(const EmuContext&) {
        std::lock_guard lock(mutex);
        totals.barriers++;
    }
};

}  // namespace

MatmulTraffic measured_matmul_traffic(const MatmulLaunch& l, std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    std::vector<float> a(std::size_t(m) * k, 1.0f), b(std::size_t(k) * n, 1.0f), c(std::size_t(m) * n);
    std::vector<float> partials(matmul_workspace_floats(l, m, n));
    MatmulProblem p{a.data(), b.data(), c.data(), m, k, n};
    if (!partials.empty()) p.partials = partials.data();
    TrafficCounter counter;
    counter.shared_bytes = l.shared_bytes();
    EmuOptions o;
    o.host_threads = 1;
    const Dim3 grid = matmul_grid(l, m, n), block = l.block_shape();
    const MatmulRunOptions run{l.second_barrier};
    // The same body as the GPU and the emulator, through a context that counts every access.
    (void)with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        o.barriers = Body::barriers;
        o.shared_bytes = Body::shared_bytes(block);
        return emulate(grid, block, o, [&](const EmuContext& ctx) { Body::run(TracedContext(ctx, counter), p, run); });
    });
    if (grid.z > 1) {  // split-K's second pass: a load per slice and a store per output
        EmuOptions r;
        r.host_threads = 1;
        const Dim3 reduce_grid{unsigned(cdiv(std::uint64_t(m) * n, kSplitKReduceThreads)), 1, 1};
        (void)emulate(reduce_grid, Dim3{kSplitKReduceThreads, 1, 1}, r, [&](const EmuContext& ctx) {
            matmul_split_k_reduce(TracedContext(ctx, counter), p, grid.z);
        });
    }
    return counter.totals;
}

}  // namespace cvz
