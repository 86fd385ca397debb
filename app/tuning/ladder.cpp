#include "app/tuning/ladder.h"

#include <algorithm>

#include "app/family/app_family.h"
#include "app/user/user_variants.h"
#include "app/jobs/backend_choice.h"
#include "app/models/kernel_resources.h"
#include "app/tuning/best_configuration.h"
#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz {

namespace {

double ratio(std::uint64_t a, std::uint64_t b) { return b ? double(a) / double(b) : 0.0; }

}  // namespace

// ---- figures ----

double LadderFigures::sectorsPerRequest() const {
    return ratio(metrics.global_ld.sectors + metrics.global_st.sectors,
                 metrics.global_ld.requests + metrics.global_st.requests);
}

double LadderFigures::idealSectorsPerRequest() const {
    return ratio(metrics.global_ld.ideal_sectors + metrics.global_st.ideal_sectors,
                 metrics.global_ld.requests + metrics.global_st.requests);
}

std::uint64_t LadderFigures::sharedRequests() const { return metrics.shared_ld.requests + metrics.shared_st.requests; }

double LadderFigures::wavefrontsPerRequest() const {
    return ratio(metrics.shared_ld.wavefronts + metrics.shared_st.wavefronts, sharedRequests());
}

std::uint64_t LadderFigures::bankConflicts() const {
    return metrics.shared_ld.bank_conflicts() + metrics.shared_st.bank_conflicts();
}

double LadderFigures::loadBytesPerFma() const { return ratio(metrics.global_ld.sectors * 32, fmas); }

// ---- rows ----


SweepRow ladder_launch(const KernelInfo& variant) {
    Dim3 block{256, 1, 1};
    switch (variant.block) {
        case BlockRule::OneD: break;
        case BlockRule::TwoD: block = Dim3{16, 16, 1}; break;
        case BlockRule::Tile: {
            const unsigned tile = variant.tiles.empty() ? 16u : *std::max_element(variant.tiles.begin(), variant.tiles.end());
            block = Dim3{tile, tile, 1};
            break;
        }
        case BlockRule::Fixed: block = variant.fixed_block; break;
    }
    SweepRow row;
    const bool fixed_list = variant.block == BlockRule::Fixed && !variant.tiles.empty();
    row.choice = LaunchChoice{variant.ref(fixed_list ? variant.tiles.front() : block.x), block};
    return row;
}

std::vector<LadderRow> ladder_rows(KernelFamily family, const DeviceProfile& profile) {
    std::vector<LadderRow> rows;
    for (const KernelInfo& info : family_catalogue(family)) {
        if (!profile.runs_arch_specific(info.arch_specific)) continue;  // the wgmma rungs off Hopper
        LadderRow row;
        row.launch = ladder_launch(info);
        row.name = QString::fromStdString(info.name);
        row.title = QString::fromStdString(info.title);
        const KernelRef ref = row.launch.ref();
        row.resources = kernel_resources(ref);
        const BlockResources block = app_family(family).block_resources(row.launch.choice);
        row.block_shared_bytes = block.shared_bytes;
        row.launch.occupancy = compute_occupancy(profile, block);
        rows.push_back(std::move(row));
    }
    // The user's kernels of the family (issue 27), beside the built-ins, with the resources of their
    // NVRTC compile when there was one.
    for (const UserVariantPtr& v : user_variants(family)) {
        LadderRow row;
        row.launch.choice = LaunchChoice{v->ref, v->one_d ? Dim3{256, 1, 1} : Dim3{16, 16, 1}};
        row.name = QString::fromStdString(v->title());
        row.title = QString::fromStdString(v->info.title);
        if (v->resources) row.resources = *v->resources;
        const BlockResources block = app_family(family).block_resources(row.launch.choice);
        row.block_shared_bytes = block.shared_bytes;
        row.launch.occupancy = compute_occupancy(profile, block);
        rows.push_back(std::move(row));
    }
    return rows;
}

// ---- traces ----

LadderFigures trace_ladder_row(const SweepRequest& request, const LadderRow& row, const CancelToken* cancel) {
    LadderFigures f;
    if (const QString e = sweep_input_error(request); !e.isEmpty()) {
        f.error = e;
        return f;
    }
    const ProblemTrace sample = request.problem->traceSample(row.launch.choice, cancel);
    const TraceResult& traced = sample.traced;
    f.fmas = sample.fmas;
    f.traced_problem = sample.traced_size;
    if (traced.cancelled || !traced.status) {
        f.error = traced.cancelled ? QStringLiteral("cancelled") : QString::fromStdString(traced.status.message());
        return f;
    }
    f.traced = true;
    f.metrics = traced.trace.totals;
    return f;
}

