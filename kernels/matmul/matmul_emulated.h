#pragma once
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// Runs a matmul kernel body on the CPU emulator; the tiled kernel runs with barriers (fibers) and
// shared memory, and with launch.second_barrier = false reproduces the missing-barrier race.
// A split-K launch runs both passes, its workspace taken from problem.partials when set, else its own.
Status matmul_emulated(const MatmulProblem& problem, const MatmulLaunch& launch, const EmuOptions& options = {});

// Split-K's second pass on the emulator: C += the partial sums of slices 1 .. slices-1, in order.
Status emulate_split_k_reduce(const MatmulProblem& problem, unsigned slices, const EmuOptions& options = {});

}  // namespace cvz
