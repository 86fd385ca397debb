#pragma once
// Runs a traced body over a sample of a grid's blocks (TraceOptions::sample_blocks): the emulator
// runs a 1-D grid of as many blocks as the sample, and each block's context is given the sampled
// block's index and the real grid, so the body and the recorder see exactly the block they would see
// in the whole launch.
#include <cstdint>
#include <vector>

#include "../emulator/emu_context.h"
#include "../emulator/emulate.h"

namespace cvz {

// The grid the emulator runs: the sample's size in x, or `grid` when there is no sample.
inline Dim3 emulated_grid(Dim3 grid, const std::vector<std::uint64_t>& sample) {
    return sample.empty() ? grid : Dim3{unsigned(sample.size()), 1, 1};
}

// Calls f(context) with the context of the block the emulator runs as it is in the real launch: `ctx`
// itself when there is no sample (this runs once per emulated thread, so no copy), else a copy with
// the sampled block's index and the real grid.
template <class F>
void with_sampled_context(const EmuContext& ctx, Dim3 grid, const std::vector<std::uint64_t>& sample, F&& f) {
    if (sample.empty()) {
        f(ctx);
        return;
    }
    EmuContext c = ctx;
    c.block_idx_ = block_of_linear(sample[ctx.block_idx().x], grid);
    c.grid_dim_ = grid;
    f(static_cast<const EmuContext&>(c));
}

}  // namespace cvz
