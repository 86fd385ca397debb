#pragma once
// The convolution __global__ kernel, declared once for every .cu that launches it or asks CUDA about
// it (the launcher, the occupancy hook): one template over the variant's body (convolution_variants.h).
// In an anonymous namespace: each translation unit compiles its own copy (there is no separable
// compilation), from this one source; so does the __constant__ mask (convolution_constant.cuh).
#include "../cuda/device_context.cuh"
#include "convolution_variants.h"

namespace cvz {
namespace {

template <class Body>
__global__ void convolution_kernel(ConvolutionProblem p) {
    Body::run(DeviceContext{}, p);
}

}  // namespace
}  // namespace cvz
