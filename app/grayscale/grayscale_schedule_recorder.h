#pragma once
// The grayscale launch of a request recorded with its block schedule (app/trace/schedule_recorder.h),
// through kernels/grayscale/grayscale_schedule.h.
#include "app/grayscale/grayscale_runner.h"
#include "app/trace/schedule_recorder.h"

namespace cvz {

// output: the width*height grey bytes of the recorded run.
ScheduleRun record_grayscale_schedule(const GrayscaleRequest& request);

}  // namespace cvz
