#pragma once
// The grayscale family's predictor for the performance model (app/models/perf_model.h): its launch's
// memory figures from a traced sample (launch_sample.h) and its instructions.
#include <cstdint>

#include "app/models/launch_sample.h"
#include "app/models/perf_model.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

LaunchFigures grayscale_launch_figures(const LaunchShape& shape, std::uint32_t width, std::uint32_t height,
                                       PixelLayout layout);

// The grayscale launch `shape` (its variant is shape.kind) over a width x height image in `layout`.
GpuPrediction predict_grayscale(const DeviceProfile& profile, const LaunchShape& shape, std::uint32_t width,
                                std::uint32_t height, PixelLayout layout = PixelLayout::Interleaved);

}  // namespace cvz
