#pragma once
// A launch's memory figures for the performance model: the traced emulator runs a representative
// sample of the grid's blocks (TraceOptions::sample_blocks) and the sample is scaled to the grid.
//
// Sampling: the grid's blocks fall into classes by position, interior or last in x and in y (the last
// column and row of blocks are the ones whose guards cut them short): up to four classes. Each class
// is sampled by blocks spread evenly over it (more for small blocks, fewer for large ones) and its
// figures are the sample's mean times the class's block count. A family whose loop is long may trace
// shorter problems and extrapolate (app/<family>/<family>_prediction.cpp says how).
//
// Results are cached per key (the family's: kernel, block, size, layout), so a slider pays for a trace
// once.
#include <QString>

#include <cstdint>
#include <functional>

#include "kernels/core/dim3.h"
#include "kernels/trace/memory_trace.h"
#include "kernels/trace/trace_result.h"

namespace cvz {

struct LaunchFigures {
    QString error;              // why there are none (an invalid launch); empty when there are
    Dim3 grid, block;
    std::uint64_t blocks = 0;
    std::uint64_t warps_per_block = 0;
    // Whole-grid totals, scaled from the sample (so not whole numbers).
    double global_ld_requests = 0, global_ld_sectors = 0, global_ld_ideal_sectors = 0;
    double global_st_requests = 0, global_st_sectors = 0, global_st_ideal_sectors = 0;
    double shared_requests = 0, shared_wavefronts = 0;
    double block_load_sectors = 0;  // sum over blocks of the distinct sectors each block loads (L2 -> L1)
    double l2_lines = 0;            // L2 transactions: each block's distinct 128-byte lines loaded, plus the
                                    // lines of each store request
    double request_lines = 0;       // sum over global requests of the distinct 128-byte lines each touches:
                                    // the L1's tag lookups
    double request_wavefronts = 0;  // sum over global requests of the L1 data stage's wavefronts: the most
                                    // distinct 4-byte words any of the 32 banks holds
    double buffer_bytes = 0;    // the global buffers' sizes: the most a launch can move to or from DRAM
    std::uint64_t sampled_blocks = 0;
    int classes = 0;
    QString sampling;           // "traced 21 of 8100 blocks (4 classes), scaled to the grid"

    bool ok() const { return error.isEmpty(); }
    // Bytes the launch needs from and to DRAM at least: the useful bytes of its requests (ideal
    // sectors), at most the buffers' sizes.
    double compulsory_bytes() const;
};

// The traced launch of a sample: the family's traced launch with these options (sample_blocks set).
using SampleTracer = std::function<TraceResult(const TraceOptions&)>;

// The figures of one traced sample, scaled class by class to the grid.
struct ScaledSample {
    QString error;
    double v[12] = {};  // ld req, ld sec, ld ideal, st req, st sec, st ideal, sh req, sh wavefronts,
                        // distinct load sectors per block, L2 lines, request lines, request wavefronts
    std::uint64_t sampled = 0;
};

// Traces the sample of a `grid` of `block` through `tracer` and scales it to the grid.
ScaledSample trace_and_scale(Dim3 grid, Dim3 block, const SampleTracer& tracer);

// The figures of a valid launch of `grid` x `block` from `sample` (usually one trace_and_scale; a
// family may combine several), with the global buffers' sizes; cached under `key`. `note` follows the
// sampling text ("; K extrapolated from ...").
LaunchFigures sampled_launch_figures(const QString& key, Dim3 grid, Dim3 block, double buffer_bytes,
                                     const std::function<ScaledSample()>& sample, const QString& note = {});

}  // namespace cvz
