#include "app/matmul/matmul_session.h"

#include "app/matmul/matmul_resources.h"

#include <QFileInfo>

#include <algorithm>
#include <cstring>

#include "app/jobs/job_runner.h"
#include "app/matmul/matmul_schedule_recorder.h"
#include "app/models/kernel_resources.h"
#include "app/io/matrix_generator.h"
#include "app/io/matrix_io.h"
#include "kernels/core/index_math.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/matmul/matmul_user_call.h"

namespace cvz {

namespace {

// Counting every access through the traced emulator is a few times slower than running; above this
// many multiply-adds the session keeps the closed forms alone.
constexpr double kMeasureLimit = 2e6;

const QString kRunTag = QStringLiteral("matmul-run");
const QString kMatricesTag = QStringLiteral("matmul-matrices");

bool same_launch(const MatmulLaunch& a, const MatmulLaunch& b) {
    return a.kernel == b.kernel && a.block == b.block && a.tile == b.tile && a.second_barrier == b.second_barrier;
}

QString shape_text(const Matrix& m) { return QStringLiteral("%1 × %2").arg(m.rows).arg(m.cols); }

QString operand_name(MatmulSession::Operand which) {
    return which == MatmulSession::Operand::A ? QStringLiteral("A") : QStringLiteral("B");
}

}  // namespace

struct MatmulSession::RunOutcome {
    MatmulResult result;
    std::shared_ptr<const Matrix> c_normal;
    std::shared_ptr<const std::vector<std::uint8_t>> wrong;
    long long wrong_count = -1;
    std::optional<MatmulTraffic> measured;
    QString note;
    std::shared_ptr<const UserRunResult> user_run;  // a run of your kernel
};

MatmulSession::MatmulSession(JobRunner* jobs, QObject* parent) : QObject(parent), jobs_(jobs) {
    setDevice(builtin_device_profiles().first());
}

// ---- document -----------------------------------------------------------------------------------

void MatmulSession::setMatrices(Matrix a, Matrix b, const QString& a_source, const QString& b_source) {
    for (const Matrix* m : {&a, &b})
        if (m->data.size() != m->size()) {
            emit failed(tr("A matrix of %1 holds %2 values; nothing was replaced.").arg(shape_text(*m)).arg(m->data.size()));
            return;
        }
    a_source_ = a_source;
    b_source_ = b_source;
    a_from_file_ = b_from_file_ = false;
    setOperands(std::make_shared<const Matrix>(std::move(a)), std::make_shared<const Matrix>(std::move(b)));
}

void MatmulSession::setOperands(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b) {
    const bool same_c_shape = c_ && a && b && c_->rows == a->rows && c_->cols == b->cols;
    if (!same_c_shape) c_.reset();
    // New matrices start their animation at its beginning, not at the old one's phase.
    if (a != a_ || b != b_) position_ = 0;
    a_ = std::move(a);
    b_ = std::move(b);
    if (sel_row_ >= 0 && (!shapesMatch() || sel_row_ >= int(a_->rows) || sel_col_ >= int(b_->cols))) sel_row_ = sel_col_ = -1;
    emit operandsChanged();
    rebuildModel();
    startRun();
}

void MatmulSession::openMatrix(Operand which, const QString& path) {
    jobs_->submit(QStringLiteral("matmul-open-") + operand_name(which), this, [this, which, path] {
        auto loaded = std::make_shared<LoadedMatrix>(load_matrix(path));
        return JobRunner::Continuation([this, which, path, loaded] {
            if (!loaded->ok()) {
                emit failed(loaded->error);
                return;
            }
            auto m = std::make_shared<const Matrix>(std::move(loaded->matrix));
            const QString source = QFileInfo(path).fileName();
            if (which == Operand::A) {
                a_source_ = source;
                a_from_file_ = true;
                setOperands(m, b_);
            } else {
                b_source_ = source;
                b_from_file_ = true;
                setOperands(a_, m);
            }
            emit operandLoaded(which, source);
        });
    });
}

void MatmulSession::generate(std::uint32_t a_rows, std::uint32_t a_cols, std::uint32_t b_rows, std::uint32_t b_cols,
                             std::uint32_t seed) {
    for (const QString& e : {check_matrix_dimensions(a_rows, a_cols), check_matrix_dimensions(b_rows, b_cols)})
        if (!e.isEmpty()) {
            emit failed(e);
            return;
        }
    // A file the user loaded is not thrown away for random numbers of its own size.
    auto keep = [](const std::shared_ptr<const Matrix>& m, bool from_file, std::uint32_t rows, std::uint32_t cols) {
        return from_file && m && m->rows == rows && m->cols == cols ? m : nullptr;
    };
    std::shared_ptr<const Matrix> kept_a = keep(a_, a_from_file_, a_rows, a_cols);
    std::shared_ptr<const Matrix> kept_b = keep(b_, b_from_file_, b_rows, b_cols);
    const QString kept_a_source = a_source_, kept_b_source = b_source_;
    // The MNIST-sized preset is 39 million values: generated on the worker so the GUI stays live.
    jobs_->submit(kMatricesTag, this, [this, kept_a, kept_b, kept_a_source, kept_b_source, a_rows, a_cols, b_rows, b_cols, seed] {
        std::shared_ptr<const Matrix> a = kept_a ? kept_a : std::make_shared<const Matrix>(random_matrix(a_rows, a_cols, seed));
        std::shared_ptr<const Matrix> b = kept_b ? kept_b : std::make_shared<const Matrix>(random_matrix(b_rows, b_cols, seed + 1));
        return JobRunner::Continuation([this, a, b, kept_a, kept_b, kept_a_source, kept_b_source, seed] {
            QStringList kept, made;
            const std::pair<const char*, bool> sides[] = {{"A", bool(kept_a)}, {"B", bool(kept_b)}};
            for (const auto& [name, was_kept] : sides) {
                const bool is_a = name[0] == 'A';
                const Matrix& m = is_a ? *a : *b;
                if (was_kept)
                    kept << tr("%1 (%2, %3)").arg(QLatin1String(name), is_a ? kept_a_source : kept_b_source, shape_text(m));
                else
                    made << tr("%1 %2").arg(QLatin1String(name), shape_text(m));
            }
            if (!kept_a) {
                a_source_ = tr("random, seed %1").arg(seed);
                a_from_file_ = false;
            } else {
                a_source_ = kept_a_source;
            }
            if (!kept_b) {
                b_source_ = tr("random, seed %1").arg(seed + 1);
                b_from_file_ = false;
            } else {
                b_source_ = kept_b_source;
            }
            setOperands(a, b);
            QString summary;
            if (!kept.isEmpty())
                summary = tr("Kept %1 as loaded (same size); ").arg(kept.join(tr(" and ")));
            summary += made.isEmpty() ? tr("nothing generated: change a size to replace a loaded matrix.")
                                      : tr("generated %1 (seed %2).").arg(made.join(tr(" and "))).arg(seed);
            emit generated(summary);
        });
    });
}

void MatmulSession::saveResult(const QString& path) {
    if (!c_) {
        emit failed(tr("There is no result C to save yet."));
        return;
    }
    jobs_->submit(QStringLiteral("matmul-save"), this, [this, c = c_, path] {
        const QString error = save_matrix(path, *c);
        return JobRunner::Continuation([this, error, path] {
            if (!error.isEmpty()) emit failed(error);
            else emit resultSaved(path);
        });
    });
}

bool MatmulSession::shapesMatch() const { return a_ && b_ && check_matmul_shapes(*a_, *b_).isEmpty(); }

QString MatmulSession::shapeError() const { return a_ && b_ ? check_matmul_shapes(*a_, *b_) : tr("no matrices"); }

// ---- launch -------------------------------------------------------------------------------------

void MatmulSession::setLaunch(const MatmulLaunch& launch) {
    if (same_launch(launch, launch_)) return;
    launch_ = launch;
    emit launchChanged(launch_);
    rebuildModel();
    startRun();
}

void MatmulSession::setBackend(BackendChoice backend) {
    if (backend == backend_) return;
    backend_ = backend;
    startRun();
}

void MatmulSession::setDevice(const DeviceProfile& device) {
    device_ = device;
    rebuildModel();
}

// ---- runs ---------------------------------------------------------------------------------------

std::shared_ptr<MatmulSession::RunOutcome> MatmulSession::runOnWorker(std::shared_ptr<const Matrix> a,
                                                                      std::shared_ptr<const Matrix> b,
                                                                      MatmulLaunch launch, BackendChoice backend,
                                                                      std::atomic<std::uint64_t>* launches) {
    auto out = std::make_shared<RunOutcome>();
    if (!launch.second_barrier && backend != BackendChoice::Cpu) {
        // The GPU always runs both barriers; say so only where the GPU would have run.
        if (backend == BackendChoice::Cuda || cuda_device_available())
            out->note = tr("the missing-barrier lesson runs on the CPU emulator");
        backend = BackendChoice::Cpu;
    }
    out->result = run_matmul(MatmulRequest{*a, *b, launch, backend});
    if (out->result.status) launches->fetch_add(1);  // a launch the validator refused never ran
    if (!out->result.status) return out;
    if (!launch.second_barrier) {
        // The same problem with both barriers: elements that differ in any bit came out wrong.
        MatmulLaunch safe = launch;
        safe.second_barrier = true;
        MatmulResult normal = run_matmul(MatmulRequest{*a, *b, safe, BackendChoice::Cpu});
        if (normal.status) launches->fetch_add(1);
        if (normal.status) {
            const Matrix& got = out->result.c;
            auto wrong = std::make_shared<std::vector<std::uint8_t>>(got.data.size());
            long long n = 0;
            for (std::size_t i = 0; i < got.data.size(); ++i) {
                (*wrong)[i] = std::memcmp(&got.data[i], &normal.c.data[i], sizeof(float)) != 0;
                n += (*wrong)[i];
            }
            out->wrong = std::move(wrong);
            out->wrong_count = n;
            out->c_normal = std::make_shared<const Matrix>(std::move(normal.c));
        }
    }
    if (double(a->rows) * double(a->cols) * double(b->cols) <= kMeasureLimit)
        out->measured = measured_matmul_traffic(launch, a->rows, a->cols, b->cols);
    return out;
}

void MatmulSession::setUserKernel(const KernelRef& ref) {
    const KernelRef next = is_user_ref(ref) ? ref : KernelRef{KernelFamily::Matmul, 0, 0};
    if (next == user_kernel_) return;
    user_kernel_ = next;
    emit userKernelChanged(user_kernel_);
    startRun();
}

void MatmulSession::setUserKernel(const KernelRef& ref, const MatmulLaunch& launch) {
    const KernelRef next = is_user_ref(ref) ? ref : KernelRef{KernelFamily::Matmul, 0, 0};
    const bool kernel_changed = next != user_kernel_, launch_changed = !same_launch(launch, launch_);
    if (!kernel_changed && !launch_changed) return;
    user_kernel_ = next;
    if (launch_changed) {
        launch_ = launch;
        emit launchChanged(launch_);
        rebuildModel();
    }
    if (kernel_changed) emit userKernelChanged(user_kernel_);
    startRun();
}

// The user's kernel on the worker, isolated (user_run.h): C as a built-in's run gives it, and the run's
// compile messages, writers and comparison kept beside it.
std::shared_ptr<MatmulSession::RunOutcome> MatmulSession::runUserOnWorker(std::shared_ptr<const Matrix> a,
                                                                          std::shared_ptr<const Matrix> b,
                                                                          UserVariantPtr variant, Dim3 block,
                                                                          BackendChoice backend,
                                                                          std::atomic<std::uint64_t>* launches) {
    auto out = std::make_shared<RunOutcome>();
    auto run = std::make_shared<UserRunResult>();
    MatmulResult& r = out->result;
    r.k = a->cols;
    if (!variant) {
        r.status = Status::error(ErrorKind::InvalidInput, "your kernel is no longer loaded: compile it again");
    } else {
        const std::unique_ptr<user::FamilyCall> call = matmul_user_call(a->data, b->data, a->rows, a->cols, b->cols);
        *run = run_user_variant(*variant, *call, block, backend);
        r.status = run->ok() ? Status::ok() : run->status;
        r.backend = run->backend;
        r.kernel_ms = run->run_ms;
        r.times.gpu = backend == BackendChoice::Cuda;
        r.times.first_ms = run->run_ms;
        r.launch_text = QStringLiteral("yours: %1 · block %2 · grid %3")
                            .arg(QString::fromStdString(variant->name), dims_text(run->block), dims_text(run->grid));
        if (run->ok()) {
            launches->fetch_add(1);
            r.c.rows = a->rows;
            r.c.cols = b->cols;
            const auto* values = static_cast<const float*>(call->output());
            r.c.data.assign(values, values + call->output_bytes() / sizeof(float));
        }
    }
    out->user_run = run;
    return out;
}

void MatmulSession::requestRun() { startRun(); }

void MatmulSession::startRun() {
    const std::uint64_t serial = ++run_serial_;
    wrong_.reset();
    c_normal_.reset();
    wrong_count_ = -1;
    measured_.reset();
    note_.clear();
    if (!a_ || !b_) return;
    if (!shapesMatch()) {
        running_ = false;
        c_.reset();
        refreshStep();
        emit failed(shapeError());
        return;
    }
    running_ = true;
    refreshStep();
    emit runStarted();
    if (runsUserKernel()) {
        const BackendChoice backend = backend_ == BackendChoice::Auto
                                          ? (cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu)
                                          : backend_;
        jobs_->submit(kRunTag, this, [this, a = a_, b = b_, variant = user_variant(user_kernel_), block = launch_.block,
                                      backend, serial, launches = launches_] {
            auto outcome = runUserOnWorker(a, b, variant, block, backend, launches.get());
            return JobRunner::Continuation([this, serial, outcome] { finishRun(serial, outcome); });
        });
        return;
    }
    jobs_->submit(kRunTag, this, [this, a = a_, b = b_, launch = launch_, backend = backend_, serial, launches = launches_] {
        auto outcome = runOnWorker(a, b, launch, backend, launches.get());
        return JobRunner::Continuation([this, serial, outcome] { finishRun(serial, outcome); });
    });
}

void MatmulSession::finishRun(std::uint64_t serial, const std::shared_ptr<RunOutcome>& out) {
    if (serial != run_serial_) return;  // a newer run or newer matrices superseded this one
    running_ = false;
    if (out->user_run) {
        user_run_ = out->user_run;
        emit userRunFinished();
    }
    if (out->result.status) c_ = std::make_shared<const Matrix>(std::move(out->result.c));  // not copied
    result_ = out->result;
    result_launch_ = launch_;
    note_ = out->note;
    if (!out->result.status) {
        c_.reset();
        refreshStep();
        emit runFinished(result_);
        return;
    }
    c_normal_ = out->c_normal;
    wrong_ = out->wrong;
    wrong_count_ = out->wrong_count;
    measured_ = out->measured;
    ++completed_runs_;
    refreshStep();
    emit runFinished(result_);
}

MatmulTraffic MatmulSession::predictedTraffic() const {
    if (!model_.valid()) return {};
    return predicted_matmul_traffic(launch_, model_.m(), model_.k(), model_.n());
}

// ---- animation and selection --------------------------------------------------------------------

void MatmulSession::rebuildModel() {
    model_ = shapesMatch() ? MatmulPhaseModel(launch_, a_->rows, a_->cols, b_->cols) : MatmulPhaseModel();
    // The block follows the selected element (the block shape may have changed), else stays in the grid.
    if (sel_row_ >= 0) sel_block_ = matmul_thread_of_element(launch_, std::uint32_t(sel_row_), std::uint32_t(sel_col_)).block;
    sel_block_.x = std::min(sel_block_.x, std::max(1u, model_.grid().x) - 1);
    sel_block_.y = std::min(sel_block_.y, std::max(1u, model_.grid().y) - 1);
    position_ = std::clamp(position_, 0, std::max(0, animationSteps()));
    occupancy_ = compute_occupancy(device_, matmul_block_resources(launch_));
    const std::uint64_t blocks = model_.valid() ? model_.grid().volume() : 0;  // split-K's slices are gridDim.z
    waves_ = plan_waves(blocks, device_.sm_count, occupancy_.blocks_per_sm);
    emit planChanged();
    refreshStep();
}

int MatmulSession::animationSteps() const { return model_.valid() ? model_.steps() : 0; }

void MatmulSession::setAnimationPosition(int position) {
    position = std::clamp(position, 0, std::max(0, animationSteps()));
    if (position == position_) return;
    position_ = position;
    refreshStep();
}

Dim3 MatmulSession::selectedThread() const {
    if (sel_row_ < 0) return Dim3{0, 0, 0};
    const MatmulThread t = matmul_thread_of_element(launch_, std::uint32_t(sel_row_), std::uint32_t(sel_col_));
    return t.block == sel_block_ ? t.thread : Dim3{0, 0, 0};
}

void MatmulSession::refreshStep() {
    step_ = model_.valid() ? model_.step(position_, sel_block_, selectedThread()) : MatmulStep{};
    emit stepChanged();
}

void MatmulSession::selectElement(int row, int col) {
    if (!model_.valid() || row < 0 || col < 0 || row >= int(model_.m()) || col >= int(model_.n())) return;
    sel_row_ = row;
    sel_col_ = col;
    sel_block_ = matmul_thread_of_element(launch_, std::uint32_t(row), std::uint32_t(col)).block;
    refreshStep();
}

void MatmulSession::selectThread(Dim3 block, Dim3 thread) {
    if (!model_.valid() || block.x >= model_.grid().x || block.y >= model_.grid().y) return;
    const Dim3 bdim = launch_.block_shape();
    const std::uint64_t r = global_row(block, thread, bdim), c = global_col(block, thread, bdim);
    sel_block_ = Dim3{block.x, block.y, 0};
    // A guarded-off thread selects its block only: it computes no element. So does a thread of a
    // register-tiled kernel, whose outputs the index formula above does not give (the page reads
    // them off the trace: MatmulThreadTiles).
    const Dim3 per = matmul_output_tile(launch_);
    if (per.x == bdim.x && per.y == bdim.y && r < model_.m() && c < model_.n()) {
        sel_row_ = int(r);
        sel_col_ = int(c);
    } else {
        sel_row_ = sel_col_ = -1;
    }
    refreshStep();
}

std::function<ScheduleRun()> MatmulSession::scheduleJob() const {
    if (!a_ || !b_ || !shapesMatch()) return nullptr;
    const BackendChoice backend = backend_ == BackendChoice::Auto
                                      ? (cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu)
                                      : backend_;
    if (const UserVariantPtr v = runsUserKernel() ? user_variant(user_kernel_) : nullptr)
        return [v, a = a_, b = b_, block = launch_.block, backend] {
            const std::unique_ptr<user::FamilyCall> call = matmul_user_call(a->data, b->data, a->rows, a->cols, b->cols);
            return record_user_schedule(*v, *call, block, backend);
        };
    return [a = a_, b = b_, launch = launch_, backend] {
        MatmulRequest request;
        request.a = *a;
        request.b = *b;
        request.launch = launch;
        request.backend = backend;
        return record_matmul_schedule(request);
    };
}

std::function<TraceResult(const TraceOptions&)> MatmulSession::traceJob() const {
    if (!a_ || !b_ || !shapesMatch()) return nullptr;
    const std::uint32_t m = a_->rows, k = a_->cols, n = b_->cols;
    if (const UserVariantPtr v = runsUserKernel() ? user_variant(user_kernel_) : nullptr) {
        // Your kernel's trace over the matrices' sizes; addresses do not depend on the values.
        const Dim3 block = result_launch_.block;
        return [=](const TraceOptions& options) {
            const std::unique_ptr<user::FamilyCall> call = matmul_user_call(
                std::vector<float>(std::size_t(m) * k, 0.0f), std::vector<float>(std::size_t(k) * n, 0.0f), m, k, n);
            return trace_user_variant(*v, *call, block, options);
        };
    }
    const MatmulLaunch launch = result_launch_;
    return [=](const TraceOptions& options) { return trace_matmul(nullptr, nullptr, m, k, n, launch, options); };
}

}  // namespace cvz
