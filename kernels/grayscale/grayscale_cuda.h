#pragma once
#include "../core/launch_shape.h"
#include "../core/status.h"
#include "grayscale_image.h"

namespace cvz {

// Where the time of one GPU run went, measured with CUDA events on the stream.
struct GpuTimings {
    double upload_ms = 0;
    double kernel_ms = 0;
    double download_ms = 0;
    double total_ms = 0;  // wall time of the whole call, allocation and launch overhead included
};

// Runs the grayscale kernel on CUDA device `device`: `image` holds host pointers; uploads, launches
// the lecture's grid for `shape`, downloads into image.gray. Errors carry CUDA's name and text.
// Built without the toolkit, returns ErrorKind::Unavailable.
Status grayscale_cuda(const GrayscaleImage& image, const LaunchShape& shape, GpuTimings* timings = nullptr,
                      int device = 0);

}  // namespace cvz

