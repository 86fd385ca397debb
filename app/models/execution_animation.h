#pragma once
#include <cstdint>

#include "app/models/wave_model.h"

namespace cvz {

// The execution animation: blocks dispatched onto the SMs wave by wave, or the warps of one block
// one after the other. A frame says which blocks (and warps) are done, running or still waiting;
// the overlay shader draws it from these few numbers.
enum class AnimationMode { Off, Waves, Warps };

struct AnimationFrame {
    AnimationMode mode = AnimationMode::Off;
    std::uint64_t done_end = 0;  // blocks [0, done_end) have finished
    std::uint64_t run_end = 0;   // blocks [done_end, run_end) are resident on the SMs now
    std::int64_t block = -1;     // Warps: the block stepped through (-1: none)
    std::uint64_t warp_done_end = 0;  // Warps: warps [0, warp_done_end) of `block` have finished
    std::uint64_t warp_run_end = 0;   // Warps: warps [warp_done_end, warp_run_end) execute now
    std::uint64_t wave = 0;      // Waves: the wave running (== waves when all are done)
};

// Positions run from 0 to steps: position k shows step k running and steps before it done; the
// last position shows everything done.
std::uint64_t animation_steps(AnimationMode mode, const WavePlan& waves, std::uint64_t warps_per_block);

// Warps: every block but `block` counts as done, so only the chosen block's warps change.
AnimationFrame animation_frame(AnimationMode mode, std::uint64_t position, const WavePlan& waves, std::int64_t block,
                               std::uint64_t warps_per_block);

}  // namespace cvz
