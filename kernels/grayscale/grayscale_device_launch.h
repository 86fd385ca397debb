#pragma once
// For code built with the CUDA toolkit only (tests, benchmarks, the interop path): launch the
// grayscale kernel on device memory already in place, on `stream`, without copies or syncs.
#include <cuda_runtime.h>

#include <cstddef>

#include "../core/dim3_text.h"
#include "grayscale_launch_shape.h"
#include "../core/status.h"
#include "grayscale_image.h"

namespace cvz {

// The lecture's grid for `shape`, after validate_grayscale_launch. `device_image` holds device pointers.
Status launch_grayscale_on_device(const GrayscaleImage& device_image, const LaunchShape& shape, cudaStream_t stream);

// The same kernel, but the output goes into the surface `surface` (a mapped GL_R8 texture of
// width x height texels) through SurfaceStoreContext; device_image.gray is not used.
Status launch_grayscale_to_surface(const GrayscaleImage& device_image, cudaSurfaceObject_t surface,
                                   const LaunchShape& shape, cudaStream_t stream);

// Launches exactly `grid` x `block` with `dynamic_shared_bytes`, with no validation of ours, so that
// a shape CUDA refuses comes back as CUDA's own error (cudaErrorInvalidConfiguration, ...): for
// tests, and for showing what the GPU itself says. A grid too small leaves pixels unwritten. Only a
// variant that does not exist is refused here.
Status launch_grayscale_unvalidated(const GrayscaleImage& device_image, GrayscaleVariant variant, Dim3 grid, Dim3 block,
                                    std::size_t dynamic_shared_bytes, cudaStream_t stream);

}  // namespace cvz
