#pragma once
// For code built with the CUDA toolkit only (tests, benchmarks): launch a matmul kernel on device
// memory already in place, on `stream`, without copies or syncs.
#include <cuda_runtime.h>

#include "../core/status.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

Status launch_matmul_on_device(const MatmulProblem& device_problem, const MatmulLaunch& launch, cudaStream_t stream);

}  // namespace cvz
