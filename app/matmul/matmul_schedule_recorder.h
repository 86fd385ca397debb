#pragma once
// The matmul launch of a request recorded with its block schedule (app/trace/schedule_recorder.h),
// through kernels/matmul/matmul_schedule.h.
#include "app/matmul/matmul_runner.h"
#include "app/trace/schedule_recorder.h"

namespace cvz {

// output: the bytes of C (rows x cols float32, row-major) of the recorded run.
ScheduleRun record_matmul_schedule(const MatmulRequest& request);

}  // namespace cvz
