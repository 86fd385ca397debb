#pragma once
// The matmul __global__ kernel, declared once for every .cu that launches it or asks CUDA about it
// (the launchers, the unvalidated launcher for CUDA's own refusals, the timing sweep, the occupancy
// API): one template over the variant's body (matmul_variants.h). In an anonymous namespace: each
// translation unit compiles its own copy (there is no separable compilation), from this one source.
#include "../cuda/device_context.cuh"
#include "matmul_variants.h"

namespace cvz {
namespace {

template <class Body>
__global__ void __launch_bounds__(Body::max_threads, body_min_blocks<Body>::value) matmul_kernel(MatmulProblem p) {
    Body::run(DeviceContext{}, p);
}

}  // namespace
}  // namespace cvz
