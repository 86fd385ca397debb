#pragma once
// Recording where and when each block of a matmul launch ran (kernels/core/block_schedule.h): the same
// launch as matmul_cuda / matmul_emulated, with a recording context around the same body.
#include "../core/block_schedule.h"
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// On CUDA device `device`: `problem` holds host pointers; uploads A and B, launches the recorded kernel
// once to warm up and once to record, downloads C. Without the toolkit: ErrorKind::Unavailable.
Status matmul_cuda_schedule(const MatmulProblem& problem, const MatmulLaunch& launch, BlockSchedule* out,
                            int device = 0);

// On the emulator: the host worker that ran each block as its SM, a steady clock for the times.
Status matmul_emulated_schedule(const MatmulProblem& problem, const MatmulLaunch& launch, BlockSchedule* out,
                                const EmuOptions& options = {});

}  // namespace cvz
