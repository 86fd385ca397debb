#pragma once
#include <vector>

#include "../core/kernel_timing.h"
#include "convolution_launch.h"
#include "convolution_problem.h"

namespace cvz {

// The block-size sweep on the GPU: uploads problem.gray and problem.mask (host memory; the mask to
// global and to __constant__ memory) once to device options.device, then times each of `launches`
// (options.warmup untimed, then options.repeats timed; kernel time from CUDA events, the median).
// problem.out is not written. A launch the validator or CUDA refuses carries the reason on its row.
// Built without the CUDA toolkit: status is ErrorKind::Unavailable and no launch is timed.
TimingSweep time_convolution_launches(const ConvolutionProblem& problem, const std::vector<ConvolutionLaunch>& launches,
                                      const TimingOptions& options = {});

}  // namespace cvz
