#include "app/tuning/block_sweep.h"

#include <QSaveFile>
#include <QStringList>

#include <algorithm>

#include "app/family/app_family.h"
#include "app/jobs/backend_choice.h"
#include "app/jobs/job_runner.h"
#include "app/jobs/row_job.h"
#include "app/models/kernel_resources.h"
#include "app/user/user_variants.h"
#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz {

namespace {

constexpr unsigned kMaxThreads = 1024;
const QString kSweepTag = QStringLiteral("sweep");

QString csv_field(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}


}  // namespace

// ---- inputs and timings ----

KernelFamily sweep_family(const SweepRequest& r) { return r.problem ? r.problem->family() : r.family; }

QString sweep_problem_text(const SweepRequest& r) { return r.problem ? r.problem->text() : app_family(r.family).no_input; }

QString sweep_input_error(const SweepRequest& r) {
    return r.problem ? r.problem->inputError() : QStringLiteral("there is no input to time the kernels on");
}

void apply_sweep_timing(const SweepRequest& request, const ShapeTiming& t, SweepRow* row) {
    if (t.timed) {
        row->state = SweepRowState::Timed;
        row->median_ms = t.median_ms;
        row->launches = t.launches;
        row->throughput = request.problem ? request.problem->throughput(t.median_ms) : 0;
        row->error.clear();
    } else if (!t.status) {
        row->state = SweepRowState::Failed;
        row->error = QString::fromStdString(t.status.message());
    }
}

// ---- shape sets ----

std::vector<Dim3> power_of_two_2d_blocks() {
    std::vector<Dim3> blocks;
    for (unsigned y = 1; y <= kMaxThreads; y *= 2)
        for (unsigned x = 1; x * y <= kMaxThreads; x *= 2) blocks.push_back(Dim3{x, y, 1});
    return blocks;
}

std::vector<Dim3> one_d_sweep_blocks() {
    std::vector<Dim3> blocks;
    for (unsigned t = 32; t <= kMaxThreads; t += 32) blocks.push_back(Dim3{t, 1, 1});
    return blocks;
}

std::vector<Dim3> sweep_blocks(const KernelInfo& variant) {
    switch (variant.block) {
        case BlockRule::OneD: return one_d_sweep_blocks();
        case BlockRule::TwoD: return power_of_two_2d_blocks();
        case BlockRule::Tile: {
            std::vector<Dim3> blocks;
            for (unsigned t : variant.tiles) blocks.push_back(Dim3{t, t, 1});
            return blocks;
        }
        case BlockRule::Fixed: return {variant.fixed_block};
    }
    return {};
}

std::vector<LaunchChoice> variant_configurations(const KernelInfo& variant) {
    std::vector<LaunchChoice> choices;
    if (variant.block == BlockRule::Fixed && !variant.tiles.empty()) {
        // One fixed block, one launch per value of its TILE list (split-K: the slices of K).
        for (unsigned t : variant.tiles) choices.push_back(LaunchChoice{variant.ref(t), variant.fixed_block});
        return choices;
    }
    for (const Dim3& block : sweep_blocks(variant)) choices.push_back(LaunchChoice{variant.ref(block.x), block});
    return choices;
}

// ---- rows and results ----

QString SweepRow::blockText() const {
    const KernelInfo* info = any_kernel_info(choice.ref);
    if (info && info->block == BlockRule::OneD) return QString::number(choice.block.x);
    return QStringLiteral("%1x%2").arg(choice.block.x).arg(choice.block.y);
}

QString SweepRow::label() const {
    const KernelInfo* info = any_kernel_info(choice.ref);
    if (!info) return QString::fromStdString(kernel_ref_text(choice.ref)) + QLatin1Char(' ') + blockText();
    const QString block = info->block == BlockRule::Tile ? QStringLiteral("TILE=%1").arg(choice.block.x) : blockText();
    if (info->block == BlockRule::Fixed && !info->tiles.empty())  // "split-K slices=4 256x1"; 0: the variant's own choice
        return QStringLiteral("%1=%2 %3")
            .arg(QString::fromStdString(info->label), choice.ref.tile ? QString::number(choice.ref.tile) : QStringLiteral("auto"),
                 block);
    return QString::fromStdString(info->label) + QLatin1Char(' ') + block;
}

