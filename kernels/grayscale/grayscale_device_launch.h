#pragma once
// For code built with the CUDA toolkit only (tests, benchmarks, the interop path): launch the
// grayscale kernel on device memory already in place, on `stream`, without copies or syncs.
#include <cuda_runtime.h>

#include "../core/launch_shape.h"
#include "../core/status.h"
#include "grayscale_image.h"

namespace cvz {

Status launch_grayscale_on_device(const GrayscaleImage& device_image, const LaunchShape& shape, cudaStream_t stream);

}  // namespace cvz
