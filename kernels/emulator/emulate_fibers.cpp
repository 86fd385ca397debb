// The emulator's barrier mode: each thread of a block is a Boost.Context fiber. A round resumes every
// live fiber once; each runs until its next sync() or its end, so no thread passes barrier k before
// every thread of its block has reached it, as __syncthreads() guarantees.
#include <boost/context/fiber.hpp>
#include <boost/context/fixedsize_stack.hpp>

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

// A fixedsize_stack that also tells where the stack it allocated lies.
class RecordingStack {
public:
    RecordingStack(std::size_t bytes, StackBounds* bounds) : stack_(bytes), bounds_(bounds) {}
    bctx::stack_context allocate() {
        bctx::stack_context sctx = stack_.allocate();
        *bounds_ = StackBounds{static_cast<const char*>(sctx.sp) - sctx.size, sctx.size};  // sp is the top
        return sctx;
    }
    void deallocate(bctx::stack_context& sctx) noexcept { stack_.deallocate(sctx); }

private:
    bctx::fixedsize_stack stack_;
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

void run_block_as_fibers(const Dim3 grid, const Dim3 block, const EmuOptions& options, const Dim3 block_idx,
                         std::vector<unsigned char>& shared,
                         const std::function<void(const EmuContext&)>& body) {
    const std::size_t n = block.volume();
    std::vector<EmuContext> contexts(n);
    std::vector<FiberBarrier> barriers(n);
    std::vector<bctx::fiber> fibers(n);
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
                FiberBarrier& bar = barriers[t];
                fibers[t] = bctx::fiber(std::allocator_arg, RecordingStack(options.fiber_stack_bytes, &bar.own_stack),
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
            if (!fibers[i]) continue;
            void* fake_stack = nullptr;
            start_switch(&fake_stack, barriers[i].own_stack);
            fibers[i] = std::move(fibers[i]).resume();
            finish_switch(fake_stack, nullptr);
            live = live || bool(fibers[i]);
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
