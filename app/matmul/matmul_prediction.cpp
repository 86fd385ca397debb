#include "app/matmul/matmul_prediction.h"

#include "app/matmul/matmul_resources.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "app/matmul/matmul_compiled_issue.h"
#include "app/models/kernel_resources.h"
#include "kernels/matmul/matmul_trace.h"

namespace cvz {

namespace {

constexpr std::uint32_t kTracedKLimit = 96;  // K up to this is traced as it is

}  // namespace

LaunchFigures matmul_launch_figures(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    if (std::string e = validate_matmul_launch(launch, m, k, n); !e.empty()) {
        LaunchFigures f;
        f.error = QString::fromStdString(e);
        return f;
    }
    const QString key = QStringLiteral("m/%1/%2x%3/%4/%5x%6x%7")
                            .arg(int(launch.kernel))
                            .arg(launch.block.x)
                            .arg(launch.block.y)
                            .arg(launch.tile)
                            .arg(m)
                            .arg(k)
                            .arg(n);
    const Dim3 grid = matmul_grid(launch, m, n);
    const Dim3 block = launch.block_shape();
    auto traced = [&](std::uint32_t kk) {
        return trace_and_scale(grid, block, [&](const TraceOptions& o) {
            return trace_matmul(nullptr, nullptr, m, kk, n, launch, o);
        });
    };
    const std::uint32_t k1 = 32 + k % 32, k2 = k1 + 32;
    const QString note = k <= kTracedKLimit ? QString()
                                            : QStringLiteral("; K extrapolated from K = %1 and %2").arg(k1).arg(k2);
    const double buffers =
        4.0 * (double(m) * k + double(k) * n + double(m) * n + double(matmul_workspace_floats(launch, m, n)));
    return sampled_launch_figures(key, grid, block, buffers, [&] {
        if (k <= kTracedKLimit) return traced(k);
        const ScaledSample a = traced(k1), b = traced(k2);
        ScaledSample s;
        s.error = !a.error.isEmpty() ? a.error : b.error;
        const double t = double(k - k1) / double(k2 - k1);
        for (std::size_t i = 0; i < std::size(s.v); ++i) s.v[i] = a.v[i] + (b.v[i] - a.v[i]) * t;
        s.sampled = a.sampled;
        return s;
    }, note);
}

GpuPrediction predict_matmul(const DeviceProfile& profile, const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k,
                             std::uint32_t n) {
    LaunchWork w;
    w.figures = matmul_launch_figures(launch, m, k, n);
    w.resources = matmul_block_resources(launch);
    const double threads = double(w.figures.blocks) * double(w.figures.block.volume());
    const double products = double(m) * double(n) * double(k);
    w.fmas = products;
    // The tensor-core rungs multiply on the tensor cores, not the FP32 lanes: one TF32 MMA per product,
    // three for 3xTF32 (small x big, big x small, big x big).
    if (const unsigned passes = matmul_tensor_core_passes(launch); passes > 0) {
        w.tensor_fmas = products * passes;
        w.fmas = 0;
    }
    // Per multiply-add, the FMA itself (the loads are counted as requests from the trace).
    w.lane_instructions = kIndexInstructionsPerThread * threads + products;
    w.chain_per_thread = kIndexInstructionsPerThread;
    w.compiled = matmul_compiled_issue(launch.ref());
    w.k_steps = k;
    const Dim3 grid = matmul_grid(launch, m, n);
    if (grid.z > 1) {
        // Split-K: a block's loop covers one slice of the phases; the slices' sums are added by a
        // second launch that reads C and the workspace and writes C.
        const unsigned slice = matmul_k_slice(launch);
        const double phases = std::ceil(double(k) / slice);
        w.k_steps = std::min<double>(k, std::ceil(phases / grid.z) * slice);
        // The first pass's partial sums go out after each block's K loop, with nothing left to overlap
        // them: their bytes are priced with the second pass's (from the H200 sweeps of 2026-12-02,
        // docs/measurements/2026-12-02-split-k.md: without them split-K came out 3-29% fast, the miss
        // growing with slices x outputs).
        const double outputs = double(m) * double(n);
        w.epilogue_us = streaming_pass_us(profile, 4.0 * outputs * grid.z, 4.0 * outputs * grid.z, &w.epilogue_detail);
        w.epilogue_detail = QStringLiteral("%1 slices of K: their partial sums written after the K loop, then summed in "
                                           "order by ")
                                .arg(grid.z) +
                            w.epilogue_detail;
    }
    if (matmul_k_slice(launch) == 0) {
        // Every wave reads all of B (its blocks span whole rows of C), and the next wave reads it again.
        const double b_bytes = 4.0 * double(k) * double(n);
        const PerfCalibration& c = profile.perf;
        if (b_bytes > c.reread_resident_fraction * profile.l2_bytes) {
            w.reread_us_per_wave = double(k) * c.loop_dram_us_per_k;
            w.reread_detail = QStringLiteral("B (%1) does not stay in L2 between waves: each warp's K loop waits on DRAM, "
                                             "%2 steps x %3 us a wave")
                                  .arg(bytes_text(b_bytes))
                                  .arg(k)
                                  .arg(c.loop_dram_us_per_k, 0, 'g', 3);
        } else {
            w.reread_detail = QStringLiteral("none: B (%1) stays in L2 between waves").arg(bytes_text(b_bytes));
        }
    } else {
        w.reread_detail = QStringLiteral("none: the K loop reads A and B from shared memory");
    }
    return predict_launch(profile, w);
}

}  // namespace cvz
