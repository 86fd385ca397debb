#pragma once
// For code built with the CUDA toolkit only (tests, benchmarks): launch a matmul kernel on device
// memory already in place, on `stream`, without copies or syncs.
#include <cuda_runtime.h>

#include "../core/status.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// A split-K launch (gridDim.z > 1) takes its workspace from device_problem.partials when set (at least
// matmul_workspace_floats), else from the stream's memory pool for the launch; both passes run.
Status launch_matmul_on_device(const MatmulProblem& device_problem, const MatmulLaunch& launch, cudaStream_t stream);

// Split-K's second pass on device memory: C += the partial sums of slices 1 .. slices-1, in order.
Status launch_matmul_split_k_reduce(const MatmulProblem& device_problem, unsigned slices, cudaStream_t stream);

}  // namespace cvz
