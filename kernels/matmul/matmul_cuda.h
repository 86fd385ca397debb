#pragma once
#include "../core/gpu_timings.h"
#include "../core/status.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// Runs a matmul kernel on CUDA device `device`: `problem` holds host pointers; uploads A and B,
// launches, downloads C. Errors carry CUDA's name and text. Without the toolkit: ErrorKind::Unavailable.
// The barrier-removed lesson (launch.second_barrier = false) runs on the emulator only.
Status matmul_cuda(const MatmulProblem& problem, const MatmulLaunch& launch, GpuTimings* timings = nullptr,
                   int device = 0);

}  // namespace cvz
