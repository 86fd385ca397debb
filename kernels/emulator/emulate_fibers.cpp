// The emulator's barrier mode: each thread of a block is a Boost.Context fiber. A round resumes every
// live fiber once; each runs until its next sync() or its end, so no thread passes barrier k before
// every thread of its block has reached it, as __syncthreads() guarantees.
#include <boost/context/fiber.hpp>
#include <boost/context/fixedsize_stack.hpp>

#include "emulate.h"

namespace cvz {

namespace bctx = boost::context;

class FiberBarrier {
public:
    bctx::fiber* scheduler = nullptr;  // where to return when this thread reaches a barrier
    void wait() { *scheduler = std::move(*scheduler).resume(); }
};

void EmuContext::sync() const {
    if (barrier_) {
        barrier_->wait();
    } else if (stray_sync_) {
        stray_sync_->store(true, std::memory_order_relaxed);
    }
}

namespace {

void run_block_as_fibers(const Dim3 grid, const Dim3 block, const EmuOptions& options, const Dim3 block_idx,
                         std::vector<unsigned char>& shared,
                         const std::function<void(const EmuContext&)>& body) {
    const std::size_t n = block.volume();
    std::vector<EmuContext> contexts(n);
    std::vector<FiberBarrier> barriers(n);
    std::vector<bctx::fiber> fibers(n);
    bctx::fixedsize_stack stacks(options.fiber_stack_bytes);
    std::size_t t = 0;
    for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
            for (unsigned x = 0; x < block.x; ++x, ++t) {
                EmuContext& c = contexts[t];
                c.block_idx_ = block_idx;
                c.thread_idx_ = Dim3{x, y, z};
                c.block_dim_ = block;
                c.grid_dim_ = grid;
                c.shared_ = shared.data();
                c.barrier_ = &barriers[t];
                fibers[t] = bctx::fiber(std::allocator_arg, stacks,
                                        [&body, &c, &bar = barriers[t]](bctx::fiber&& scheduler) {
                                            bar.scheduler = &scheduler;
                                            body(c);
                                            return std::move(scheduler);
                                        });
            }
    for (bool live = true; live;) {
        live = false;
        for (auto& f : fibers) {
            if (!f) continue;
            f = std::move(f).resume();
            live = live || bool(f);
        }
    }
}

}  // namespace

Status emulate_with_barriers(Dim3 grid, Dim3 block, const EmuOptions& options,
                             const std::function<void(const EmuContext&)>& body) {
    for_each_block_parallel(grid.volume(), options.host_threads, [&](std::uint64_t first, std::uint64_t last) {
        std::vector<unsigned char> shared(options.shared_bytes);
        for (std::uint64_t b = first; b < last; ++b) {
            std::fill(shared.begin(), shared.end(), 0);
            run_block_as_fibers(grid, block, options, block_of_linear(b, grid), shared, body);
        }
    });
    return Status::ok();
}

}  // namespace cvz
