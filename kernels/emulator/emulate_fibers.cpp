// The emulator's barrier mode: each thread of a block is a Boost.Context fiber. A round resumes every
// live fiber once; each runs until its next sync() or its end, so no thread passes barrier k before
// every thread of its block has reached it, as __syncthreads() guarantees.
#include <boost/context/fiber.hpp>

#include <memory>
#include <vector>

#include "emulate.h"

// AddressSanitizer must be told when execution moves to another stack, or it takes a fiber's stack
// (heap memory here) for the thread's, and its stack bookkeeping goes wrong: fake frames of
// detect_stack_use_after_return shared between fibers, and __asan_handle_no_return unpoisoning the
// wrong range. Boost 1.74 announces its switches only in its ucontext implementation (BOOST_USE_ASAN),
// whose out-of-line half Debian's libboost_context (the fcontext build) does not contain; so the
// switches are announced here, on both sides of each one, which this file alone performs.
#if defined(__SANITIZE_ADDRESS__)
#define CVZ_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CVZ_ASAN_FIBERS 1
#endif
#endif
#ifdef CVZ_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace cvz {

namespace bctx = boost::context;

namespace {

// Where a stack lies, for the sanitizer's switch annotations.
struct StackBounds {
    const void* bottom = nullptr;
    std::size_t size = 0;
};

// Called just before a switch to the stack `to`. `fake_stack` keeps the leaving side's fake stack
// for finish_switch when it is resumed; nullptr says the leaving side never runs again.
inline void start_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const StackBounds& to) {
#ifdef CVZ_ASAN_FIBERS
    __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
#endif
}

// Called first thing after a switch lands; `from`, when given, receives the stack that was left.
inline void finish_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] StackBounds* from) {
#ifdef CVZ_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake_stack, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
#endif
}

// The fiber stacks of one host thread, allocated once per launch and reused by every block it runs: a
// block of 256 threads would otherwise allocate, fault in and free 16 MiB of stacks (the cost that
// dominated the tiled matmul). Stack tops are staggered by multiples of 256 bytes (Boost aligns its
// control structure to 256) so that the live frames of consecutive fibers do not all fall into the
// same L1 cache sets.
class StackPool {
public:
    StackPool(std::size_t count, std::size_t bytes)
        : bytes_(bytes), stride_(round_up(bytes, kPage) + kPage), memory_(new char[count * stride_]) {}

    // Stack `i`: `bytes` long, its top staggered inside its stride.
    bctx::stack_context stack(std::size_t i) const {
        bctx::stack_context sctx;
        sctx.sp = memory_.get() + (i + 1) * stride_ - (i % kStaggers) * kStagger;
        sctx.size = bytes_;
        return sctx;
    }

private:
    static constexpr std::size_t kPage = 4096, kStagger = 256, kStaggers = kPage / kStagger;
    static std::size_t round_up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }

    std::size_t bytes_, stride_;
    std::unique_ptr<char[]> memory_;
};

// Boost's StackAllocator over one stack of a pool, also telling where that stack lies.
class PooledStack {
public:
    PooledStack(const StackPool& pool, std::size_t index, StackBounds* bounds)
        : pool_(&pool), index_(index), bounds_(bounds) {}
    bctx::stack_context allocate() {
        bctx::stack_context sctx = pool_->stack(index_);
        *bounds_ = StackBounds{static_cast<const char*>(sctx.sp) - sctx.size, sctx.size};  // sp is the top
        return sctx;
    }
    void deallocate(bctx::stack_context&) noexcept {}  // the pool owns the memory

private:
    const StackPool* pool_;
    std::size_t index_;
    StackBounds* bounds_;
};

}  // namespace

class FiberBarrier {
public:
    bctx::fiber* scheduler = nullptr;  // where to return when this thread reaches a barrier
    StackBounds own_stack;             // this fiber's stack
    StackBounds scheduler_stack;       // the host thread's stack, learned on first entry
    void* fake_stack = nullptr;        // this fiber's fake stack while it is suspended (ASan)

    void wait() {
        start_switch(&fake_stack, scheduler_stack);
        *scheduler = std::move(*scheduler).resume();
        finish_switch(fake_stack, &scheduler_stack);
    }
};

void EmuContext::sync() const {
    if (barrier_) {
        barrier_->wait();
    } else if (stray_sync_) {
        stray_sync_->store(true, std::memory_order_relaxed);
    }
}

namespace {

// What one host thread needs to run blocks as fibers, made once and reused for every block it runs.
struct BlockFibers {
    BlockFibers(std::size_t threads, std::size_t shared_bytes, std::size_t stack_bytes)
        : shared(shared_bytes), stacks(threads, stack_bytes), contexts(threads), barriers(threads), fibers(threads) {}
    std::vector<unsigned char> shared;
    StackPool stacks;
    std::vector<EmuContext> contexts;
    std::vector<FiberBarrier> barriers;
    std::vector<bctx::fiber> fibers;
};

void run_block_as_fibers(const Dim3 grid, const Dim3 block, const Dim3 block_idx, BlockFibers& f,
                         const std::function<void(const EmuContext&)>& body) {
    const std::size_t n = block.volume();
    std::size_t t = 0;
    for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
            for (unsigned x = 0; x < block.x; ++x, ++t) {
                EmuContext& c = f.contexts[t];
                c.block_idx_ = block_idx;
                c.thread_idx_ = Dim3{x, y, z};
                c.block_dim_ = block;
                c.grid_dim_ = grid;
                c.shared_ = f.shared.data();
                c.barrier_ = &f.barriers[t];
                FiberBarrier& bar = f.barriers[t];
                f.fibers[t] = bctx::fiber(std::allocator_arg, PooledStack(f.stacks, t, &bar.own_stack),
                                          [&body, &c, &bar](bctx::fiber&& scheduler) {
                                              finish_switch(nullptr, &bar.scheduler_stack);
                                              bar.scheduler = &scheduler;
                                              body(c);
                                              start_switch(nullptr, bar.scheduler_stack);  // never resumed again
                                              return std::move(scheduler);
                                          });
            }
    for (bool live = true; live;) {
        live = false;
        for (std::size_t i = 0; i < n; ++i) {
            if (!f.fibers[i]) continue;
            void* fake_stack = nullptr;
            start_switch(&fake_stack, f.barriers[i].own_stack);
            f.fibers[i] = std::move(f.fibers[i]).resume();
            finish_switch(fake_stack, nullptr);
            live = live || bool(f.fibers[i]);
        }
    }
}

}  // namespace

Status emulate_with_barriers(Dim3 grid, Dim3 block, const EmuOptions& options,
                             const std::function<void(const EmuContext&)>& body) {
    // One set of fibers and stacks per host thread, made by that thread when it takes its first range.
    std::vector<std::unique_ptr<BlockFibers>> per_worker(host_workers(options.host_threads));
    for_each_block_parallel_on_workers(grid.volume(), options.host_threads,
                                       [&](unsigned worker, std::uint64_t first, std::uint64_t last) {
        std::unique_ptr<BlockFibers>& fibers = per_worker[worker];
        if (!fibers) fibers = std::make_unique<BlockFibers>(block.volume(), options.shared_bytes, options.fiber_stack_bytes);
        for (std::uint64_t b = first; b < last; ++b) {
            std::fill(fibers->shared.begin(), fibers->shared.end(), 0);
            run_block_as_fibers(grid, block, block_of_linear(b, grid), *fibers, body);
        }
    });
    return Status::ok();
}

}  // namespace cvz
