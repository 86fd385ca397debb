#include "grayscale_trace.h"

#include <algorithm>

#include "../emulator/emulate.h"
#include "../emulator/traced_context.h"
#include "grayscale_launch.h"
#include "grayscale_variants.h"
#include "../trace/aligned_bytes.h"
#include "../trace/memory_recorder.h"
#include "../trace/sampled_grid.h"

namespace cvz {

TraceResult trace_grayscale(const std::uint8_t* rgb, std::uint32_t width, std::uint32_t height, PixelLayout layout,
                            const LaunchShape& shape, const TraceOptions& options) {
    TraceResult result;
    if (std::string e = validate_grayscale_launch(shape, width, height); !e.empty()) {
        result.status = Status::error(ErrorKind::InvalidInput, e);
        return result;
    }
    if (std::string e = validate_grayscale_layout(shape, layout); !e.empty()) {
        result.status = Status::error(ErrorKind::InvalidInput, e);
        return result;
    }
    const std::uint64_t n = std::uint64_t(width) * height;
    AlignedBytes in(rgb, 3 * n), out(n);
    const GrayscaleImage im{in.data(), out.data(), width, height, layout};
    const Dim3 grid = grayscale_grid(shape, width, height);
    std::size_t shared_bytes = 0;
    (void)with_grayscale_variant(shape.kind, [&](auto body) {
        shared_bytes = decltype(body)::shared_bytes(shape.block);
        return Status::ok();
    });
    MemoryRecorder recorder(grid, shape.block, {{"rgb", in.data(), 3 * n}, {"gray", out.data(), n}}, shared_bytes, options);
    result.status = with_grayscale_variant(shape.kind, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o;
        o.host_threads = options.host_threads;
        o.barriers = Body::barriers;
        o.shared_bytes = shared_bytes;
        const std::vector<std::uint64_t>& sample = options.sample_blocks;
        // The image, the grid and whether blocks are sampled by value: the emulator runs a copy of this
        // body, whose captures then stay in registers across the thread loop (the body's byte stores
        // could change anything it reaches by reference, so that would be read again after each).
        return emulate(emulated_grid(grid, sample), shape.block, o,
                       [&recorder, &sample, im, grid, sampled = !sample.empty(),
                        worker = static_cast<TraceWorker*>(nullptr)](const EmuContext& run) mutable {
            const auto traced = [&](const EmuContext& ctx) {
                // Without barriers this copy of the body runs on one host thread: its worker is kept.
                TraceWorker& w = Body::barriers ? recorder.this_thread_worker()
                                 : worker                ? *worker
                                                         : *(worker = &recorder.this_thread_worker());
                if (TraceThread t = recorder.begin_thread(ctx, w)) Body::run(TracedContext<TraceThread>(ctx, t), im);
            };
            if (!sampled) traced(run);
            else with_sampled_context(run, grid, sample, traced);
        });
    });
    result.cancelled = recorder.cancelled();
    if (result.status && !result.cancelled) result.trace = recorder.finish();
    return result;
}

}  // namespace cvz