// ---- timing ----

LadderReferenceTimer cuda_reference_timer() {
    return [](const SweepRequest& request, const TimingOptions& options) {
        return request.problem ? request.problem->timeReference(options) : LadderReference{};
    };
}

LadderTimers default_ladder_timers() {
    if (!cuda_device_available()) return {};
    return {cuda_sweep_timer(), cuda_reference_timer(), true};
}

QString ladder_modeled_note(const QString& profile) {
    return QStringLiteral("modeled for %1: no CUDA device, so no GPU times; the figures are the emulator's trace "
                          "and the occupancy model's")
        .arg(profile);
}

LadderResult model_ladder(const SweepRequest& request) {
    LadderResult result;
    result.family = sweep_family(request);
    result.unit = request.problem ? request.problem->throughputUnit() : QString();
    result.reference_short = app_family(result.family).reference_short;
    result.profile = request.profile.name;
    result.problem = sweep_problem_text(request);
    result.rows = ladder_rows(result.family, request.profile);
    return result;
}

namespace {

// The row runs `launch` (a configuration of its variant): its registers, shared memory and occupancy follow.
void set_row_launch(const SweepRequest& request, const SweepRow& launch, LadderRow* row) {
    row->launch = launch;
    row->resources = kernel_resources(launch.ref());
    const BlockResources block = app_family(launch.ref().family).block_resources(launch.choice);
    row->block_shared_bytes = block.shared_bytes;
    row->launch.occupancy = compute_occupancy(request.profile, block);
}

// The model's few best configurations of every variant with more than one, timed in one sweep (no
// progress, no row updates: the ladder's own timing follows); each row takes the fastest measured,
// retraced when it changed. False when cancelled or failed (the result then says so).
bool choose_rows_by_timing(const SweepRequest& request, const SweepTimer& timer, const TimingOptions& options,
                           const std::vector<std::vector<SweepRow>>& ranked, std::vector<ConfigurationChoice>& choices,
                           LadderResult* result) {
    std::vector<SweepRow> all;
    std::vector<std::pair<std::size_t, std::size_t>> span(ranked.size());  // first candidate, count
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        if (ranked[i].size() < 2) continue;
        const std::vector<SweepRow> c = timing_candidates(ranked[i]);
        span[i] = {all.size(), c.size()};
        all.insert(all.end(), c.begin(), c.end());
    }
    if (all.empty()) return true;
    TimingOptions quiet = options;
    quiet.progress = {};
    quiet.shape_done = {};
    const TimingSweep sweep = timer(request, all, quiet);
    if (sweep.cancelled || !sweep.status) {
        result->cancelled = sweep.cancelled;
        result->status = sweep.status;
        result->note = QString::fromStdString(sweep.status.message());
        return false;
    }
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        if (span[i].second == 0) continue;
        const auto first = all.begin() + std::ptrdiff_t(span[i].first);
        const std::vector<SweepRow> candidates(first, first + std::ptrdiff_t(span[i].second));
        std::vector<ShapeTiming> timings;
        for (std::size_t j = 0; j < candidates.size(); ++j)
            timings.push_back(span[i].first + j < sweep.shapes.size() ? sweep.shapes[span[i].first + j] : ShapeTiming{});
        const ConfigurationChoice c = choose_by_timing(request, candidates, timings, choices[i]);
        LadderRow& row = result->rows[i];
        if (c.by_timing) {
            const bool changed = c.row.choice != row.launch.choice;
            SweepRow chosen = c.row;
            chosen.state = SweepRowState::NotTimed;  // the ladder's timing of the row follows
            set_row_launch(request, chosen, &row);
            if (changed) row.figures = trace_ladder_row(request, row, options.cancel);
            row.chosen = c.how();
            row.chosen_by_timing = true;
        }
        choices[i] = c;
    }
    result->choice_note = QStringLiteral("each variant's configuration (block, TILE, split) chosen for this size by timing "
                                         "the model's best %1 on %2")
                              .arg(kTimedCandidates)
                              .arg(QString::fromStdString(sweep.device));
    return true;
}

}  // namespace

