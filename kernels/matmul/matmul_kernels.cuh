#pragma once
// The matmul __global__ kernels, declared once for every .cu that launches them or asks CUDA about
// them (the launchers, the unvalidated launcher for CUDA's own refusals, the timing sweep, the
// occupancy API). In an anonymous namespace: each translation unit compiles its own copy (there is no
// separable compilation), from this one source.
#include "../cuda/device_context.cuh"
#include "matmul_body.h"

namespace cvz {
namespace {

__global__ void matmul_naive_kernel(MatmulProblem p) { matmul_naive(DeviceContext{}, p); }

template <unsigned TILE>
__global__ void __launch_bounds__(TILE * TILE) matmul_tiled_kernel(MatmulProblem p) {
    matmul_tiled<TILE>(DeviceContext{}, p);
}

}  // namespace
}  // namespace cvz
