#pragma once
#include <QString>

#include "app/models/device_profile.h"

namespace cvz {

// What one block of a kernel asks of an SM.
struct BlockResources {
    int threads = 256;
    int regs_per_thread = 32;
    int shared_bytes = 0;  // static + dynamic shared memory per block
};

enum class OccupancyLimit { Warps, Blocks, Registers, SharedMemory, Invalid };
QString to_string(OccupancyLimit limit);

struct Occupancy {
    int warps_per_block = 0;
    int blocks_by_warps = 0;
    int blocks_by_blocks = 0;
    int blocks_by_registers = 0;
    int blocks_by_shared = 0;
    int blocks_per_sm = 0;       // the minimum of the four
    int active_warps = 0;        // blocks_per_sm * warps_per_block
    double occupancy = 0;        // active_warps / max warps per SM
    OccupancyLimit limit = OccupancyLimit::Invalid;
    QString error;               // why no block fits, when blocks_per_sm == 0
};

// NVIDIA's occupancy formula (the CUDA Occupancy Calculator): blocks per SM limited by warps, by the
// block slots, by registers (allocated per warp in units of reg_alloc_unit) and by shared memory
// (allocated in units of shared_alloc_unit, plus the per-block reservation).
Occupancy compute_occupancy(const DeviceProfile& device, const BlockResources& block);

}  // namespace cvz
