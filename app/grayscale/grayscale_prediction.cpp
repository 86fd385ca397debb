#include "app/grayscale/grayscale_prediction.h"

#include "app/grayscale/grayscale_resources.h"

#include <algorithm>
#include <cmath>

#include "app/models/kernel_resources.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_trace.h"

namespace cvz {

namespace {

// Per pixel, beyond the index arithmetic (perf_model.h): 3 byte-to-float conversions, a multiply,
// 2 FMAs and a float-to-byte, as nvcc emits the body for sm_90.
constexpr double kInstructionsPerPixel = 7;

// The vector bodies (grayscale_ladder.h): 16 pixels a chunk from three 16-byte loads, held in
// registers; the last chunk when the image is not a multiple of 16 pixels pixel by pixel.
bool vector_body(const LaunchShape& shape) {
    return shape.kind == GrayscaleVariant::GrayVec16 || shape.kind == GrayscaleVariant::GrayVec16Waves;
}

// Whether a thread's pixels are independent of each other: a vector body's 16 pixels come from
// registers (luma_16), unless its planes are not 16-byte aligned (planar with a pixel count that is not
// a multiple of 16: grayscale_vec16_ok), when every chunk goes pixel by pixel; the scalar bodies store
// each pixel before loading the next, which may alias it.
bool independent_pixels(const LaunchShape& shape, double pixels, PixelLayout layout) {
    return vector_body(shape) && (layout == PixelLayout::Interleaved || std::fmod(pixels, 16.0) == 0);
}

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
    // A thread's instructions in its round trip. The vector bodies hold their 16 pixels in registers
    // after three 16-byte loads: one pixel's instructions (the index arithmetic, then the pixel's
    // conversions and FMAs, each waiting on the one before) are a chain, the other pixels' issue
    // alongside (gray_vec16: 19 in the chain, 105 independent). A scalar body's pixels follow each
    // other: each loads after the last one's store, which may alias it (gray_1d_x4: 40 in the chain).
    const double per_thread = w.lane_instructions / std::max(1.0, threads);
    const bool independent = independent_pixels(shape, pixels, layout);
    w.chain_per_thread = independent ? std::min(per_thread, kIndexInstructionsPerThread + kInstructionsPerPixel) : per_thread;
    w.independent_per_thread = per_thread - w.chain_per_thread;
    // A vector body's last chunk of fewer than 16 pixels goes pixel by pixel, one after another, in
    // one thread: the round waits for its chain (1537x1023, 15 pixels: 12 + 7 x 15 = 117).
    // That thread takes chunk n / 16, in a grid-stride loop over the grid's threads.
    const double tail_pixels = std::fmod(pixels, 16.0);
    if (independent && tail_pixels > 0) {
        const Dim3 grid = grayscale_grid(shape, width, height);
        const double grid_threads = double(grid.x) * double(shape.block.x);
        w.longest_chain = kIndexInstructionsPerThread + kInstructionsPerPixel * tail_pixels;
        w.longest_thread = std::fmod(std::floor(pixels / 16.0), std::max(1.0, grid_threads));
        w.longest_chain_detail = QStringLiteral("the last %1 pixels one by one in thread %2").arg(tail_pixels).arg(qlonglong(w.longest_thread));
    }
    return predict_launch(profile, w);
}

}  // namespace cvz
