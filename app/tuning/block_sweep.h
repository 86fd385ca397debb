#pragma once
#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "app/family/family_problem.h"
#include "app/family/launch_choice.h"
#include "app/jobs/job_ticket.h"
#include "app/models/device_profile.h"
#include "app/models/occupancy_model.h"
#include "app/models/perf_model.h"
#include "kernels/core/kernel_timing.h"
#include "kernels/core/kernel_variant.h"

namespace cvz {

class JobRunner;

// The block-size sweep (issue 5, item 4): time a kernel over many block shapes on the GPU and show
// each shape's time, throughput and modeled occupancy; without a GPU, the occupancy model alone.
// The family's input is a FamilyProblem (app/family/): nothing here asks which family it has.

// The block sets, by launch rule. 2-D: every power-of-two block x, y in {1, 2, 4, ..., 1024} with
// x*y <= 1024 (66 blocks), y-major (y = 1 first), x ascending. 1-D: 32, 64, ..., 1024 threads (the
// powers of two from 32 and all the multiples of 32; the first are among the second). TILE: the
// variant's tiles (the catalogue's). Fixed: the variant's one block.
std::vector<Dim3> power_of_two_2d_blocks();
std::vector<Dim3> one_d_sweep_blocks();
std::vector<Dim3> sweep_blocks(const KernelInfo& variant);
// Every launch a variant is swept over: one per block of sweep_blocks; for a fixed block with a TILE
// list (split-K, whose TILEs are its slices of K), one per TILE.
std::vector<LaunchChoice> variant_configurations(const KernelInfo& variant);

enum class SweepRowState { NotTimed, Timed, Failed };

// One shape of a sweep.
struct SweepRow {
    LaunchChoice choice;  // the variant (ref; its TILE for a TILE variant) and the block swept
    SweepRowState state = SweepRowState::NotTimed;
    double median_ms = 0;
    int launches = 0;    // timed launches behind the median
    QString error;       // when Failed
    double throughput = 0;  // in the problem's unit (GB/s, GFLOP/s) when Timed
    Occupancy occupancy;    // modeled for the sweep's device profile
    GpuPrediction prediction;  // the GPU time predicted on that profile (perf_model); empty until predicted
    bool best = false;      // the fastest timed row of the sweep

    // "2-D 16x16", "1-D 256", "naive 16x16", "tiled TILE=16": the variant's label and its block.
    QString label() const;
    // The block as the CLI's --block writes it: "256" for a 1-D variant, else "16x16".
    QString blockText() const;
    // The compiled kernel the row runs.
    const KernelRef& ref() const { return choice.ref; }
    const Dim3& block() const { return choice.block; }
    // Rows of a variant with a 2-D block rule whose sides are powers of two go in the heatmap.
    bool in_heatmap() const;
};

struct SweepResult {
    KernelFamily family{};
    QString family_name;  // the family's CLI spelling (app_family.h)
    QString unit;         // the throughput's unit, "GB/s"; and its CSV/JSON key, "gb_per_s"
    QString unit_key;
    QString profile;   // the device profile the occupancy model used
    QString problem;   // "1920 × 1080 image, interleaved" or "A 512×256 @ B 256×384"
    QString device;    // the GPU that timed the rows; empty when nothing was timed
    QString note;      // why nothing was timed, or how the times were taken
    Status status;     // a failure of the sweep as a whole (the rows keep their model)
    bool cancelled = false;
    std::vector<SweepRow> rows;
    int best = -1;     // index of the fastest timed row, -1 when none

