#pragma once
// A family's input as a launch problem (an image and its pixel layout, two matrices, ...): one
// abstract type that the generic code (the sweep, the ladder, the CLI's sweep) takes, so that it never
// asks which family it has. Each family implements it in its own app folder and registers how to
// build one in app_families.cpp. Immutable: shared between the GUI thread and a worker as
// std::shared_ptr<const FamilyProblem>.
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

#include "app/family/launch_choice.h"
#include "app/models/perf_model.h"
#include "kernels/core/cancel_token.h"
#include "kernels/core/kernel_timing.h"
#include "kernels/trace/memory_trace.h"
#include "kernels/trace/trace_result.h"

namespace cvz {

// A launch traced on the problem, or on its corner when the problem is large: per-request figures do
// not change with its size once a launch has a few waves of whole blocks.
struct ProblemTrace {
    TraceResult traced;
    std::uint64_t fmas = 0;  // multiply-adds of the traced problem
    QString traced_size;     // what was traced, as sizeText() writes it
};

// The ceiling a family's variants are compared with, timed in the same run as they are.
struct ReferenceTiming {
    QString label;           // "device-to-device copy, 256 MiB", "cuBLAS SGEMM fp32 (no TF32)"
    ShapeTiming timing;
    double throughput = 0;   // in the problem's throughput unit
};

// The trace of a ladder row is cut to these: an image to its first rows, matrices to this side.
constexpr std::uint32_t kLadderTraceSide = 256;
constexpr std::uint64_t kLadderTracePixels = std::uint64_t(1) << 21;

class FamilyProblem {
public:
    virtual ~FamilyProblem() = default;

    virtual KernelFamily family() const = 0;
    // "1920 × 1080 image, interleaved", "A 512×256 @ B 256×384"; "no image" when there is no input.
    virtual QString text() const = 0;
    // "1920 × 1080", "512×256×384": the size alone.
    virtual QString sizeText() const = 0;
    // Empty when the problem can be timed and predicted, else why not.
    virtual QString inputError() const = 0;
    // "GB/s" or "GFLOP/s", and its spelling as a CSV column or JSON key ("gb_per_s").
    virtual QString throughputUnit() const = 0;
    virtual QString throughputKey() const = 0;
    // The throughput of this problem done in `ms` (0 for ms <= 0).
    virtual double throughput(double ms) const = 0;
    // Empty when the launch suits this problem (a variant that reads one pixel layout only), else why.
    virtual QString validate(const LaunchChoice& choice) const = 0;
    // The launch's GPU time on `profile` (perf_model).
    virtual GpuPrediction predict(const DeviceProfile& profile, const LaunchChoice& choice) const = 0;
    // Times the launches on the GPU (options.device), one ShapeTiming per launch, in order.
    virtual TimingSweep time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const = 0;
    // Traces the launch on the emulator over the problem or its corner (kLadderTrace*), on this thread.
    virtual ProblemTrace traceSample(const LaunchChoice& choice, const CancelToken* cancel) const = 0;
    // Times the family's ceiling for this problem on the GPU.
    virtual ReferenceTiming timeReference(const TimingOptions& options) const = 0;
};

using FamilyProblemPtr = std::shared_ptr<const FamilyProblem>;

}  // namespace cvz
