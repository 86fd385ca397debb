#include "app/convolution/convolution_prediction.h"

#include <algorithm>
#include <vector>

#include "app/models/kernel_resources.h"
#include "app/models/launch_sample.h"
#include "kernels/convolution/convolution_trace.h"

namespace cvz {

namespace {

// Per mask entry a thread executes its read of g (a global or shared load, with the ghost-cell
// test), the mask's read, a byte-to-float conversion and the fmaf; per pixel the store and the
// window's bounds. Counted from the body, not calibrated on the H200: the convolution's predictions
// under-predict the H200 by a median 60% (docs/performance-model.md, 2026-12-02).
constexpr double kInstructionsPerTap = 6;
constexpr double kInstructionsPerPixel = 8;

}  // namespace

GpuPrediction predict_convolution(const DeviceProfile& profile, const ConvolutionLaunch& launch, std::uint32_t width,
                                  std::uint32_t height, const ConvolutionMask& mask) {
    const std::uint32_t side = mask.side;
    LaunchWork w;
    if (std::string e = validate_convolution_launch(launch, width, height, side); !e.empty()) {
        w.figures.error = QString::fromStdString(e);
        return predict_launch(profile, w);
    }
    const QString key = QStringLiteral("c/%1/%2x%3/%4x%5/%6")
                            .arg(int(launch.kernel))
                            .arg(launch.block.x)
                            .arg(launch.block.y)
                            .arg(width)
                            .arg(height)
                            .arg(side);
    const Dim3 grid = convolution_grid(launch, width, height);
    const double pixels = double(width) * double(height);
    // The buffers: the grayscale (1 byte a pixel), the output (4) and the mask.
    const double buffer_bytes = 5.0 * pixels + 4.0 * double(side) * double(side);
    const std::vector<float> zeros(std::size_t(side) * side, 0.0f);
    const float* values = mask.values.size() == zeros.size() ? mask.values.data() : zeros.data();
    w.figures = sampled_launch_figures(key, grid, launch.block, buffer_bytes, [&] {
        return trace_and_scale(grid, launch.block, [&](const TraceOptions& o) {
            return trace_convolution(nullptr, values, side, width, height, launch, o);
        });
    });
    w.resources = block_resources(launch.ref(), launch.block, convolution_shared_bytes(launch, side));
    const double threads = double(w.figures.blocks) * double(launch.block.volume());
    const double taps = pixels * double(side) * double(side);
    w.lane_instructions = kIndexInstructionsPerThread * threads + kInstructionsPerPixel * pixels + kInstructionsPerTap * taps;
    w.fmas = taps;
    w.chain_per_thread = w.lane_instructions / std::max(1.0, threads);
    return predict_launch(profile, w);
}

}  // namespace cvz