    bool anyTimed() const;
    QString throughputUnit() const { return unit; }
    // The row of this variant and block, or -1.
    int indexOf(const LaunchChoice& choice) const;
};

// The sweep's rows for `family` with the occupancy modeled for `profile` (compute_occupancy with
// kernel_resources), not timed: every variant of the family's catalogue that `profile`'s GPU can run
// (DeviceProfile::runs_arch_specific) over its sweep_blocks, those with a 2-D block (the heatmap's)
// first, each group in catalogue order.
std::vector<SweepRow> sweep_rows(KernelFamily family, const DeviceProfile& profile);
// Recomputes the modeled occupancy of every row for another profile; times stay.
void remodel_occupancy(std::vector<SweepRow>* rows, const DeviceProfile& profile);
// Marks the fastest Timed row best (Failed and NotTimed rows never are); returns its index or -1.
int mark_best(std::vector<SweepRow>* rows);

// The result as CSV: a header row, then one row per shape, numbers with '.' decimals:
//   kernel,shape,block_x,block_y,threads,status,median_ms,<unit key>,occupancy,blocks_per_sm,limit,best,error,
//   predicted_ms,predicted_bound
// status is "timed", "not timed" or "error"; empty fields where a value does not exist; fields with
// commas or quotes are quoted.
QString sweep_csv(const SweepResult& result);
// Writes sweep_csv to `path`; empty on success, else a message that names the file.
QString write_sweep_csv(const SweepResult& result, const QString& path);

struct SweepRequest {
    FamilyProblemPtr problem;  // the family's input; never null in a request that runs
    KernelFamily family{};     // the family swept while there is no problem (a dialog before any input)
    DeviceProfile profile;  // for the occupancy model
    int variant = -1;       // sweep one variant of the family (its catalogue index), or -1 for every one
    bool predict = true;    // predict every row's GPU time (perf_model) before timing, or instead of it
    int warmup = 3;
    int repeats = 20;       // timed launches per shape and round
    int rounds = 3;         // interleaved passes over the shapes (kernel_timing.h): a drift falls on all alike
    double budget_ms = 250;
    int device = 0;
};

// The family of the request's problem.
KernelFamily sweep_family(const SweepRequest& request);
// The problem's text, "no input" without one.
QString sweep_problem_text(const SweepRequest& request);
// Empty when the request's input can be timed, else why not.
QString sweep_input_error(const SweepRequest& request);
// A shape's timing onto its row: Timed with its median and throughput, or Failed with the reason.
void apply_sweep_timing(const SweepRequest& request, const ShapeTiming& timing, SweepRow* row);

// Times the rows of a request: the kernels' GPU sweeps, or a fake in tests. It must call
// options.progress/shape_done and honour options.cancel as run_timing_loop does (use it), and return
// one ShapeTiming per row.
using SweepTimer =
    std::function<TimingSweep(const SweepRequest& request, const std::vector<SweepRow>& rows, const TimingOptions& options)>;

// The GPU: the problem's own timing (FamilyProblem::time) on request.device.
SweepTimer cuda_sweep_timer();
// cuda_sweep_timer() when a CUDA device is available, else an empty timer (the model only).
SweepTimer default_sweep_timer();

// "no CUDA device: predicted GPU times and modeled occupancy for <profile>, nothing measured".
QString modeled_only_note(const QString& profile);

// The GPU time of `row`'s launch on the request's problem, predicted for the request's profile.
GpuPrediction predict_sweep_row(const SweepRequest& request, const SweepRow& row);
// The fastest predicted row, or -1 when none was predicted.
int fastest_predicted(const std::vector<SweepRow>& rows);

// The sweep before timing: the rows with their modeled occupancy (those of request.variant alone when
// it names one), the problem and profile named.
SweepResult model_sweep(const SweepRequest& request);

// Runs a sweep on the calling thread (a worker): model_sweep, then every row's GPU time predicted
// (request.predict), then the rows timed by `timer` unless it is empty (then the note says why),
// throughput computed, the best marked. Progress counts the predicted and the timed rows. `options` carries the
// progress and cancel hooks (its warmup, repeats, budget and device are taken from the request);
// `row_done` is called with each row as soon as it is timed.
SweepResult run_sweep(const SweepRequest& request, const SweepTimer& timer, TimingOptions options = {},
                      const std::function<void(int index, const SweepRow& row)>& row_done = {});

// Runs sweeps off the GUI thread on a JobRunner (tag "sweep": a newer sweep supersedes a queued one
// and cancels a running one), with progress, per-row updates and cancel. The timer is injectable:
// tests give a fake one for deterministic times.
class SweepRunner : public QObject {
    Q_OBJECT
public:
    // `jobs` is the worker to share (the main window's); without one the runner makes its own.
    explicit SweepRunner(JobRunner* jobs = nullptr, QObject* parent = nullptr);
    ~SweepRunner() override;  // cancels a running sweep; none of its signals come after

    void setTimer(SweepTimer timer);  // an empty timer models occupancy only
    bool hasTimer() const { return bool(timer_); }

    void start(SweepRequest request);  // emits started() at once, the rest later
    void cancel();                            // the sweep stops between shapes and finishes
    bool isRunning() const { return running_; }

signals:
    void started(const cvz::SweepResult& modeled);  // the rows before timing
    void rowUpdated(int index, const cvz::SweepRow& row);
    void progress(int done, int total);
    void finished(const cvz::SweepResult& result);

private:
    JobRunner* jobs_ = nullptr;
    std::unique_ptr<JobRunner> own_jobs_;
    SweepTimer timer_;
    JobTicket ticket_;  // of the latest sweep: what another sweep posted is recognised by its id
    bool running_ = false;
};

}  // namespace cvz
