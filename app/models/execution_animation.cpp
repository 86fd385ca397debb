#include "app/models/execution_animation.h"

#include <algorithm>

namespace cvz {

std::uint64_t animation_steps(AnimationMode mode, const WavePlan& waves, std::uint64_t warps_per_block) {
    switch (mode) {
        case AnimationMode::Off: return 0;
        case AnimationMode::Waves: return waves.waves;
        case AnimationMode::Warps: return warps_per_block;
    }
    return 0;
}

AnimationFrame animation_frame(AnimationMode mode, std::uint64_t position, const WavePlan& waves, std::int64_t block,
                               std::uint64_t warps_per_block) {
    AnimationFrame f;
    f.mode = mode;
    const std::uint64_t k = std::min(position, animation_steps(mode, waves, warps_per_block));
    switch (mode) {
        case AnimationMode::Off:
            f.done_end = f.run_end = waves.blocks;
            f.wave = waves.waves;
            break;
        case AnimationMode::Waves:
            f.done_end = waves.wave_first_block(k);
            f.run_end = k < waves.waves ? waves.wave_end_block(k) : waves.blocks;
            f.wave = k;
            break;
        case AnimationMode::Warps:
            f.done_end = f.run_end = waves.blocks;
            f.block = block >= 0 && std::uint64_t(block) < waves.blocks ? block : 0;
            f.warp_done_end = k;
            f.warp_run_end = std::min(k + 1, warps_per_block);
            f.wave = waves.blocks_per_wave ? std::uint64_t(f.block) / waves.blocks_per_wave : 0;
            break;
    }
    return f;
}

}  // namespace cvz
