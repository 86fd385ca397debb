#include "app/grayscale/grayscale_prediction.h"

#include "app/grayscale/grayscale_resources.h"

#include <algorithm>

#include "app/models/kernel_resources.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_trace.h"

namespace cvz {

namespace {

// Per pixel, beyond the index arithmetic (perf_model.h): 3 byte-to-float conversions, a multiply,
// 2 FMAs and a float-to-byte, as nvcc emits the body for sm_90.
constexpr double kInstructionsPerPixel = 7;

}  // namespace

LaunchFigures grayscale_launch_figures(const LaunchShape& shape, std::uint32_t width, std::uint32_t height,
                                       PixelLayout layout) {
    if (std::string e = validate_grayscale_launch(shape, width, height); !e.empty()) {
        LaunchFigures f;
        f.error = QString::fromStdString(e);
        return f;
    }
    const QString key = QStringLiteral("g/%1/%2x%3/%4x%5/%6")
                            .arg(int(shape.kind))
                            .arg(shape.block.x)
                            .arg(shape.block.y)
                            .arg(width)
                            .arg(height)
                            .arg(int(layout));
    const Dim3 grid = grayscale_grid(shape, width, height);
    return sampled_launch_figures(key, grid, shape.block, 4.0 * double(width) * double(height), [&] {
        return trace_and_scale(grid, shape.block, [&](const TraceOptions& o) {
            return trace_grayscale(nullptr, width, height, layout, shape, o);
        });
    });
}

GpuPrediction predict_grayscale(const DeviceProfile& profile, const LaunchShape& shape, std::uint32_t width,
                                std::uint32_t height, PixelLayout layout) {
    LaunchWork w;
    w.figures = grayscale_launch_figures(shape, width, height, layout);
    w.resources = grayscale_block_resources(shape);
    const double pixels = double(width) * double(height);
    const double threads = double(w.figures.blocks) * double(shape.block.volume());
    w.lane_instructions = kIndexInstructionsPerThread * threads + kInstructionsPerPixel * pixels;
    w.fmas = 3 * pixels;
    w.chain_per_thread = w.lane_instructions / std::max(1.0, threads);
    return predict_launch(profile, w);
}

}  // namespace cvz
