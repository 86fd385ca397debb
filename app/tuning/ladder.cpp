#include "app/tuning/ladder.h"

#include <algorithm>

#include "app/family/app_family.h"
#include "app/user/user_variants.h"
#include "app/jobs/backend_choice.h"
#include "app/models/kernel_resources.h"
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
    row.choice = LaunchChoice{variant.ref(block.x), block};
    return row;
}

std::vector<LadderRow> ladder_rows(KernelFamily family, const DeviceProfile& profile) {
    std::vector<LadderRow> rows;
    for (const KernelInfo& info : family_catalogue(family)) {
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
    return {cuda_sweep_timer(), cuda_reference_timer()};
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

LadderResult run_ladder(const SweepRequest& request, const LadderTimers& timers, const TimingOptions& options,
                        const std::function<void(int, const LadderRow&)>& row_done) {
    LadderResult result = model_ladder(request);
    const std::size_t n = result.rows.size();
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
        result.rows[i].figures = trace_ladder_row(request, result.rows[i], options.cancel);
        result.rows[i].launch.prediction = predict_sweep_row(request, result.rows[i].launch);
        if (row_done) row_done(int(i), result.rows[i]);
        step();
    }
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
