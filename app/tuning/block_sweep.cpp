#include "app/tuning/block_sweep.h"

#include <QSaveFile>
#include <QStringList>

#include <algorithm>

#include "app/jobs/backend_choice.h"
#include "app/jobs/job_runner.h"
#include "app/jobs/row_job.h"
#include "app/models/kernel_resources.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/matmul/matmul_timing.h"

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

QString sweep_problem_text(const SweepRequest& r) {
    if (r.kernel == SweepKernel::Grayscale && (r.image.width == 0 || r.image.height == 0))
        return QStringLiteral("no image");
    if (r.kernel == SweepKernel::Matmul && (r.a.size() == 0 || r.b.size() == 0)) return QStringLiteral("no matrices");
    if (r.kernel == SweepKernel::Grayscale)
        return QStringLiteral("%1 × %2 image, %3")
            .arg(r.image.width)
            .arg(r.image.height)
            .arg(r.layout == PixelLayout::Planar ? QStringLiteral("planar") : QStringLiteral("interleaved"));
    return QStringLiteral("A %1×%2 @ B %3×%4").arg(r.a.rows).arg(r.a.cols).arg(r.b.rows).arg(r.b.cols);
}

QString sweep_input_error(const SweepRequest& r) {
    if (r.kernel == SweepKernel::Grayscale) {
        if (r.image.width == 0 || r.image.height == 0) return QStringLiteral("there is no image to time the kernel on");
        if (r.image.bytes.size() != 3 * std::size_t(r.image.width) * r.image.height)
            return QStringLiteral("the RGB buffer does not hold width x height pixels");
        return {};
    }
    if (r.a.size() == 0 || r.b.size() == 0) return QStringLiteral("there are no matrices to time the kernels on");
    return check_matmul_shapes(r.a, r.b);
}

double sweep_throughput(const SweepRequest& r, double ms) {
    if (r.kernel == SweepKernel::Grayscale) return grayscale_gb_per_s(std::uint64_t(r.image.width) * r.image.height, ms);
    return matmul_gflop_per_s(r.a.rows, r.b.cols, r.a.cols, ms);
}

void apply_sweep_timing(const SweepRequest& request, const ShapeTiming& t, SweepRow* row) {
    if (t.timed) {
        row->state = SweepRowState::Timed;
        row->median_ms = t.median_ms;
        row->launches = t.launches;
        row->throughput = sweep_throughput(request, t.median_ms);
        row->error.clear();
    } else if (!t.status) {
        row->state = SweepRowState::Failed;
        row->error = QString::fromStdString(t.status.message());
    }
}

// ---- shape sets ----

std::vector<LaunchShape> power_of_two_2d_shapes() {
    std::vector<LaunchShape> shapes;
    for (unsigned y = 1; y <= kMaxThreads; y *= 2)
        for (unsigned x = 1; x * y <= kMaxThreads; x *= 2) shapes.push_back(LaunchShape::two_d(x, y));
    return shapes;
}

std::vector<LaunchShape> grayscale_1d_sweep_shapes() {
    std::vector<LaunchShape> shapes;
    for (unsigned t = 32; t <= kMaxThreads; t += 32) shapes.push_back(LaunchShape::one_d(t));
    return shapes;
}

std::vector<Dim3> sweep_blocks(const KernelInfo& variant) {
    std::vector<Dim3> blocks;
    switch (variant.block) {
        case BlockRule::OneD:
            for (const LaunchShape& s : grayscale_1d_sweep_shapes()) blocks.push_back(s.block);
            break;
        case BlockRule::TwoD:
            for (const LaunchShape& s : power_of_two_2d_shapes()) blocks.push_back(s.block);
            break;
        case BlockRule::Tile:
            for (unsigned t : variant.tiles) blocks.push_back(Dim3{t, t, 1});
            break;
        case BlockRule::Fixed: blocks.push_back(variant.fixed_block); break;
    }
    return blocks;
}

std::vector<unsigned> matmul_sweep_tiles() {
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul))
        if (!k.tiles.empty()) return k.tiles;
    return {};
}

// ---- rows and results ----

QString SweepRow::label() const {
    if (kernel == SweepKernel::Matmul) return QString::fromStdString(to_string(matmul_launch()));
    const KernelInfo* info = kernel_info(ref());
    const QString block = QString::fromStdString(to_string(shape));
    return info ? QString::fromStdString(info->label) + QLatin1Char(' ') + block : block;
}

KernelRef SweepRow::ref() const {
    return kernel == SweepKernel::Matmul ? matmul_launch().ref() : grayscale_kernel_ref(shape);
}

MatmulLaunch SweepRow::matmul_launch() const {
    // The row's block is TILE x TILE for a variant that takes a TILE: shape.block.x is the TILE.
    return MatmulLaunch::of(matmul_kernel, shape.block, shape.block.x);
}

bool SweepRow::in_heatmap() const {
    const auto pow2 = [](unsigned v) { return v != 0 && (v & (v - 1)) == 0; };
    const KernelInfo* info = kernel_info(ref());
    if (!info || info->block != BlockRule::TwoD) return false;
    return pow2(shape.block.x) && pow2(shape.block.y) && shape.block.x <= kMaxThreads && shape.block.y <= kMaxThreads;
}

