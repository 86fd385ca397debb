#pragma once
#include <vector>

#include "../core/kernel_timing.h"
#include "../core/dim3_text.h"
#include "grayscale_launch_shape.h"
#include "grayscale_image.h"

namespace cvz {

// The block-size sweep on the GPU: uploads image.rgb (host memory, in image.layout) once to device
// options.device, then for each of `shapes` times the lecture's launch (options.warmup untimed launches,
// then options.repeats timed ones; kernel time from CUDA events, the median). image.gray is not
// written. A shape our validator refuses carries the reason on its row; a block CUDA itself refuses
// (more than 1024 threads, say) is launched anyway, so that its row carries CUDA's own error; the
// sweep goes on after either. Progress and cancel as in kernel_timing.h.
// Built without the CUDA toolkit: status is ErrorKind::Unavailable and no shape is timed.
TimingSweep time_grayscale_shapes(const GrayscaleImage& image, const std::vector<LaunchShape>& shapes,
                                  const TimingOptions& options = {});

}  // namespace cvz
