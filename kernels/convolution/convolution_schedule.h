#pragma once
// Recording where and when each block of a convolution launch ran (kernels/core/block_schedule.h):
// the same launch as convolution_cuda / convolution_emulated, with a recording context around the
// same body.
#include "../core/block_schedule.h"
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "convolution_launch.h"
#include "convolution_problem.h"

namespace cvz {

// On CUDA device `device`: `problem` holds host pointers; uploads, launches the recorded kernel once
// to warm up and once to record, downloads out. Without the toolkit: ErrorKind::Unavailable.
Status convolution_cuda_schedule(const ConvolutionProblem& problem, const ConvolutionLaunch& launch, BlockSchedule* out,
                                 int device = 0);

// On the emulator: the host worker that ran each block as its SM, a steady clock for the times.
Status convolution_emulated_schedule(const ConvolutionProblem& problem, const ConvolutionLaunch& launch,
                                     BlockSchedule* out, const EmuOptions& options = {});

}  // namespace cvz
