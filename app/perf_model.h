#pragma once
// The performance model (issue 15): a launch's GPU time on a device profile from a few named terms
// the app knows exactly, not a fitted black box:
//   - the traced memory figures of a sample of the grid's blocks, scaled to the grid (launch_sample.h):
//     global requests and 32-byte sectors, shared wavefronts, the bytes each warp needs from DRAM;
//   - the wave plan (occupancy -> blocks per SM -> waves and the tail);
//   - per wave: DRAM (or L2, when the footprint stays resident between launches) bandwidth, the
//     round trip a wave waits for its loads (Little's law: bytes in flight per SM over the latency),
//     L1 sector and request throughput, shared wavefronts, instruction issue (FMAs, index arithmetic),
//     each slowed when too few warps are resident to hide the pipeline's latency;
//   - the launch overhead.
// A wave takes its slowest term; the launch takes the sum over its waves plus the overhead. The
// constants are the profile's (DeviceProfile::perf, calibrated once, with their source).
#include <QString>

#include <cstdint>
#include <vector>

#include "device_profile.h"
#include "kernels/core/launch_shape.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/matmul/matmul_launch.h"
#include "occupancy_model.h"

namespace cvz {

// One named part of a prediction: "DRAM", "latency", "L1", "shared", "issue", "launch".
struct PredictionTerm {
    QString name;
    double us = 0;   // the term's time summed over the waves (launch: the overhead)
    QString detail;  // how it was computed, in a phrase: "133 MB at 4213 GB/s"
};

struct GpuPrediction {
    QString error;            // why there is no prediction (an invalid launch); empty when there is one
    double total_us = 0;      // the predicted GPU time of one launch as CUDA events time it
    QString bound;            // the term that dominates: "DRAM", "latency", "L1", "shared", "issue", "launch"
    std::vector<PredictionTerm> terms;  // launch first, then the wave terms in a fixed order
    QString sampling;         // "traced 21 of 8100 blocks (4 classes), scaled to the grid"
    Occupancy occupancy;      // modeled for the profile
    std::uint64_t blocks = 0;
    std::uint64_t waves = 0;
    double tail_fill = 0;     // the last wave's fill, 0..1
    QString profile;          // the device profile's name

    bool ok() const { return error.isEmpty(); }
    // "memory 41 us, waves 3 (tail 12%), launch 3 us -> 47 us; bound by DRAM"
    QString summary() const;
    const PredictionTerm* term(const QString& name) const;
};

// The grayscale launch `shape` (its variant is shape.kind) over a width x height image in `layout`.
GpuPrediction predict_grayscale(const DeviceProfile& profile, const LaunchShape& shape, std::uint32_t width,
                                std::uint32_t height, PixelLayout layout = PixelLayout::Interleaved);

// The matmul launch for C (m x n) = A (m x k) @ B (k x n).
GpuPrediction predict_matmul(const DeviceProfile& profile, const MatmulLaunch& launch, std::uint32_t m,
                             std::uint32_t k, std::uint32_t n);

}  // namespace cvz