bool SweepRow::in_heatmap() const {
    const auto pow2 = [](unsigned v) { return v != 0 && (v & (v - 1)) == 0; };
    const KernelInfo* info = any_kernel_info(ref());
    if (!info || info->block != BlockRule::TwoD) return false;
    const Dim3& b = choice.block;
    return pow2(b.x) && pow2(b.y) && b.x <= kMaxThreads && b.y <= kMaxThreads;
}

bool SweepResult::anyTimed() const {
    for (const SweepRow& r : rows)
        if (r.state == SweepRowState::Timed) return true;
    return false;
}

int SweepResult::indexOf(const LaunchChoice& choice) const {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SweepRow& r = rows[i];
        if (r.choice.block == choice.block && r.choice.ref.family == choice.ref.family &&
            r.choice.ref.variant == choice.ref.variant) {
            // A fixed block's TILE list tells its rows apart by the ref's TILE alone.
            const KernelInfo* info = kernel_info(r.choice.ref);
            if (info && info->block == BlockRule::Fixed && !info->tiles.empty() && r.choice.ref.tile != choice.ref.tile) continue;
            return int(i);
        }
    }
    return -1;
}

std::vector<SweepRow> sweep_rows(KernelFamily family, const DeviceProfile& profile) {
    // The heatmap's variants (2-D blocks) first, so that it fills in as soon as the timing starts;
    // then the others; each group in the catalogue's order.
    std::vector<const KernelInfo*> variants;
    for (const KernelInfo& v : family_catalogue(family))
        if (profile.runs_arch_specific(v.arch_specific)) variants.push_back(&v);  // the wgmma rungs off Hopper
    // The user's kernels of the family (issue 27) after the built-ins; the registry keeps their infos alive.
    const std::vector<UserVariantPtr> yours = user_variants(family);
    for (const UserVariantPtr& v : yours) variants.push_back(&v->info);
    std::stable_partition(variants.begin(), variants.end(), [](const KernelInfo* v) { return v->block == BlockRule::TwoD; });
    std::vector<SweepRow> rows;
    for (const KernelInfo* v : variants) {
        const KernelInfo& variant = *v;
        for (const LaunchChoice& choice : variant_configurations(variant)) {
            SweepRow row;
            row.choice = choice;
            rows.push_back(row);
        }
    }
    remodel_occupancy(&rows, profile);
    return rows;
}

void remodel_occupancy(std::vector<SweepRow>* rows, const DeviceProfile& profile) {
    for (SweepRow& r : *rows)
        r.occupancy = compute_occupancy(profile, app_family(r.choice.ref.family).block_resources(r.choice));
}

int mark_best(std::vector<SweepRow>* rows) {
    int best = -1;
    for (std::size_t i = 0; i < rows->size(); ++i) {
        SweepRow& r = (*rows)[i];
        r.best = false;
        if (r.state != SweepRowState::Timed) continue;
        if (best < 0 || r.median_ms < (*rows)[std::size_t(best)].median_ms) best = int(i);
    }
    if (best >= 0) (*rows)[std::size_t(best)].best = true;
    return best;
}

// ---- CSV ----

