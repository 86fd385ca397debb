#pragma once
// For code built with the CUDA toolkit only (tests, benchmarks): launch a convolution kernel on
// device memory already in place, on `stream`, without copies or syncs.
#include <cuda_runtime.h>

#include "../core/status.h"
#include "convolution_launch.h"
#include "convolution_problem.h"

namespace cvz {

// Copies `side` x `side` floats from host memory into the __constant__ mask the constant variants
// read (the one of the translation unit that launches them). Call it before such launches, once per
// mask: it is not part of a launch, so that timings are the kernel's.
Status set_convolution_constant_mask(const float* host_mask, std::uint32_t side);

// Launches `launch` on `device_problem` (device pointers; the constant variants read the mask last
// set by set_convolution_constant_mask, whose side must be device_problem.mask_side).
Status launch_convolution_on_device(const ConvolutionProblem& device_problem, const ConvolutionLaunch& launch,
                                    cudaStream_t stream);

}  // namespace cvz