LadderResult run_ladder(const SweepRequest& request, const LadderTimers& timers, const TimingOptions& options,
                        const std::function<void(int, const LadderRow&)>& row_done) {
    LadderResult result = model_ladder(request);
    const std::size_t n = result.rows.size();
    std::vector<std::vector<SweepRow>> ranked(n);  // each variant's configurations, fastest predicted first
    std::vector<ConfigurationChoice> choices(n);
    const std::size_t total = timers.rows ? 2 * n + 1 : n;
    std::size_t done = 0;
    const auto step = [&] {
        ++done;
        if (options.progress) options.progress(done, total);
    };
    const auto cancelled = [&] { return options.cancel && options.cancel->requested(); };

    if (const QString e = sweep_input_error(request); !e.isEmpty()) {
        result.status = Status::error(ErrorKind::InvalidInput, e.toStdString());
        result.note = e;
        return result;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (cancelled()) {
            result.cancelled = true;
            return result;
        }
        LadderRow& row = result.rows[i];
        if (const KernelInfo* info = kernel_info(row.launch.ref())) {
            ranked[i] = ranked_configurations(request, *info);
            ConfigurationChoice model;
            model.configurations = int(ranked[i].size());
            if (!ranked[i].empty()) model.row = ranked[i].front();
            choices[i] = model;
            if (!ranked[i].empty()) set_row_launch(request, model.row, &row);
            row.chosen = model.how();
        }
        row.figures = trace_ladder_row(request, row, options.cancel);
        if (!row.launch.prediction.ok() || row.launch.prediction.total_us <= 0)
            row.launch.prediction = predict_sweep_row(request, row.launch);
        if (row_done) row_done(int(i), row);
        step();
    }
    result.choice_note = QStringLiteral("each variant's configuration (block, TILE, split) chosen for this size by the "
                                        "performance model for %1")
                             .arg(result.profile);
    if (n > 0 && result.rows.front().figures.traced)
        result.trace_note = QStringLiteral("figures traced on the emulator over %1%2")
                                .arg(result.rows.front().figures.traced_problem,
                                     result.rows.front().figures.traced_problem == request.problem->sizeText()
                                         ? QString()
                                         : QStringLiteral(" (a corner of the problem: per-request figures do not "
                                                          "change with its size)"));
    if (!timers.rows) {
        result.note = ladder_modeled_note(result.profile);
        return result;
    }

    TimingOptions timing = options;
    timing.warmup = request.warmup;
    timing.repeats = request.repeats;
    timing.rounds = 1;  // the ladder's kernels run long enough (8K, 4096^3) not to need rounds; its
                        // progress counts one step per row
    timing.budget_ms = request.budget_ms;
    timing.device = request.device;
    timing.progress = [&](std::size_t, std::size_t) { step(); };
    timing.shape_done = [&](std::size_t i, const ShapeTiming& t) {
        if (i >= n) return;
        apply_sweep_timing(request, t, &result.rows[i].launch);
        if (row_done) row_done(int(i), result.rows[i]);
    };
    if (timers.choose_by_timing && !choose_rows_by_timing(request, timers.rows, timing, ranked, choices, &result)) return result;
    std::vector<SweepRow> launches;
    for (const LadderRow& r : result.rows) launches.push_back(r.launch);
    const TimingSweep sweep = timers.rows(request, launches, timing);
    result.device = QString::fromStdString(sweep.device);
    result.cancelled = sweep.cancelled;
    if (!sweep.status) {
        result.status = sweep.status;
        result.note = QString::fromStdString(sweep.status.message());
        return result;
    }
    if (result.cancelled) return result;
    if (timers.reference) {
        result.reference = timers.reference(request, timing);
        step();
    }
    // The share of the ceiling by throughput: the copy moves its own buffer, not the image, so times
    // cannot be compared; cuBLAS runs the same problem, where the two ratios agree.
    bool any = false;
    for (LadderRow& r : result.rows) {
        if (r.launch.state != SweepRowState::Timed) continue;
        any = true;
        if (result.reference.timing.timed && result.reference.throughput > 0)
            r.fraction_of_reference = r.launch.throughput / result.reference.throughput;
    }
    result.modeled = !any;
    result.note = any ? QStringLiteral("GPU times: median of up to %1 launches after %2 warm-up, CUDA events, on %3")
                            .arg(request.repeats)
                            .arg(request.warmup)
                            .arg(result.device)
                      : ladder_modeled_note(result.profile);
    return result;
}

}  // namespace cvz
