#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "../core/cpu_dispatch.h"
#include "../core/launch_limits.h"
#include "../core/status.h"
#include "block_scheduler.h"
#include "emu_context.h"
#include "emu_options.h"

namespace cvz {

// Block index of the linear block id `b`, x fastest (the inverse of linear_block_id).
inline Dim3 block_of_linear(std::uint64_t b, Dim3 grid) {
    const std::uint64_t plane = std::uint64_t(grid.x) * grid.y;
    return Dim3{unsigned(b % grid.x), unsigned((b / grid.x) % grid.y), unsigned(b / plane)};
}

// The emulator's clock for schedule recording, in ns: steady, so a block's end is never before its start.
inline std::uint64_t emu_clock_ns() {
    return std::uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// Blocks [first, last) without barriers: each block's threads as a plain loop in linear thread order.
// Instantiated inside on_cpu_path, so the body is inlined here and compiled for the CPU path in use.
template <class Body>
void run_blocks_plain(const Dim3 grid, const Dim3 block, const std::uint64_t first, const std::uint64_t last,
                      void* const shared, std::atomic<bool>* const stray_sync, const Body& shared_body,
                      BlockTiming* const record = nullptr, const unsigned worker = 0) {
    // A private copy of the body: its captures become locals, which the body's own stores (bytes may
    // alias anything) cannot change, so what it captured by value stays in registers across the
    // thread loop instead of being re-read after every store. Bodies capture references or small
    // values, so the copy is cheap. (The loop itself does not vectorise: a kernel's bounds guard is
    // control flow GCC neither if-converts for byte stores nor splits off.)
    Body body = shared_body;
    EmuContext ctx;
    ctx.block_dim_ = block;
    ctx.grid_dim_ = grid;
    ctx.shared_ = shared;
    ctx.stray_sync_ = stray_sync;
    for (std::uint64_t b = first; b < last; ++b) {
        ctx.block_idx_ = block_of_linear(b, grid);
        // Recording reads the clock once before the block and once after it: per block, not per thread.
        const std::uint64_t start = record ? emu_clock_ns() : 0;
        for (unsigned z = 0; z < block.z; ++z)
            for (unsigned y = 0; y < block.y; ++y)
                for (unsigned x = 0; x < block.x; ++x) {
                    ctx.thread_idx_ = Dim3{x, y, z};
                    body(static_cast<const EmuContext&>(ctx));
                }
        if (record) record[b] = BlockTiming{int(worker), start, emu_clock_ns()};
    }
}

// Runs `body(const EmuContext&)` once per thread of a grid of blocks with barriers: every thread of a
// block is a fiber that runs until its next sync(), then the next fiber runs (emulate_fibers.cpp).
Status emulate_with_barriers(Dim3 grid, Dim3 block, const EmuOptions& options,
                             const std::function<void(const EmuContext&)>& body);

// The CPU emulator of CUDA's execution model: runs `body(const EmuContext&)` once for every thread
// of a `grid` of `block`s. Blocks run in parallel on host threads in no particular order; without
// barriers a block's threads run as a plain loop in linear thread order, on a copy of `body` per range
// of blocks (so, as on a GPU, a body must not count on state it changes from one thread to the next).
// Both modes run the body compiled for the CPU path in use (kernels/core/cpu_dispatch.h).
template <class Body>
Status emulate(Dim3 grid, Dim3 block, const EmuOptions& options, Body&& body) {
    if (std::string e = validate_block(block); !e.empty()) return Status::error(ErrorKind::InvalidInput, e);
    if (std::string e = validate_grid(grid); !e.empty()) return Status::error(ErrorKind::InvalidInput, e);
    if (options.barriers)
        return emulate_with_barriers(grid, block, options,
                                     function_on_cpu_path<void(const EmuContext&)>(cpu_path(), body));

    std::atomic<bool> stray_sync{false};
    BlockTiming* record = nullptr;
    if (options.schedule) {
        options.schedule->assign(grid.volume(), BlockTiming{});
        record = options.schedule->data();
    }
    for_each_block_parallel_on_workers(grid.volume(), options.host_threads,
                                       [&](unsigned worker, std::uint64_t first, std::uint64_t last) {
        std::vector<unsigned char> shared(options.shared_bytes);
        void* const shared_data = shared.data();
        on_cpu_path([&] { run_blocks_plain(grid, block, first, last, shared_data, &stray_sync, body, record, worker); });
    });
    if (stray_sync)
        return Status::error(ErrorKind::InvalidInput,
                             "the kernel called sync() but was emulated without barriers (EmuOptions::barriers)");
    return Status::ok();
}

}  // namespace cvz
