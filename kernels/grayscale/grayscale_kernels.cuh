#pragma once
// The grayscale __global__ kernels, declared once for every .cu that launches them or asks CUDA about
// them (the launchers, the timing sweep, the occupancy API). They sit in an anonymous namespace: each
// translation unit compiles its own copy (there is no separable compilation), from this one source.
#include "../cuda/device_context.cuh"
#include "grayscale_body.h"

namespace cvz {
namespace {

template <class Ctx>
__global__ void grayscale_1d_kernel(GrayscaleImage im, Ctx ctx) {
    grayscale_1d(ctx, im);
}

template <class Ctx>
__global__ void grayscale_2d_kernel(GrayscaleImage im, Ctx ctx) {
    grayscale_2d(ctx, im);
}

}  // namespace
}  // namespace cvz
