#pragma once
// The performance model (issue 15): a launch's GPU time on a device profile from a few named terms
// the app knows exactly, not a fitted black box (README "Predicted GPU time"):
//   - the traced memory figures of a sample of the grid's blocks, scaled to the grid (launch_sample.h);
//   - the wave plan (occupancy -> blocks per SM -> waves and the tail);
//   - per wave: "memory" (the DRAM bytes at the streaming bandwidth, from L2 when the footprint stays
//     resident between launches; the waves are priced both ways and blended by the share that stays,
//     l2_resident_share in device_profile.h), "L2" (transactions: each block's distinct lines),
//     "latency" (a round trip per wave: Little's law), "blocks" (an SM starts one block at a time),
//     "L1" (a request's tag clocks and lines, its sectors and the shared wavefronts, one unit), "shared" (the
//     wavefronts alone, part of L1), "issue" (warp instructions) and "FP32" (FMAs), the pipe terms
//     stretched when too few warps are resident to hide the pipes' latency;
//   - "launch", the overhead.
// A wave takes its slowest term; the launch takes the sum over its waves plus the overhead. The
// constants are the profile's (DeviceProfile::perf, calibrated once, with their source).
#include <QString>

#include <cstdint>
#include <vector>

#include <optional>

#include "app/models/compiled_issue.h"
#include "app/models/device_profile.h"
#include "app/models/launch_sample.h"
#include "app/models/occupancy_model.h"

namespace cvz {

// One named part of a prediction: "launch", "memory", "L2", "latency", "blocks", "L1", "shared",
// "issue", "FP32", "tensor", "re-reads", "barrier" (a staged block's round trip at its barrier, added to
// each full wave's slowest term), "epilogue" (a second launch, added to the total, never a wave's),
// "drain" (the last wave's busiest SM's bytes through its port after its round trip, added to the total).
struct PredictionTerm {
    QString name;
    double us = 0;   // the term's time summed over the waves (launch: the overhead)
    QString detail;  // how it was computed, in a phrase: "133 MB at 4213 GB/s from DRAM"
};

struct GpuPrediction {
    QString error;            // why there is no prediction (an invalid launch); empty when there is one
    double total_us = 0;      // the predicted GPU time of one launch as CUDA events time it
    QString bound;            // the name of the largest term
    std::vector<PredictionTerm> terms;  // launch first, then the wave terms in a fixed order
    QString sampling;         // "traced 7 of 8100 blocks (2 classes by position), scaled to the grid"
    Occupancy occupancy;      // modeled for the profile
    std::uint64_t blocks = 0;
    std::uint64_t waves = 0;
    double tail_fill = 0;     // the last wave's fill, 0..1
    QString profile;          // the device profile's name

    bool ok() const { return error.isEmpty(); }
    // The two largest wave terms, the waves and the tail, the launch, the total and the bound:
    // "memory 40.3 us, L2 13.3 us, waves 8 (tail 67%), launch 3.2 us -> 43.5 us; bound by memory"
    QString summary() const;
    const PredictionTerm* term(const QString& name) const;
};

// What the model needs of a launch besides the profile; each family's predictor fills it
// (app/<family>/<family>_prediction.*).
struct LaunchWork {
    LaunchFigures figures;
    BlockResources resources;
    double lane_instructions = 0;  // arithmetic lane-instructions of the whole launch (not the requests)
    double fmas = 0;               // FP32 multiply-adds of the whole launch (on the FP32 lanes)
    double tensor_fmas = 0;        // TF32 multiply-adds the tensor cores do (mma), priced at the profile's
                                   // tensor rate ("tensor"), not on the FP32 lanes
    double chain_per_thread = 0;   // instructions of a thread that wait on each other, each its latency
                                   // (instruction_ns), in every round trip (not its K loop, whose
                                   // independent FMAs and loads the pipes overlap)
    double independent_per_thread = 0;  // a thread's instructions that wait on none of that chain (its other
                                        // pixels' work): an issue slot (a clock) each, in every round trip
    // The launch's longest thread when it is not a typical one (a tail done pixel by pixel): its
    // dependent instructions, each instruction_ns, and its index in the grid (blockIdx.x * blockDim.x +
    // threadIdx.x). Its chain begins when its warp's loads arrive, behind the warps ahead of it on its
    // SM, whose bytes go through the SM's port first; the last wave's round trip waits for the longer of
    // that and a typical thread's chain. 0: every thread is typical.
    double longest_chain = 0;
    double longest_thread = 0;
    QString longest_chain_detail;  // which thread that is, in a phrase
    // A compiled kernel's measured instruction counts and issue rates (compiled_issue.h), for k_steps
    // steps of its loop; none for a kernel the model counts by lane_instructions alone.
    std::optional<CompiledIssue> compiled;
    double k_steps = 0;
    // Times a block stages data in shared memory and waits at a barrier before it computes (a tiled
    // kernel's tile load, once per block; 0 for a kernel that never waits on its whole block's loads).
    double barrier_stages = 0;
    // A loop that reads a whole operand from global memory in every wave: when the operand does not
    // stay in L2 between waves, every warp's loop waits on DRAM this long a wave.
    double reread_us_per_wave = 0;
    QString reread_detail = QStringLiteral("none: no K loop reads global memory");
    // A second launch that follows the kernel (a reduction of partial results), priced by the family:
    // its time, launch included, and how it was computed. 0: none.
    double epilogue_us = 0;
    QString epilogue_detail = QStringLiteral("none: one launch");
};

// The time of a streaming second pass that reads `read_bytes` and writes `write_bytes` right after a
// kernel wrote them (from L2 while they fit, l2_resident_share), launch included; its phrase in *detail.
double streaming_pass_us(const DeviceProfile& profile, double read_bytes, double write_bytes, QString* detail);

// Instructions beyond the memory requests, per thread, that every kernel runs (counted from the SASS
// of the catalogue's bodies for sm_90, rounded): index arithmetic and the guard.
constexpr double kIndexInstructionsPerThread = 12;

// The launch's GPU time on `profile`.
GpuPrediction predict_launch(const DeviceProfile& profile, const LaunchWork& work);

// "133 MB": bytes in a term's detail.
QString bytes_text(double bytes);

}  // namespace cvz
