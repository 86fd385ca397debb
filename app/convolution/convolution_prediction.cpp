#include "app/convolution/convolution_prediction.h"

#include <algorithm>
#include <vector>

#include "app/convolution/convolution_compiled_issue.h"
#include "app/models/kernel_resources.h"
#include "app/models/launch_sample.h"
#include "kernels/convolution/convolution_trace.h"

namespace cvz {

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
    const double taps = pixels * double(side) * double(side);
    w.fmas = taps;
    // The compiled kernel's warp instructions and issue rate (convolution_compiled_issue.h), for
    // side^2 steps; the loop's latency is in that rate, so a thread's chain is the index arithmetic's.
    w.compiled = convolution_compiled_issue(launch, side);
    w.k_steps = double(side) * double(side);
    w.chain_per_thread = kIndexInstructionsPerThread;
    // The tiled kernels copy the block's tile to shared memory and wait at a barrier before the taps.
    if (launch.kernel == ConvolutionVariant::Tiled || launch.kernel == ConvolutionVariant::TiledCached) w.barrier_stages = 1;
    if (w.compiled && w.figures.ok()) {
        // The shared wavefronts are the trace's (there is no wider load for nvcc to merge them into).
        const double warps = double(w.figures.blocks) * double(w.figures.warps_per_block);
        w.compiled->shared_wavefronts_per_k = w.figures.shared_wavefronts / std::max(1.0, warps * w.k_steps);
    }
    return predict_launch(profile, w);
}

}  // namespace cvz
