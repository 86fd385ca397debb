#pragma once
#include "../core/gpu_timings.h"
#include "../core/status.h"
#include "convolution_launch.h"
#include "convolution_problem.h"

namespace cvz {

// Runs a convolution variant on CUDA device `device`: `problem` holds host pointers; uploads the
// grayscale and the mask (to global memory and to __constant__ memory), launches, downloads out.
// Errors carry CUDA's name and text. Without the toolkit: ErrorKind::Unavailable.
Status convolution_cuda(const ConvolutionProblem& problem, const ConvolutionLaunch& launch, GpuTimings* timings = nullptr,
                        int device = 0);

}  // namespace cvz
