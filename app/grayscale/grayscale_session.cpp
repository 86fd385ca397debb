#include "app/grayscale/grayscale_session.h"

#include "app/grayscale/grayscale_resources.h"

#include "kernels/grayscale/grayscale_trace.h"

#include <QElapsedTimer>

#include <algorithm>

#include "app/grayscale/grayscale_schedule_recorder.h"
#include "app/jobs/frame_sink.h"
#include "app/io/image_loader.h"
#include "app/jobs/job_runner.h"
#include "app/models/kernel_resources.h"
#include "app/models/overlay_geometry.h"
#include "app/io/rgb_buffer.h"
#include "kernels/grayscale/grayscale_frame.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_user_call.h"

namespace cvz {

namespace {

// One tag per kind of job: a newer request of the same kind drops a queued older one.
const QString kLoadTag = QStringLiteral("grayscale-load");
const QString kRunTag = QStringLiteral("grayscale-run");

bool same(const LaunchShape& a, const LaunchShape& b) { return a.kind == b.kind && a.block == b.block; }

}  // namespace

GrayscaleSession::GrayscaleSession(JobRunner* jobs, QObject* parent) : QObject(parent), jobs_(jobs) {
    device_ = builtin_device_profiles().first();
    replan();
}

GrayscaleSession::~GrayscaleSession() = default;

BackendChoice GrayscaleSession::resolve(BackendChoice choice) {
    if (choice != BackendChoice::Auto) return choice;
    return cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu;
}

// ---- document -----------------------------------------------------------------------------------

void GrayscaleSession::openFile(const QString& path) {
    const std::uint64_t serial = ++load_serial_;
    jobs_->submit(kLoadTag, this, [this, path, serial]() -> JobRunner::Continuation {
        // Worker thread: decode only; the session changes in the continuation, on its own thread.
        LoadedImage loaded = load_image(path);
        return [this, path, serial, loaded] {
            if (serial != load_serial_) return;  // a newer open request is on its way
            if (!loaded.ok()) {
                emit loadFailed(path, loaded.error);
                return;
            }
            setImage(loaded.rgb, path);
        };
    });
}

void GrayscaleSession::setImage(const QImage& image, const QString& path) {
    file_ = path;
    image_ = image.format() == QImage::Format_RGB888 ? image : image.convertToFormat(QImage::Format_RGB888);
    result_ = QImage();
    ++image_serial_;
    grid_.clearSelection();
    replan();
    emit imageChanged();
    emit planChanged();
    emit frameChanged();
    requestRun();
}

// ---- launch -------------------------------------------------------------------------------------

void GrayscaleSession::setShape(const LaunchShape& shape) {
    if (same(shape, shape_)) return;
    shape_ = shape;
    replan();
    emit shapeChanged(shape_);
    emit planChanged();
    emit frameChanged();
    requestRun();
}

void GrayscaleSession::setLayout(PixelLayout layout) {
    if (layout == layout_) return;
    layout_ = layout;
    emit layoutChanged(layout_);
    requestRun();
}

void GrayscaleSession::setBackend(BackendChoice backend) {
    if (backend == backend_) return;
    backend_ = backend;
    emit backendChanged(backend_);
    requestRun();
}

void GrayscaleSession::setDevice(const DeviceProfile& device) {
    device_ = device;
    replan();
    emit planChanged();
    emit frameChanged();
}

void GrayscaleSession::replan() {
    const QSize size = image_.size();
    const bool valid = !size.isEmpty() &&
                       validate_grayscale_launch(shape_, std::uint32_t(size.width()), std::uint32_t(size.height())).empty();
    grid_.replan(valid ? plan_grayscale_launch(shape_, std::uint32_t(size.width()), std::uint32_t(size.height())) : LaunchPlan{},
                 compute_occupancy(device_, grayscale_block_resources(shape_)), device_.sm_count);
}

// ---- animation and selection --------------------------------------------------------------------

void GrayscaleSession::setAnimationMode(AnimationMode mode) {
    if (!grid_.setMode(mode)) return;
    emit planChanged();  // the number of steps changes with the mode
    emit frameChanged();
}

std::uint64_t GrayscaleSession::animationSteps() const { return grid_.steps(); }

void GrayscaleSession::setAnimationPosition(std::uint64_t position) {
    if (grid_.setPosition(position)) emit frameChanged();
}

AnimationFrame GrayscaleSession::frame() const { return grid_.frame(); }

void GrayscaleSession::select(QPoint pixel) {
    if (grid_.select(pixel)) emit frameChanged();
}

// ---- runs ---------------------------------------------------------------------------------------

void GrayscaleSession::setUserKernel(const KernelRef& ref) {
    const KernelRef next = is_user_ref(ref) ? ref : KernelRef{KernelFamily::Grayscale, 0, 0};
    if (next == user_kernel_) return;
    user_kernel_ = next;
    emit userKernelChanged(user_kernel_);
    requestRun();
}

void GrayscaleSession::setUserKernel(const KernelRef& ref, const LaunchShape& shape) {
    const KernelRef next = is_user_ref(ref) ? ref : KernelRef{KernelFamily::Grayscale, 0, 0};
    const bool kernel_changed = next != user_kernel_, shape_changed = !same(shape, shape_);
    if (!kernel_changed && !shape_changed) return;
    user_kernel_ = next;
    if (shape_changed) {
        shape_ = shape;
        replan();
        emit shapeChanged(shape_);
        emit planChanged();
        emit frameChanged();
    }
    if (kernel_changed) emit userKernelChanged(user_kernel_);
    requestRun();
}

void GrayscaleSession::requestRun() {
    if (image_.isNull()) return;
    const std::uint64_t serial = ++run_serial_;
    if (runsUserKernel()) {
        requestUserRun(serial);
        return;
    }
    const std::uint64_t image_serial = image_serial_;
    const QImage input = image_;  // shared, read-only on the worker
    GrayscaleRequest request;
    request.layout = layout_;
    request.shape = shape_;
    request.backend = resolve(backend_);
    emit runStarted();
    if (request.backend == BackendChoice::Cuda && sink_ && runOnDisplay(serial, request)) return;
    jobs_->submit(kRunTag, this, [this, serial, image_serial, input, request, launches = launches_]() mutable
                  -> JobRunner::Continuation {
        // Worker thread.
        request.input = to_rgb_buffer(input);
        GrayscaleResult result = run_grayscale(request);
        if (result.status) launches->fetch_add(1);  // a launch the validator refused never ran
        QImage gray;
        if (result.status) gray = gray_to_qimage(result.gray, result.width, result.height);
        result.gray = {};  // the QImage holds the pixels now
        request.input = {};
        return [this, serial, image_serial, request, result, gray] { finishRun(serial, image_serial, request, result, gray); };
    });
}

// The user's kernel runs on the worker, isolated (user_run.h), on the picture in the session's layout;
// its output is shown as a built-in's is, and its compile messages, writers and comparison are kept.
void GrayscaleSession::requestUserRun(std::uint64_t serial) {
    const std::uint64_t image_serial = image_serial_;
    const QImage input = image_;
    const UserVariantPtr variant = user_variant(user_kernel_);
    GrayscaleRequest request;
    request.layout = layout_;
    request.shape = shape_;
    request.backend = resolve(backend_);
    emit runStarted();
    jobs_->submit(kRunTag, this, [this, serial, image_serial, input, request, variant, launches = launches_]() mutable
                  -> JobRunner::Continuation {
        // Worker thread.
        auto run = std::make_shared<UserRunResult>();
        GrayscaleResult result;
        RgbBuffer rgb = to_rgb_buffer(input);
        result.width = rgb.width;
        result.height = rgb.height;
        QImage gray;
        if (!variant) {
            result.status = Status::error(ErrorKind::InvalidInput, "your kernel is no longer loaded: compile it again");
        } else {
            const std::unique_ptr<user::FamilyCall> call =
                grayscale_user_call(std::move(rgb.bytes), result.width, result.height, request.layout);
            *run = run_user_variant(*variant, *call, request.shape.block, request.backend);
            result.status = run->ok() ? Status::ok() : run->status;
            result.backend = run->backend;
            result.kernel_ms = run->run_ms;
            result.times.gpu = request.backend == BackendChoice::Cuda;
            result.times.first_ms = run->run_ms;
            result.total_ms = run->run_ms;  // the isolated runner's whole run: start, copies, kernel
            result.shape_text = QStringLiteral("yours: %1 · block %2 · grid %3")
                                    .arg(QString::fromStdString(variant->name), dims_text(run->block), dims_text(run->grid));
            if (run->ok()) {
                launches->fetch_add(1);
                const auto* bytes = static_cast<const std::uint8_t*>(call->output());
                gray = gray_to_qimage(std::vector<std::uint8_t>(bytes, bytes + call->output_bytes()), result.width, result.height);
            }
        }
        return [this, serial, image_serial, request, result, gray, run] {
            if (image_serial == image_serial_ && serial == run_serial_) {
                user_run_ = run;
                emit userRunFinished();
            }
            finishRun(serial, image_serial, request, result, gray);
        };
    });
}

void GrayscaleSession::finishRun(std::uint64_t serial, std::uint64_t image_serial, const GrayscaleRequest& request,
                                 const GrayscaleResult& result, const QImage& gray) {
    answered_serial_ = std::max(answered_serial_, serial);
    // Only the latest request's result is shown: a superseded run's (an older shape, or a picture no
    // longer shown) would put a launch on screen that no longer matches the one asked for.
    if (image_serial != image_serial_ || serial != run_serial_) return;
    shown_serial_ = serial;
    last_ = result;
    result_shape_ = request.shape;
    result_layout_ = request.layout;
    if (!result.status) {
        emit runFailed(QString::fromStdString(result.status.message()));
        return;
    }
    result_ = gray;
    ++completed_runs_;
    if (!result.displayed && sink_) sink_->releaseFrame();  // the host's bytes are what to show now
    emit runFinished(result);
}

void GrayscaleSession::setFrameSink(FrameSink* sink) { sink_ = sink; }

// On the GUI thread, where the display's GL context lives: the change's one launch writes the
// display's frame, timed by events, and its bytes are read back from that frame for the inspector.
bool GrayscaleSession::runOnDisplay(std::uint64_t serial, const GrayscaleRequest& request) {
    const std::uint32_t w = std::uint32_t(image_.width()), h = std::uint32_t(image_.height());
    // A launch the validator refuses is reported by the worker's run, as on every backend.
    if (!validate_grayscale_launch(request.shape, w, h).empty() ||
        !validate_grayscale_layout(request.shape, request.layout).empty())
        return false;
    if (!sink_->prepareFrame(image_.size())) return false;
    if (!frame_) frame_ = std::make_unique<GrayscaleFrame>();
    if (!frame_->has_picture() || frame_image_serial_ != image_serial_ || frame_layout_ != request.layout) {
        RgbBuffer rgb = to_rgb_buffer(image_);
        std::vector<std::uint8_t> bytes = request.layout == PixelLayout::Planar
                                              ? interleaved_to_planar(rgb.bytes.data(), std::uint64_t(w) * h)
                                              : std::move(rgb.bytes);
        if (!frame_->set_picture(std::move(bytes), w, h, request.layout)) return false;
        frame_image_serial_ = image_serial_;
        frame_layout_ = request.layout;
    }
    QElapsedTimer wall;
    wall.start();
    GrayscaleFrameRun run;
    int device = 0;
    const Status s = sink_->writeFrame([&](const InteropTarget& target) {
        device = target.device;
        return frame_->write(target, request.shape, &run, true);
    });
    if (!s) return false;  // the display fell back and says why; the worker runs this change
    launches_->fetch_add(1);
    GrayscaleResult result;
    result.status = s;
    result.width = w;
    result.height = h;
    // The displayed frame is one launch per change: the first one pays the process's first-launch
    // cost, every later one is warm, and the status bar says which it is.
    result.times.gpu = true;
    if (first_display_ms_ < 0) {
        first_display_ms_ = run.kernel_ms;
        result.times.first_ms = run.kernel_ms;
    } else {
        result.times.first_ms = first_display_ms_;
        result.times.warm_ms = run.kernel_ms;
        result.times.warm_launches = 1;
    }
    result.kernel_ms = result.times.kernel_ms();
    result.total_ms = double(wall.nsecsElapsed()) / 1e6;
    result.backend = cuda_backend_label(device) + QStringLiteral(" · displayed");
    result.shape_text = grayscale_shape_text(request.shape, w, h);
    result.displayed = true;
    const QImage gray = gray_to_qimage(run.gray, w, h);
    const std::uint64_t image_serial = image_serial_;
    // Answered from the event loop, as a worker's result is: listeners see the same order of signals.
    QMetaObject::invokeMethod(
        this, [this, serial, image_serial, request, result, gray] { finishRun(serial, image_serial, request, result, gray); },
        Qt::QueuedConnection);
    return true;
}

std::function<ScheduleRun()> GrayscaleSession::scheduleJob() const {
    GrayscaleRequest request;
    request.layout = layout_;
    request.shape = shape_;
    request.backend = resolve(backend_);
    const QImage input = image_;  // shared, read-only on the worker
    if (const UserVariantPtr v = runsUserKernel() ? user_variant(user_kernel_) : nullptr) {
        return [v, request, input] {
            RgbBuffer rgb = to_rgb_buffer(input);
            const std::uint32_t w = rgb.width, h = rgb.height;
            const std::unique_ptr<user::FamilyCall> call = grayscale_user_call(std::move(rgb.bytes), w, h, request.layout);
            return record_user_schedule(*v, *call, request.shape.block, request.backend);
        };
    }
    return [request, input]() mutable {
        request.input = to_rgb_buffer(input);
        return record_grayscale_schedule(request);
    };
}

std::function<TraceResult(const TraceOptions&)> GrayscaleSession::traceJob() const {
    const std::uint32_t width = std::uint32_t(image_.width()), height = std::uint32_t(image_.height());
    const PixelLayout layout = result_layout_;
    const LaunchShape shape = result_shape_;
    if (const UserVariantPtr v = runsUserKernel() ? user_variant(user_kernel_) : nullptr) {
        // Your kernel's trace over the picture's size; addresses do not depend on the pixels.
        return [=](const TraceOptions& options) {
            const std::unique_ptr<user::FamilyCall> call =
                grayscale_user_call(std::vector<std::uint8_t>(3 * std::size_t(width) * height, 0), width, height, layout);
            return trace_user_variant(*v, *call, shape.block, options);
        };
    }
    return [=](const TraceOptions& options) { return trace_grayscale(nullptr, width, height, layout, shape, options); };
}

}  // namespace cvz
