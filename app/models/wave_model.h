#pragma once
#include <cstdint>

#include "app/models/occupancy_model.h"

namespace cvz {

// How a grid's blocks are scheduled onto the SMs: up to sm_count * blocks_per_sm blocks run at once
// (one wave); blocks are dispatched in linear block order, round-robin over the SMs. The last wave
// (the tail) may be partial, leaving SMs idle.
struct WavePlan {
    std::uint64_t blocks = 0;
    int sm_count = 0;
    int blocks_per_sm = 0;
    std::uint64_t blocks_per_wave = 0;
    std::uint64_t waves = 0;
    std::uint64_t tail_blocks = 0;   // blocks in the last wave
    double tail_fill = 0;            // tail_blocks / blocks_per_wave (1 when the last wave is full)

    struct Slot {
        std::uint64_t wave = 0;
        int sm = 0;
        int slot = 0;  // which of the SM's resident block slots
    };
    Slot slot_of(std::uint64_t linear_block) const;
    // Blocks of wave `w`: [first, last).
    std::uint64_t wave_first_block(std::uint64_t w) const;
    std::uint64_t wave_end_block(std::uint64_t w) const;
};

WavePlan plan_waves(std::uint64_t blocks, int sm_count, int blocks_per_sm);

}  // namespace cvz
