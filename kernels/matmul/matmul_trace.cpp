#include "matmul_trace.h"


#include "../emulator/emulate.h"
#include "../emulator/traced_context.h"
#include "matmul_variants.h"
#include "../trace/aligned_bytes.h"
#include "../trace/memory_recorder.h"
#include "../trace/sampled_grid.h"

namespace cvz {

TraceResult trace_matmul(const float* a, const float* b, std::uint32_t m, std::uint32_t k, std::uint32_t n,
                         const MatmulLaunch& launch, const TraceOptions& options) {
    TraceResult result;
    if (std::string e = validate_matmul_launch(launch, m, k, n); !e.empty()) {
        result.status = Status::error(ErrorKind::InvalidInput, e);
        return result;
    }
    const std::size_t a_bytes = std::size_t(m) * k * sizeof(float), b_bytes = std::size_t(k) * n * sizeof(float);
    const std::size_t c_bytes = std::size_t(m) * n * sizeof(float);
    // Split-K's partial sums are a fourth buffer; the trace is of its first pass (the second only adds
    // the slices up, one load per slice and a store per output).
    const std::size_t w_bytes = matmul_workspace_floats(launch, m, n) * sizeof(float);
    AlignedBytes ab(a, a_bytes), bb(b, b_bytes), cb(c_bytes), wb(w_bytes);
    MatmulProblem p{ab.as<float>(), bb.as<float>(), cb.as<float>(), m, k, n};
    std::vector<BufferRange> buffers{{"A", ab.data(), a_bytes, MemorySpace::Global}, {"B", bb.data(), b_bytes, MemorySpace::Global},
                                     {"C", cb.data(), c_bytes, MemorySpace::Global}};
    if (w_bytes > 0) {
        p.partials = wb.as<float>();
        buffers.push_back({"partials", wb.data(), w_bytes, MemorySpace::Global});
    }
    const Dim3 grid = matmul_grid(launch, m, n), block = launch.block_shape();
    const std::size_t shared_bytes = launch.shared_bytes();
    MemoryRecorder recorder(grid, block, buffers, shared_bytes, options);
    const MatmulRunOptions run{launch.second_barrier};
    result.status = with_matmul_variant(launch, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o;
        o.host_threads = options.host_threads;
        o.barriers = Body::barriers;
        o.shared_bytes = shared_bytes;
        const std::vector<std::uint64_t>& sample = options.sample_blocks;
        // The problem, the grid and whether blocks are sampled by value (see trace_grayscale).
        return emulate(emulated_grid(grid, sample), block, o,
                       [&recorder, &sample, p, run, grid, sampled = !sample.empty(),
                        worker = static_cast<TraceWorker*>(nullptr)](const EmuContext& emulated) mutable {
            const auto traced = [&](const EmuContext& ctx) {
                // Without barriers this copy of the body runs on one host thread: its worker is kept.
                TraceWorker& w = Body::barriers ? recorder.this_thread_worker()
                                 : worker                ? *worker
                                                         : *(worker = &recorder.this_thread_worker());
                if (TraceThread t = recorder.begin_thread(ctx, w)) Body::run(TracedContext<TraceThread>(ctx, t), p, run);
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
