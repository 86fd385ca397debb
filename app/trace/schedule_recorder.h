#pragma once
// Recording a launch's block schedule for the CLI and the app: each family's recorder
// (app/<family>/<family>_schedule_recorder.h) runs its request once more through the recording
// launchers of kernels/<family>/, on its backend. What they share is here. Safe on a worker thread.
#include <cstdint>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "kernels/core/block_schedule.h"
#include "kernels/core/status.h"

namespace cvz {

struct ScheduleRun {
    Status status;
    BlockSchedule schedule;
    // The recorded run's result as bytes: the same bytes as a plain run of the launch must give.
    std::vector<std::uint8_t> output;
};

// The backend a recording runs on: Auto is CUDA when a device exists and `cuda_suits` (a launch the
// GPU can show as asked), else the emulator. Sets *status when CUDA is asked for but not usable.
BackendChoice schedule_backend(BackendChoice requested, bool cuda_suits, Status* status);

}  // namespace cvz
