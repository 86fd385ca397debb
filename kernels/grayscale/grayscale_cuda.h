#pragma once
#include "../core/gpu_timings.h"
#include "../core/dim3_text.h"
#include "grayscale_launch_shape.h"
#include "../core/status.h"
#include "grayscale_image.h"

namespace cvz {

// Runs the grayscale kernel on CUDA device `device`: `image` holds host pointers; uploads, launches
// the lecture's grid for `shape`, downloads into image.gray. Errors carry CUDA's name and text.
// Built without the toolkit, returns ErrorKind::Unavailable.
Status grayscale_cuda(const GrayscaleImage& image, const LaunchShape& shape, GpuTimings* timings = nullptr,
                      int device = 0);

}  // namespace cvz

