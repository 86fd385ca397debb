#pragma once
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// Runs a matmul kernel body on the CPU emulator; the tiled kernel runs with barriers (fibers) and
// shared memory, and with launch.second_barrier = false reproduces the missing-barrier race.
Status matmul_emulated(const MatmulProblem& problem, const MatmulLaunch& launch, const EmuOptions& options = {});

}  // namespace cvz
