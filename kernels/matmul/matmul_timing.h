#pragma once
#include <vector>

#include "../core/kernel_timing.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// The block-size sweep on the GPU: uploads problem.a and problem.b (host memory) once to device
// options.device, then for each of `launches` (naive blocks, tiled TILEs) times the launch
// (options.warmup untimed, then options.repeats timed; kernel time from CUDA events, the median).
// problem.c is not written. A launch our validator or CUDA refuses carries the reason on its row and
// the sweep goes on. Progress and cancel as in kernel_timing.h.
// Built without the CUDA toolkit: status is ErrorKind::Unavailable and no launch is timed.
TimingSweep time_matmul_launches(const MatmulProblem& problem, const std::vector<MatmulLaunch>& launches,
                                 const TimingOptions& options = {});

}  // namespace cvz
