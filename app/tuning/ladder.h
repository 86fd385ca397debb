#pragma once
// The optimisation ladder (issue 11, item 4) without widgets: every variant of a family side by side on
// the current problem — its GPU time beside the family's ceiling measured in the same run (the
// problem's timeReference: a device-to-device copy, cuBLAS SGEMM), and the figures that explain each
// step: global sectors per request, shared wavefronts and bank conflicts (the traced emulator,
// kernels/trace), global load bytes per FMA (arithmetic intensity, from the same trace), occupancy and
// registers (occupancy_model, kernel_resources). Without a GPU the rows carry the modeled figures only
// and the result says so.
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

#include "app/tuning/block_sweep.h"
#include "kernels/core/kernel_timing.h"
#include "kernels/core/variant_dispatch.h"
#include "kernels/trace/memory_trace.h"

namespace cvz {

// What the traced emulator says about one variant's launch.
struct LadderFigures {
    bool traced = false;
    QString error;                 // why it was not traced
    MemoryMetrics metrics;         // the whole traced launch
    std::uint64_t fmas = 0;        // multiply-adds of the traced problem
    QString traced_problem;        // "1920 × 1080" or "256×256×256": what was traced

    // (global load + store sectors) / requests, and the same for the ideal sectors.
    double sectorsPerRequest() const;
    double idealSectorsPerRequest() const;
    // (shared load + store wavefronts) / requests; 0 without shared requests.
    double wavefrontsPerRequest() const;
    std::uint64_t sharedRequests() const;
    std::uint64_t bankConflicts() const;  // shared loads + stores
    // Global load bytes moved (sectors x 32) per multiply-add: the inverse of arithmetic intensity.
    double loadBytesPerFma() const;
};

// One rung: the launch (a sweep row: variant, block, time, throughput, modeled occupancy, predicted
// time), the
// kernel's registers and shared memory, its traced figures and its share of the ceiling.
struct LadderRow {
    SweepRow launch;
    QString name;                  // the catalogue's name
    QString title;                 // the catalogue's one line
    KernelResources resources;     // registers per thread, static shared bytes
    int block_shared_bytes = 0;    // static + dynamic shared memory per block
    LadderFigures figures;
    double fraction_of_reference = 0;  // this throughput / the ceiling's, when both were timed
    // How run_ladder chose the launch for the problem (best_configuration.h): "the fastest of 66
    // configurations predicted by the model", "the fastest of 3 timed (...)"; empty before it ran.
    QString chosen;
    bool chosen_by_timing = false;
};

// The ceiling of a family, measured in the same run as its rows.
using LadderReference = ReferenceTiming;

struct LadderResult {
    KernelFamily family{};
    QString unit;                  // the problem's throughput unit, "GB/s"
    QString reference_short;       // the ceiling in a column title, "copy"
    QString profile;               // the device profile of the modeled occupancy
    QString problem;               // as the sweep names it
    QString device;                // the GPU that timed the rows; empty when nothing was timed
    QString note;                  // "modeled: no CUDA device ...", or how the times were taken
    QString trace_note;            // what the figures were traced on
    QString choice_note;           // how each variant's configuration was chosen: by the model or by timing
    Status status;
    bool cancelled = false;
    bool modeled = true;           // no GPU times: the rows show modeled figures only
    std::vector<LadderRow> rows;
    LadderReference reference;

    QString throughputUnit() const { return unit; }
};

// The launch each variant starts from in the ladder, before run_ladder chooses one for the problem
// (best_configuration.h): 1-D variants 256 threads, 2-D 16x16, a TILE variant its largest TILE, a fixed
// block its block (with its first TILE when it has a list).
SweepRow ladder_launch(const KernelInfo& variant);

// Every variant of `family` that `profile`'s GPU can run (DeviceProfile::runs_arch_specific), in
// catalogue order, with its launch, resources and modeled occupancy for `profile`; not traced, not timed.
std::vector<LadderRow> ladder_rows(KernelFamily family, const DeviceProfile& profile);

// The ladder before anything ran: the rows with their registers and modeled occupancy, the problem
// and the profile named.
LadderResult model_ladder(const SweepRequest& request);

// The problem the figures are traced on: the request's own when it is small enough, else its corner
// (FamilyProblem::traceSample; kLadderTraceSide, kLadderTracePixels in family_problem.h).
// Traces `row`'s launch on the request's problem (or its corner) on the calling thread.
LadderFigures trace_ladder_row(const SweepRequest& request, const LadderRow& row, const CancelToken* cancel = nullptr);

// Times the ceiling for the request's problem on the GPU; the sweep's timer times the rows.
using LadderReferenceTimer = std::function<LadderReference(const SweepRequest& request, const TimingOptions& options)>;
LadderReferenceTimer cuda_reference_timer();

struct LadderTimers {
    SweepTimer rows;                  // empty: no GPU, modeled figures only
    LadderReferenceTimer reference;   // may be empty even with `rows` (no ceiling)
    // Choose each variant's configuration by timing the model's best few (kTimedCandidates) with
    // `rows` before the ladder's own timing; else (and always without `rows`) by the model alone.
    bool choose_by_timing = false;
};
LadderTimers default_ladder_timers();  // the GPU's when there is one, else empty

// "modeled for H200 SXM: no CUDA device, no times": the note of a ladder without a GPU.
QString ladder_modeled_note(const QString& profile);

// Runs a ladder on the calling thread (a worker): the rows, each variant's configuration chosen for
// the problem (the fastest predicted; with timers.choose_by_timing the fastest of the model's best few
// timed), each traced and its GPU time predicted on the request's profile (progress after each), then,
// with a timer, every row and the ceiling timed. `row_done` is called with each row as it changes.
// options.cancel stops it between steps (result.cancelled).
LadderResult run_ladder(const SweepRequest& request, const LadderTimers& timers, const TimingOptions& options = {},
                        const std::function<void(int index, const LadderRow& row)>& row_done = {});

}  // namespace cvz
