#include "convolution_trace.h"

#include "../emulator/emulate.h"
#include "../emulator/traced_context.h"
#include "../trace/aligned_bytes.h"
#include "../trace/memory_recorder.h"
#include "../trace/sampled_grid.h"
#include "convolution_variants.h"

namespace cvz {

TraceResult trace_convolution(const std::uint8_t* gray, const float* mask, std::uint32_t mask_side, std::uint32_t width,
                              std::uint32_t height, const ConvolutionLaunch& launch, const TraceOptions& options) {
    TraceResult result;
    if (std::string e = validate_convolution_launch(launch, width, height, mask_side); !e.empty()) {
        result.status = Status::error(ErrorKind::InvalidInput, e);
        return result;
    }
    const std::size_t n = std::size_t(width) * height, mask_bytes = std::size_t(mask_side) * mask_side * sizeof(float);
    AlignedBytes gb(gray, n), mb(mask, mask_bytes), ob(n * sizeof(float));
    ConvolutionProblem p;
    p.gray = gb.as<std::uint8_t>();
    p.mask = mb.as<float>();
    p.out = ob.as<float>();
    p.width = width;
    p.height = height;
    p.mask_side = mask_side;
    const Dim3 grid = convolution_grid(launch, width, height), block = launch.block;
    const std::size_t shared_bytes = convolution_shared_bytes(launch, mask_side);
    // The mask is a constant buffer for the variants that read it from __constant__ memory.
    const MemorySpace mask_space =
        convolution_mask_in_constant(launch.kernel) ? MemorySpace::Constant : MemorySpace::Global;
    MemoryRecorder recorder(grid, block,
                            {{"gray", gb.data(), n}, {"mask", mb.data(), mask_bytes, mask_space}, {"out", ob.data(), n * sizeof(float)}},
                            shared_bytes, options);
    result.status = with_convolution_variant(launch.kernel, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o;
        o.host_threads = options.host_threads;
        o.barriers = Body::barriers;
        o.shared_bytes = shared_bytes;
        const std::vector<std::uint64_t>& sample = options.sample_blocks;
        // The problem, the grid and whether blocks are sampled by value (see trace_grayscale).
        return emulate(emulated_grid(grid, sample), block, o,
                       [&recorder, &sample, p, grid, sampled = !sample.empty(),
                        worker = static_cast<TraceWorker*>(nullptr)](const EmuContext& emulated) mutable {
            const auto traced = [&](const EmuContext& ctx) {
                // Without barriers this copy of the body runs on one host thread: its worker is kept.
                TraceWorker& w = Body::barriers ? recorder.this_thread_worker()
                                 : worker       ? *worker
                                                : *(worker = &recorder.this_thread_worker());
                if (TraceThread t = recorder.begin_thread(ctx, w)) Body::run(TracedContext<TraceThread>(ctx, t), p);
            };
            if (!sampled) traced(emulated);
            else with_sampled_context(emulated, grid, sample, traced);
        });
    });
    result.cancelled = recorder.cancelled();
    if (result.status && !result.cancelled) result.trace = recorder.finish();
    return result;
}

}  // namespace cvz
