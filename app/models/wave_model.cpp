#include "app/models/wave_model.h"

#include <algorithm>

namespace cvz {

WavePlan plan_waves(std::uint64_t blocks, int sm_count, int blocks_per_sm) {
    WavePlan p;
    p.blocks = blocks;
    p.sm_count = std::max(1, sm_count);
    p.blocks_per_sm = std::max(1, blocks_per_sm);
    p.blocks_per_wave = std::uint64_t(p.sm_count) * p.blocks_per_sm;
    p.waves = (blocks + p.blocks_per_wave - 1) / p.blocks_per_wave;
    p.tail_blocks = blocks == 0 ? 0 : blocks - (p.waves - 1) * p.blocks_per_wave;
    p.tail_fill = p.blocks_per_wave ? double(p.tail_blocks) / double(p.blocks_per_wave) : 0;
    return p;
}

WavePlan::Slot WavePlan::slot_of(std::uint64_t b) const {
    Slot s;
    s.wave = b / blocks_per_wave;
    const std::uint64_t in_wave = b % blocks_per_wave;
    s.sm = int(in_wave % std::uint64_t(sm_count));
    s.slot = int(in_wave / std::uint64_t(sm_count));
    return s;
}

std::uint64_t WavePlan::wave_first_block(std::uint64_t w) const { return std::min(blocks, w * blocks_per_wave); }
std::uint64_t WavePlan::wave_end_block(std::uint64_t w) const { return std::min(blocks, (w + 1) * blocks_per_wave); }

}  // namespace cvz
