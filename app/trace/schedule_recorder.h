#pragma once
// Recording a launch's block schedule for the CLI and the app: the grayscale or matmul request as the
// runners take it, on its backend (Auto: CUDA when a device exists), through the recording launchers
// of kernels/<family>/<family>_schedule.h. Safe to call from a worker thread.
#include <QString>

#include "app/grayscale/grayscale_runner.h"
#include "kernels/core/block_schedule.h"
#include "app/matmul/matmul_runner.h"

namespace cvz {

struct ScheduleRun {
    Status status;
    BlockSchedule schedule;
    std::vector<std::uint8_t> gray;  // grayscale: the recorded run's output (the same bytes as a plain run)
    Matrix c;                        // matmul: likewise
};

ScheduleRun record_grayscale_schedule(const GrayscaleRequest& request);
ScheduleRun record_matmul_schedule(const MatmulRequest& request);

}  // namespace cvz
