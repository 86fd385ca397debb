#pragma once
// Recording a convolution launch's block schedule (kernels/convolution/convolution_schedule.h) for the
// CLI and the app: the runner's request on its backend (Auto: CUDA when a device exists). Safe to call
// from a worker thread.
#include "app/convolution/convolution_runner.h"
#include "kernels/core/block_schedule.h"

namespace cvz {

struct ConvolutionScheduleRun {
    Status status;
    BlockSchedule schedule;
    std::vector<float> out;  // the recorded run's output (the same bytes as a plain run)
};

ConvolutionScheduleRun record_convolution_schedule(const ConvolutionRequest& request);

}  // namespace cvz
