#pragma once
// The grayscale __global__ kernel, declared once for every .cu that launches it or asks CUDA about it
// (the launchers, the timing sweep, the occupancy API): one template over the variant's body
// (grayscale_variants.h) and the device context. In an anonymous namespace: each translation unit
// compiles its own copy (there is no separable compilation), from this one source.
#include "../cuda/device_context.cuh"
#include "grayscale_variants.h"

namespace cvz {
namespace {

template <class Body, class Ctx>
__global__ void grayscale_kernel(GrayscaleImage im, Ctx ctx) {
    Body::run(ctx, im);
}

}  // namespace
}  // namespace cvz
