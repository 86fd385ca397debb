#pragma once
// The emulator's block schedule (kernels/core/block_schedule.h): each block's host worker as its
// "SM" and a steady clock, recorded by running a launch with EmuOptions::schedule. Shared by the
// families' recording launchers.
#include <functional>
#include <vector>

#include "../core/block_schedule.h"
#include "../core/status.h"
#include "emu_options.h"

namespace cvz {

// Runs `launch(options with schedule set)` and turns what its blocks recorded over `grid` into `out`.
Status record_emulator_schedule(Dim3 grid, const EmuOptions& options,
                                const std::function<Status(const EmuOptions&)>& launch, BlockSchedule* out);

}  // namespace cvz
