#pragma once
// A launch's block schedule as it really ran: for every block of the grid, the multiprocessor that ran
// it (on the emulator: the host worker) and when it started and ended. Recorded on the GPU from
// %smid and %globaltimer (kernels/cuda/schedule_recording_context.cuh), on the emulator from the
// worker index and a steady clock (EmuOptions::schedule). Qt-free: the JSON lives in app/.
#include <cstdint>
#include <string>
#include <vector>

#include "dim3.h"

namespace cvz {

// One block's raw record, indexed by its linear block id: clock values in ns on the recorder's own
// clock (not yet relative to the launch). `sm` is -1 while the block has not been recorded.
struct BlockTiming {
    int sm = -1;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
};

struct BlockRecord {
    Dim3 block;              // blockIdx
    int sm = 0;              // %smid, or the emulator's host worker
    std::uint64_t start_ns = 0;  // relative to the earliest start of the launch
    std::uint64_t end_ns = 0;
};

struct BlockSchedule {
    std::string backend;   // "cuda" or "cpu"
    std::string device;    // "NVIDIA H200", "CPU emulator (2 host threads)"
    int sms = 0;           // multiprocessors (host workers on the emulator)
    std::vector<BlockRecord> blocks;  // one per block of the grid, in linear block order
};

// The schedule of a `grid` from its raw records (one per linear block id): block indices filled in,
// times made relative to the earliest start. Empty string on success, else what is wrong with the
// records (a block never recorded, an end before its start, an SM outside [0, sms)).
std::string make_block_schedule(Dim3 grid, const std::vector<BlockTiming>& raw, BlockSchedule* out);

// Empty when `s` holds every block of a grid exactly once (the blocks form the box [0, max] in x, y
// and z), every SM in [0, sms), every end at or after its start and the earliest start at 0; else the
// first problem found, in words. `grid`, when not null, receives the grid the blocks span.
std::string check_block_schedule(const BlockSchedule& s, Dim3* grid = nullptr);

}  // namespace cvz
