#pragma once
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "convolution_launch.h"
#include "convolution_problem.h"

namespace cvz {

// Runs a convolution variant's body on the CPU emulator (with fibers and shared memory for the tiled
// ones). The constant variants read p.mask as their constant memory.
Status convolution_emulated(const ConvolutionProblem& p, const ConvolutionLaunch& launch, const EmuOptions& options = {});

}  // namespace cvz
