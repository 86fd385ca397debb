#pragma once
// The convolution family's predictor for the performance model (app/models/perf_model.h): its launch's
// memory figures from a traced sample (launch_sample.h) and its instructions.
#include <cstdint>

#include "app/models/perf_model.h"
#include "kernels/convolution/convolution_launch.h"
#include "kernels/convolution/convolution_mask.h"

namespace cvz {

// The launch over a width x height image with a mask of `mask`'s side (its values do not change
// the addresses or the time; a null or empty mask counts as zeros of that side).
GpuPrediction predict_convolution(const DeviceProfile& profile, const ConvolutionLaunch& launch, std::uint32_t width,
                                  std::uint32_t height, const ConvolutionMask& mask);

}  // namespace cvz
