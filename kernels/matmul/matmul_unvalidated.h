#pragma once
// For code built with the CUDA toolkit only (tests, and showing what the GPU itself says): launch a
// matmul kernel with exactly the grid, block and dynamic shared memory given, past our validation.
#include <cuda_runtime.h>

#include <cstddef>

#include "../core/dim3.h"
#include "../core/status.h"
#include "matmul_launch.h"
#include "matmul_problem.h"

namespace cvz {

// Launches launch.kernel (launch.tile for the tiled kernel; launch.block, launch.second_barrier are not
// used) as `grid` x `block` with `dynamic_shared_bytes`, with no validation of ours, so that a shape
// CUDA refuses comes back as CUDA's own error (cudaErrorInvalidConfiguration, ...). Only a TILE the
// kernel is not instantiated for is refused here. `device_problem` holds device pointers; a grid too
// small leaves outputs unwritten.
Status launch_matmul_unvalidated(const MatmulProblem& device_problem, const MatmulLaunch& launch, Dim3 grid, Dim3 block,
                                 std::size_t dynamic_shared_bytes, cudaStream_t stream);

}  // namespace cvz