bool SweepResult::anyTimed() const {
    for (const SweepRow& r : rows)
        if (r.state == SweepRowState::Timed) return true;
    return false;
}

QString SweepResult::throughputUnit() const {
    return kernel == SweepKernel::Grayscale ? QStringLiteral("GB/s") : QStringLiteral("GFLOP/s");
}

int SweepResult::indexOf(const LaunchShape& shape, MatmulKernel matmul_kernel) const {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SweepRow& r = rows[i];
        // Matmul rows carry their variant in matmul_kernel; shape.kind is the grayscale variant.
        if (r.shape.block == shape.block &&
            (kernel == SweepKernel::Grayscale ? r.shape.kind == shape.kind : r.matmul_kernel == matmul_kernel))
            return int(i);
    }
    return -1;
}

double grayscale_gb_per_s(std::uint64_t pixels, double ms) {
    if (ms <= 0) return 0;
    return 4.0 * double(pixels) / (ms * 1e6);
}

double matmul_gflop_per_s(std::uint64_t m, std::uint64_t n, std::uint64_t k, double ms) {
    if (ms <= 0) return 0;
    return 2.0 * double(m) * double(n) * double(k) / (ms * 1e6);
}

std::vector<SweepRow> sweep_rows(SweepKernel kernel, const DeviceProfile& profile) {
    // The heatmap's variants (2-D blocks) first, so that it fills in as soon as the timing starts;
    // then the others; each group in the catalogue's order.
    std::vector<const KernelInfo*> variants;
    for (const KernelInfo& v : family_catalogue(kernel)) variants.push_back(&v);
    std::stable_partition(variants.begin(), variants.end(), [](const KernelInfo* v) { return v->block == BlockRule::TwoD; });
    std::vector<SweepRow> rows;
    for (const KernelInfo* v : variants) {
        const KernelInfo& variant = *v;
        for (const Dim3& block : sweep_blocks(variant)) {
            SweepRow row;
            row.kernel = kernel;
            if (kernel == SweepKernel::Grayscale) {
                row.shape = LaunchShape::of(GrayscaleVariant(variant.variant), block);
            } else {
                row.shape = LaunchShape::two_d(block.x, block.y);
                row.matmul_kernel = MatmulVariant(variant.variant);
            }
            rows.push_back(row);
        }
    }
    remodel_occupancy(&rows, profile);
    return rows;
}

void remodel_occupancy(std::vector<SweepRow>* rows, const DeviceProfile& profile) {
    for (SweepRow& r : *rows) {
        const BlockResources res = r.kernel == SweepKernel::Grayscale ? grayscale_block_resources(r.shape)
                                                                      : matmul_block_resources(r.matmul_launch());
        r.occupancy = compute_occupancy(profile, res);
    }
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
    const bool gray = result.kernel == SweepKernel::Grayscale;
    QString out = QStringLiteral("kernel,shape,block_x,block_y,threads,status,median_ms,%1,occupancy,blocks_per_sm,limit,best,error,"
                                 "predicted_ms,predicted_bound\n")
                      .arg(gray ? QStringLiteral("gb_per_s") : QStringLiteral("gflop_per_s"));
    for (const SweepRow& r : result.rows) {
        const bool timed = r.state == SweepRowState::Timed;
        const bool modeled = r.occupancy.blocks_per_sm > 0;
        QStringList f;
        f << (gray ? QStringLiteral("grayscale") : QStringLiteral("matmul")) << csv_field(r.label())
          << QString::number(r.shape.block.x) << QString::number(r.shape.block.y)
          << QString::number(r.shape.block.volume())
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
        if (req.kernel == SweepKernel::Grayscale) {
            std::vector<LaunchShape> shapes;
            shapes.reserve(rows.size());
            for (const SweepRow& r : rows) shapes.push_back(r.shape);
            const std::uint64_t n = std::uint64_t(req.image.width) * req.image.height;
            std::vector<std::uint8_t> planar;
            const std::uint8_t* input = req.image.bytes.data();
            if (req.layout == PixelLayout::Planar) {
                planar = interleaved_to_planar(input, n);
                input = planar.data();
            }
            const GrayscaleImage image{input, nullptr, req.image.width, req.image.height, req.layout};
            return time_grayscale_shapes(image, shapes, options);
        }
        std::vector<MatmulLaunch> launches;
        launches.reserve(rows.size());
        for (const SweepRow& r : rows) launches.push_back(r.matmul_launch());
        const MatmulProblem problem{req.a.data.data(), req.b.data.data(), nullptr, req.a.rows, req.a.cols, req.b.cols};
        return time_matmul_launches(problem, launches, options);
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
    if (r.kernel == SweepKernel::Grayscale)
        return predict_grayscale(r.profile, row.shape, r.image.width, r.image.height, r.layout);
    return predict_matmul(r.profile, row.matmul_launch(), r.a.rows, r.a.cols, r.b.cols);
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
    r.kernel = request.kernel;
    r.profile = request.profile.name;
    r.problem = sweep_problem_text(request);
    r.rows = sweep_rows(request.kernel, request.profile);
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
