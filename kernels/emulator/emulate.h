#pragma once
#include <atomic>
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

// Blocks [first, last) without barriers: each block's threads as a plain loop in linear thread order.
// Instantiated inside on_cpu_path, so the body is inlined here and compiled for the CPU path in use.
template <class Body>
void run_blocks_plain(const Dim3 grid, const Dim3 block, const std::uint64_t first, const std::uint64_t last,
                      void* const shared, std::atomic<bool>* const stray_sync, const Body& shared_body) {
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
        for (unsigned z = 0; z < block.z; ++z)
            for (unsigned y = 0; y < block.y; ++y)
                for (unsigned x = 0; x < block.x; ++x) {
                    ctx.thread_idx_ = Dim3{x, y, z};
                    body(static_cast<const EmuContext&>(ctx));
                }
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
    for_each_block_parallel(grid.volume(), options.host_threads, [&](std::uint64_t first, std::uint64_t last) {
        std::vector<unsigned char> shared(options.shared_bytes);
        void* const shared_data = shared.data();
        on_cpu_path([&] { run_blocks_plain(grid, block, first, last, shared_data, &stray_sync, body); });
    });
    if (stray_sync)
        return Status::error(ErrorKind::InvalidInput,
                             "the kernel called sync() but was emulated without barriers (EmuOptions::barriers)");
    return Status::ok();
}

}  // namespace cvz