QString sweep_csv(const SweepResult& result) {
    QString out = QStringLiteral("kernel,shape,block_x,block_y,threads,status,median_ms,%1,occupancy,blocks_per_sm,limit,best,error,"
                                 "predicted_ms,predicted_bound\n")
                      .arg(result.unit_key);
    for (const SweepRow& r : result.rows) {
        const bool timed = r.state == SweepRowState::Timed;
        const bool modeled = r.occupancy.blocks_per_sm > 0;
        QStringList f;
        f << result.family_name << csv_field(r.label()) << QString::number(r.choice.block.x)
          << QString::number(r.choice.block.y) << QString::number(r.choice.block.volume())
          << (timed ? QStringLiteral("timed")
                    : r.state == SweepRowState::Failed ? QStringLiteral("error") : QStringLiteral("not timed"))
          << (timed ? QString::number(r.median_ms, 'f', 5) : QString())
          << (timed ? QString::number(r.throughput, 'f', 2) : QString())
          << (modeled ? QString::number(r.occupancy.occupancy, 'f', 3) : QString())
          << QString::number(r.occupancy.blocks_per_sm)
          << (modeled ? csv_field(to_string(r.occupancy.limit)) : QString())
          << (r.best ? QStringLiteral("1") : QStringLiteral("0"))
          << csv_field(r.state == SweepRowState::Failed ? r.error : QString())
          << (r.prediction.ok() && r.prediction.total_us > 0 ? QString::number(r.prediction.total_us / 1e3, 'f', 5) : QString())
          << (r.prediction.ok() ? csv_field(r.prediction.bound) : QString());
        out += f.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

QString write_sweep_csv(const SweepResult& result, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return QStringLiteral("Cannot write %1: %2").arg(path, file.errorString());
    const QByteArray bytes = sweep_csv(result).toUtf8();
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QStringLiteral("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

// ---- timers and the sweep ----

SweepTimer cuda_sweep_timer() {
    return [](const SweepRequest& req, const std::vector<SweepRow>& rows, const TimingOptions& options) {
        if (!req.problem) {
            TimingSweep none;
            none.status = Status::error(ErrorKind::InvalidInput, sweep_input_error(req).toStdString());
            return none;
        }
        std::vector<LaunchChoice> launches;
        launches.reserve(rows.size());
        for (const SweepRow& r : rows) launches.push_back(r.choice);
        return req.problem->time(launches, options);
    };
}

SweepTimer default_sweep_timer() { return cuda_device_available() ? cuda_sweep_timer() : SweepTimer{}; }

// "20" or, over several rounds, "3 rounds x 20" (the launches a median is taken over).
QString timing_count_text(int repeats, int rounds) {
    return rounds > 1 ? QStringLiteral("%1 rounds \u00d7 %2").arg(rounds).arg(repeats) : QString::number(repeats);
}

QString modeled_only_note(const QString& profile) {
    return QStringLiteral("no CUDA device: predicted GPU times and modeled occupancy for %1, nothing measured").arg(profile);
}

GpuPrediction predict_sweep_row(const SweepRequest& r, const SweepRow& row) {
    if (!r.problem) {
        GpuPrediction none;
        none.error = sweep_input_error(r);
        return none;
    }
    return r.problem->predict(r.profile, row.choice);
}

int fastest_predicted(const std::vector<SweepRow>& rows) {
    int best = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const GpuPrediction& p = rows[i].prediction;
        if (p.ok() && p.total_us > 0 && (best < 0 || p.total_us < rows[std::size_t(best)].prediction.total_us))
            best = int(i);
    }
    return best;
}

SweepResult model_sweep(const SweepRequest& request) {
    SweepResult r;
    r.family = sweep_family(request);
    const AppFamily& family = app_family(r.family);
    r.family_name = family.name;
    r.unit = request.problem ? request.problem->throughputUnit() : QString();
    r.unit_key = request.problem ? request.problem->throughputKey() : QString();
    r.profile = request.profile.name;
    r.problem = sweep_problem_text(request);
    r.rows = sweep_rows(r.family, request.profile);
    if (request.variant >= 0)
        r.rows.erase(std::remove_if(r.rows.begin(), r.rows.end(),
                                    [&](const SweepRow& row) { return row.ref().variant != request.variant; }),
                     r.rows.end());
    return r;
}

SweepResult run_sweep(const SweepRequest& request, const SweepTimer& timer, TimingOptions options,
                      const std::function<void(int, const SweepRow&)>& row_done) {
    SweepResult result = model_sweep(request);
    const std::size_t total = result.rows.size();
    // Predictions first: they need no GPU, and with one they stand beside the times as these come in.
    const bool predicting = request.predict && sweep_input_error(request).isEmpty();
    const std::size_t steps = (predicting ? total : 0) + (timer ? total : 0);
    if (predicting) {
        for (std::size_t i = 0; i < total; ++i) {
            if (options.cancel && options.cancel->requested()) {
                result.cancelled = true;
                result.note = QStringLiteral("cancelled after predicting %1 of %2 shapes").arg(i).arg(total);
                return result;
            }
            result.rows[i].prediction = predict_sweep_row(request, result.rows[i]);
            if (row_done) row_done(int(i), result.rows[i]);
            if (options.progress) options.progress(i + 1, steps);
        }
    }
    if (!timer) {
        result.note = modeled_only_note(result.profile);
        if (options.progress && !predicting) options.progress(total, total);
        return result;
    }
    if (predicting && options.progress)
        options.progress = [total, chained = std::move(options.progress)](std::size_t done, std::size_t all) {
            chained(total + (all > 0 ? done * total / all : total), 2 * total);
        };
    if (const QString e = sweep_input_error(request); !e.isEmpty()) {
        result.status = Status::error(ErrorKind::InvalidInput, e.toStdString());
        result.note = e;
        return result;
    }
    options.warmup = request.warmup;
    options.repeats = request.repeats;
    options.rounds = request.rounds;
    options.budget_ms = request.budget_ms;
    options.device = request.device;
    if (row_done) {
        options.shape_done = [&, chained = std::move(options.shape_done)](std::size_t i, const ShapeTiming& t) {
            if (chained) chained(i, t);
            if (i >= total) return;
            SweepRow row = result.rows[i];
            apply_sweep_timing(request, t, &row);
            row_done(int(i), row);
        };
    }
    const TimingSweep timing = timer(request, result.rows, options);
    for (std::size_t i = 0; i < total && i < timing.shapes.size(); ++i) apply_sweep_timing(request, timing.shapes[i], &result.rows[i]);
    result.best = mark_best(&result.rows);
    result.status = timing.status;
    result.cancelled = timing.cancelled;
    result.device = QString::fromStdString(timing.device);
    if (!timing.status) {
        result.note = QString::fromStdString(timing.status.message());
    } else {
        result.note = QStringLiteral("kernel time: median of %1 launches after %2 warm-ups%3; occupancy modeled for %4")
                          .arg(timing_count_text(request.repeats, request.rounds))
                          .arg(request.warmup)
                          .arg(result.device.isEmpty() ? QString() : QStringLiteral(" on ") + result.device, result.profile);
        if (timing.cancelled)
            result.note = (timing.completed < total
                               ? QStringLiteral("cancelled after %1 of %2 shapes; ").arg(timing.completed).arg(total)
                               : QStringLiteral("cancelled in round %1 of %2 (the times are from the rounds before); ")
                                     .arg(timing.rounds + 1)
                                     .arg(request.rounds)) +
                          result.note;
    }
    return result;
}

// ---- SweepRunner ----

// What a running sweep shares with its runner: the cancel flag, and the way back to the GUI thread,
// cut when the runner goes (or a newer sweep supersedes this one).
SweepRunner::SweepRunner(JobRunner* jobs, QObject* parent) : QObject(parent), jobs_(jobs), timer_(default_sweep_timer()) {
    if (!jobs_) {
        own_jobs_ = std::make_unique<JobRunner>();
        jobs_ = own_jobs_.get();
    }
}

// The running sweep is asked to stop; what it posts afterwards is dropped with this object.
SweepRunner::~SweepRunner() { ticket_.cancel(); }

void SweepRunner::setTimer(SweepTimer timer) { timer_ = std::move(timer); }

void SweepRunner::cancel() { ticket_.cancel(); }

void SweepRunner::start(SweepRequest request) {
    running_ = true;
    emit started(model_sweep(request));

    // The request (an image can be large) moves to the worker; nothing of it stays shared. A newer
    // sweep (same tag) asks this one to stop; whatever this one posted after that says nothing more.
    ticket_ = submit_row_job<SweepRow>(
        *jobs_, kSweepTag, this, &ticket_,
        [request = std::move(request), timer = timer_](const TimingOptions& options, const auto& row_done) {
            return run_sweep(request, timer, options, row_done);
        },
        [this](int done, int total) { emit progress(done, total); },
        [this](int index, const SweepRow& row) { emit rowUpdated(index, row); },
        [this](const SweepResult& result) {
            running_ = false;
            emit finished(result);
        });
}

}  // namespace cvz
