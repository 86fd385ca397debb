// The emulator's barrier mode: each thread of a block is a Boost.Context fiber. A round resumes every
// live fiber once; each runs until its next sync() or its end, so no thread passes barrier k before
// every thread of its block has reached it, as __syncthreads() guarantees.
#include <boost/context/fiber.hpp>

#include <algorithm>
#include <memory>
#include <new>
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

// ThreadSanitizer, likewise, keeps a shadow stack and a clock per context of execution: each fiber
// gets its own (__tsan_create_fiber) and every switch is announced just before it is made. Flag 0
// makes a switch synchronise, as it does: one host thread runs a block's fibers one after another.
#if defined(__SANITIZE_THREAD__)
#define CVZ_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CVZ_TSAN_FIBERS 1
#endif
#endif
#ifdef CVZ_TSAN_FIBERS
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
}
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

// The TSan side (no-ops without TSan): a context per fiber, and each switch announced to it.
struct TsanFibers {
#ifdef CVZ_TSAN_FIBERS
    std::vector<void*> fibers;
    void* host = nullptr;
    explicit TsanFibers(std::size_t n) : fibers(n) {
        for (void*& f : fibers) f = __tsan_create_fiber(0);
    }
    ~TsanFibers() {
        for (void* f : fibers) __tsan_destroy_fiber(f);
    }
    // Fresh contexts for every block: a finished thread's fiber is abandoned mid-switch (see
    // BlockFibers::finish), leaving its frames on its context's shadow stack.
    void enter_block() {
        host = __tsan_get_current_fiber();
        for (void*& f : fibers) {
            __tsan_destroy_fiber(f);
            f = __tsan_create_fiber(0);
        }
    }
    void switch_to(std::size_t i) { __tsan_switch_to_fiber(i < fibers.size() ? fibers[i] : host, 0); }
#else
    explicit TsanFibers(std::size_t) {}
    void enter_block() {}
    void switch_to(std::size_t) {}
#endif
    TsanFibers(const TsanFibers&) = delete;
    TsanFibers& operator=(const TsanFibers&) = delete;
};

// The fiber stacks of one host thread, allocated once per launch and reused by every block it runs: a
// block of 256 threads would otherwise allocate, fault in and free 16 MiB of stacks (the cost that
// dominated the tiled matmul). Stack tops are staggered by multiples of 256 bytes (Boost aligns its
// control structure to 256) so that the live frames of consecutive fibers do not all fall into the
// same L1 cache sets.
class StackPool {
public:
    StackPool(std::size_t count, std::size_t bytes)
        : bytes_(std::max(bytes, kMinBytes)), stride_(round_up(bytes_, kPage) + kPage), memory_(new char[count * stride_]) {}

    // Stack `i`: `bytes` long, its top staggered inside its stride.
    bctx::stack_context stack(std::size_t i) const {
        bctx::stack_context sctx;
        sctx.sp = memory_.get() + (i + 1) * stride_ - (i % kStaggers) * kStagger;
        sctx.size = bytes_;
        return sctx;
    }

private:
    static constexpr std::size_t kPage = 4096, kStagger = 256, kStaggers = kPage / kStagger;
    static constexpr std::size_t kMinBytes = 16 * 1024;  // Boost's control block and a body's frames must fit
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

struct BlockFibers;

// One emulated thread's side of the block's barrier.
class FiberBarrier {
public:
    BlockFibers* block = nullptr;
    std::size_t index = 0;       // the thread's linear id in its block
    StackBounds own_stack;       // this fiber's stack
    void* fake_stack = nullptr;  // this fiber's fake stack while it is suspended (ASan)

    void wait();
};

void EmuContext::sync() const {
    if (barrier_) {
        barrier_->wait();
    } else if (stray_sync_) {
        stray_sync_->store(true, std::memory_order_relaxed);
    }
}

// What one host thread needs to run blocks as fibers, made once and reused for every block it runs.
//
// A round runs every live thread of the block once, in linear order, each until its next sync() or its
// end. Switches are chained: a thread reaching its barrier switches straight to the next live thread,
// and only the round's last one returns to the host thread (the scheduler), so a round costs one switch
// per thread rather than two. Slot i of `fibers` holds thread i while it is suspended; the running
// thread's slot is empty, and a finished thread's stays empty.
struct BlockFibers {
    BlockFibers(std::size_t threads, std::size_t shared_bytes, std::size_t stack_bytes)
        : shared(shared_bytes), stacks(threads, stack_bytes), contexts(threads), barriers(threads), fibers(threads),
          tsan(threads) {}

