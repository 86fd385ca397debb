#pragma once
// Occupancy as the CUDA runtime reports it (ARCHITECTURE.md, "Models": "with a GPU, the CUDA
// occupancy API"), put side by side with the model of occupancy_model.h so the app can show both the
// measured figure and the resource that limits it.
#include <QString>

#include <optional>

#include "app/models/device_profile.h"
#include "kernels/core/status.h"
#include "kernels/cuda/occupancy_api.h"
#include "app/models/occupancy_model.h"

namespace cvz {

// How the runtime's answer compares with the model's.
struct OccupancyCheck {
    Status status;                   // the runtime's refusal or absence, when there is no answer
    int api_blocks_per_sm = 0;       // cudaOccupancyMaxActiveBlocksPerMultiprocessor
    int api_regs_per_thread = 0;     // cudaFuncGetAttributes' numRegs
    int given_regs_per_thread = 0;   // what the caller passed (kernel_resources.h)
    int model_blocks_per_sm = 0;     // compute_occupancy with the runtime's register count
    bool agrees = false;             // api_blocks_per_sm == model_blocks_per_sm
    QString note;                    // a sentence when the two disagree, or the registers differ
};

// Asks the CUDA runtime (current device) how many blocks of `kernel` with `block` (threads, and
// shared_bytes passed as dynamic shared memory) fit on one SM, and fills an Occupancy with it:
// blocks_per_sm, active_warps and occupancy from the runtime; warps_per_block, the blocks_by_* figures
// and `limit` from compute_occupancy(profile, block with the runtime's register count), so the limit
// named is the model's. Disagreement between the two is reported in `check`. std::nullopt when the
// runtime cannot answer (no toolkit, no device, a refusal): check->status says why, and the caller
// falls back to compute_occupancy.
std::optional<Occupancy> measured_occupancy(KernelId kernel, const BlockResources& block, const DeviceProfile& profile,
                                            OccupancyCheck* check = nullptr);

}  // namespace cvz