    std::vector<unsigned char> shared;
    StackPool stacks;
    std::vector<EmuContext> contexts;
    std::vector<FiberBarrier> barriers;
    std::vector<bctx::fiber> fibers;
    std::size_t threads = 0;         // of the current block
    bctx::fiber scheduler;           // the host thread, suspended while the block's threads run
    StackBounds scheduler_stack;     // the host thread's stack, learned when it first switches to a fiber
    std::size_t from = 0;            // who made the latest switch: a thread index, or `threads` for the scheduler
    bool from_finished = false;      // that side has finished and its fiber is to be abandoned (TSan)
    // Where a finished fiber's handle is dropped without being destroyed (destroying a suspended fiber
    // would resume it to unwind it). The handle is a pointer into its stack, which the pool owns.
    alignas(bctx::fiber) unsigned char abandoned[sizeof(bctx::fiber)];
    TsanFibers tsan;                 // switch_to(threads): back to the host thread

    // The first suspended thread at or after `i`; `threads` when none is left in this round.
    std::size_t next_live(std::size_t i) const {
        while (i < threads && !fibers[i]) ++i;
        return i;
    }
    bctx::fiber& slot(std::size_t i) { return i < threads ? fibers[i] : scheduler; }
    const StackBounds& stack_of(std::size_t i) const { return i < threads ? barriers[i].own_stack : scheduler_stack; }

    // Called first thing after a switch lands: `back` is the side that switched here, suspended (or
    // empty when that side has finished); it goes back into its slot.
    void land(void* fake_stack, bctx::fiber&& back) {
        StackBounds left;
        finish_switch(fake_stack, &left);
        if (from == threads) scheduler_stack = left;
        if (from_finished) {
            new (abandoned) bctx::fiber(std::move(back));  // never resumed, never destroyed
            from_finished = false;
        } else {
            slot(from) = std::move(back);
        }
    }

    // Thread i has reached a barrier: run the next live thread of this round, or end the round.
    void switch_from(std::size_t i) {
        const std::size_t to = next_live(i + 1);
        FiberBarrier& me = barriers[i];
        from = i;
        start_switch(&me.fake_stack, stack_of(to));
        tsan.switch_to(to);
        bctx::fiber back = std::move(slot(to)).resume();
        land(me.fake_stack, std::move(back));
    }

    void run_block(const Dim3 grid, const Dim3 block, const Dim3 block_idx,
                   const std::function<void(const EmuContext&)>& body) {
        threads = block.volume();
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
                    barriers[t].block = this;
                    barriers[t].index = t;
                    fibers[t] = bctx::fiber(std::allocator_arg, PooledStack(stacks, t, &barriers[t].own_stack),
                                            [this, &body, &c, t](bctx::fiber&& back) {
                                                land(nullptr, std::move(back));
                                                body(c);
                                                // Finished: hand over to the next live thread (or the
                                                // scheduler); this fiber is never resumed again.
                                                const std::size_t to = next_live(t + 1);
                                                from = t;
                                                start_switch(nullptr, stack_of(to));
                                                tsan.switch_to(to);
#ifdef CVZ_TSAN_FIBERS
                                                // Leave as a barrier does, by a resume: returning would
                                                // run this lambda's and Boost's function exits after the
                                                // switch was announced, popping them off the next
                                                // fiber's shadow stack (TSan then crashed one run in
                                                // four). The next side abandons this fiber on landing.
                                                from_finished = true;
                                                (void)std::move(slot(to)).resume();
#endif
                                                return std::move(slot(to));
                                            });
                }
        tsan.enter_block();
        for (std::size_t first = next_live(0); first < threads; first = next_live(0)) {
            void* fake_stack = nullptr;
            from = threads;
            start_switch(&fake_stack, stack_of(first));
            tsan.switch_to(first);
            bctx::fiber back = std::move(fibers[first]).resume();
            land(fake_stack, std::move(back));
        }
    }
};

void FiberBarrier::wait() { block->switch_from(index); }

Status emulate_with_barriers(Dim3 grid, Dim3 block, const EmuOptions& options,
                             const std::function<void(const EmuContext&)>& body) {
    // One set of fibers and stacks per host thread, made by that thread when it takes its first range.
    std::vector<std::unique_ptr<BlockFibers>> per_worker(host_workers(options.host_threads));
    BlockTiming* record = nullptr;
    if (options.schedule) {
        options.schedule->assign(grid.volume(), BlockTiming{});
        record = options.schedule->data();
    }
    for_each_block_parallel_on_workers(grid.volume(), options.host_threads,
                                       [&](unsigned worker, std::uint64_t first, std::uint64_t last) {
        std::unique_ptr<BlockFibers>& fibers = per_worker[worker];
        if (!fibers) fibers = std::make_unique<BlockFibers>(block.volume(), options.shared_bytes, options.fiber_stack_bytes);
        for (std::uint64_t b = first; b < last; ++b) {
            std::fill(fibers->shared.begin(), fibers->shared.end(), 0);
            const std::uint64_t start = record ? emu_clock_ns() : 0;
            fibers->run_block(grid, block, block_of_linear(b, grid), body);
            if (record) record[b] = BlockTiming{int(worker), start, emu_clock_ns()};
        }
    });
    return Status::ok();
}

}  // namespace cvz
