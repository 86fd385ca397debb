#include "app/convolution/convolution_session.h"

#include <QFileInfo>

#include <algorithm>
#include <cstring>

#include "app/convolution/convolution_output.h"
#include "app/convolution/convolution_schedule_run.h"
#include "app/io/image_loader.h"
#include "app/jobs/job_runner.h"
#include "app/models/kernel_resources.h"
#include "app/models/overlay_geometry.h"
#include "kernels/convolution/convolution_user_call.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_trace.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

namespace {

// One tag per kind of job: a newer request of the same kind drops a queued older one.
const QString kLoadTag = QStringLiteral("convolution-load");
const QString kRunTag = QStringLiteral("convolution-run");

// The photo's grayscale as the kernels read it: width*height bytes, no row padding.
std::vector<std::uint8_t> gray_of(const QImage& rgb888) {
    const std::uint32_t w = std::uint32_t(rgb888.width()), h = std::uint32_t(rgb888.height());
    std::vector<std::uint8_t> packed(std::size_t(w) * h * 3);
    for (std::uint32_t y = 0; y < h; ++y) std::memcpy(packed.data() + std::size_t(y) * w * 3, rgb888.constScanLine(int(y)), std::size_t(w) * 3);
    return convolution_input(packed.data(), w, h, PixelLayout::Interleaved);
}

QImage gray_qimage(const std::vector<std::uint8_t>& gray, std::uint32_t w, std::uint32_t h) {
    QImage image(int(w), int(h), QImage::Format_Grayscale8);
    for (std::uint32_t y = 0; y < h; ++y) std::memcpy(image.scanLine(int(y)), gray.data() + std::size_t(y) * w, w);
    return image;
}

}  // namespace

QImage convolution_output_image(const std::vector<float>& out, std::uint32_t w, std::uint32_t h) {
    if (out.size() != std::size_t(w) * h || w == 0 || h == 0) return {};
    // The bytes the CLI's .png holds (clamped to 0..255, truncated), one row at a time into the image.
    const std::vector<std::uint8_t> bytes = convolution_to_bytes(out);
    return gray_qimage(bytes, w, h);
}

ConvolutionSession::ConvolutionSession(JobRunner* jobs, QObject* parent) : QObject(parent), jobs_(jobs) {
    device_ = builtin_device_profiles().first();
    named_mask("gauss5", &mask_);
    mask_name_ = QStringLiteral("gauss5");
    replan();
}

ConvolutionSession::~ConvolutionSession() = default;

// ---- document -----------------------------------------------------------------------------------

void ConvolutionSession::openFile(const QString& path) {
    const std::uint64_t serial = ++load_serial_;
    jobs_->submit(kLoadTag, this, [this, path, serial]() -> JobRunner::Continuation {
        // Worker thread: decode, and the grayscale the kernels read (an 8K photo's is 33 MB of work).
        LoadedImage loaded = load_image(path);
        QImage rgb;
        std::vector<std::uint8_t> gray;
        if (loaded.ok()) {
            rgb = loaded.rgb.format() == QImage::Format_RGB888 ? loaded.rgb : loaded.rgb.convertToFormat(QImage::Format_RGB888);
            gray = gray_of(rgb);
        }
        return [this, path, serial, error = loaded.error, rgb, gray = std::move(gray)]() mutable {
            if (serial != load_serial_) return;
            if (!error.isEmpty()) {
                emit loadFailed(path, error);
                return;
            }
            setDocument(rgb, std::move(gray), path);
        };
    });
}

void ConvolutionSession::setImage(const QImage& image, const QString& path) {
    const QImage rgb = image.format() == QImage::Format_RGB888 ? image : image.convertToFormat(QImage::Format_RGB888);
    setDocument(rgb, rgb.isNull() ? std::vector<std::uint8_t>{} : gray_of(rgb), path);
}

void ConvolutionSession::setDocument(const QImage& rgb888, std::vector<std::uint8_t> gray, const QString& path) {
    file_ = path;
    image_ = rgb888;
    gray_image_ = image_.isNull() ? QImage() : gray_qimage(gray, std::uint32_t(image_.width()), std::uint32_t(image_.height()));
    gray_ = std::make_shared<const std::vector<std::uint8_t>>(std::move(gray));
    result_ = QImage();
    output_.clear();
    ++input_serial_;
    grid_.clearSelection();
    replan();
    emit imageChanged();
    emit planChanged();
    emit frameChanged();
    requestRun();
}

// ---- mask ---------------------------------------------------------------------------------------

bool ConvolutionSession::setNamedMask(const QString& name) {
    ConvolutionMask mask;
    if (!named_mask(name.toStdString(), &mask)) return false;
    return setMask(mask, name);
}

bool ConvolutionSession::setMask(const ConvolutionMask& mask, const QString& name) {
    if (!validate_mask(mask).empty()) return false;
    if (mask.side == mask_.side && mask.values == mask_.values && name == mask_name_) return true;
    mask_ = mask;
    mask_name_ = name;
    ++input_serial_;
    replan();  // a tiled variant's shared memory follows the mask's side
    emit maskChanged();
    emit planChanged();
    emit frameChanged();
    requestRun();
    return true;
}

// ---- launch -------------------------------------------------------------------------------------

void ConvolutionSession::setLaunch(const ConvolutionLaunch& launch) {
    if (launch.kernel == launch_.kernel && launch.block == launch_.block) return;
    launch_ = launch;
    replan();
    emit launchChanged();
    emit planChanged();
    emit frameChanged();
    requestRun();
}

void ConvolutionSession::setChoice(const LaunchChoice& choice) {
    if (choice.ref.family != launch_.ref().family) return;  // the shared panel editing another family
    setLaunch(ConvolutionLaunch::of(ConvolutionVariant(choice.ref.variant), launched_block(choice)));
}

void ConvolutionSession::setBackend(BackendChoice backend) {
    if (backend == backend_) return;
    backend_ = backend;
    emit backendChanged(backend_);
    requestRun();
}

void ConvolutionSession::setDevice(const DeviceProfile& device) {
    device_ = device;
    replan();
    emit planChanged();
    emit frameChanged();
}

BlockResources ConvolutionSession::blockResources() const {
    return block_resources(launch_.ref(), launch_.block, convolution_shared_bytes(launch_, mask_.side));
}

void ConvolutionSession::replan() {
    const QSize size = image_.size();
    launch_error_ = size.isEmpty() ? QString()
                                   : QString::fromStdString(validate_convolution_launch(
                                         launch_, std::uint32_t(size.width()), std::uint32_t(size.height()), mask_.side));
    // A convolution thread maps to its output pixel as the lecture's 2-D grayscale thread maps to its
    // pixel (column from x, row from y, a guard on both): the same plan, drawn by the same overlay.
    const bool valid = !size.isEmpty() && launch_error_.isEmpty();
    grid_.replan(valid ? plan_grayscale_launch(LaunchShape::two_d(launch_.block.x, launch_.block.y),
                                               std::uint32_t(size.width()), std::uint32_t(size.height()))
                       : LaunchPlan{},
                 compute_occupancy(device_, blockResources()), device_.sm_count);
}

// ---- animation and selection --------------------------------------------------------------------

void ConvolutionSession::setAnimationMode(AnimationMode mode) {
    if (!grid_.setMode(mode)) return;
    emit planChanged();  // the number of steps changes with the mode
    emit frameChanged();
}

std::uint64_t ConvolutionSession::animationSteps() const { return grid_.steps(); }

void ConvolutionSession::setAnimationPosition(std::uint64_t position) {
    if (grid_.setPosition(position)) emit frameChanged();
}

AnimationFrame ConvolutionSession::frame() const { return grid_.frame(); }

void ConvolutionSession::select(QPoint pixel) {
    if (grid_.select(pixel)) emit frameChanged();
}

// ---- runs ---------------------------------------------------------------------------------------

void ConvolutionSession::setUserKernel(const KernelRef& ref) {
    const KernelRef next = is_user_ref(ref) ? ref : KernelRef{KernelFamily::Convolution, 0, 0};
    if (next == user_kernel_) return;
    user_kernel_ = next;
    emit userKernelChanged(user_kernel_);
    requestRun();
}

void ConvolutionSession::setUserKernel(const KernelRef& ref, const LaunchChoice& choice) {
    if (choice.ref.family != launch_.ref().family) return setUserKernel(ref);
    const KernelRef next = is_user_ref(ref) ? ref : KernelRef{KernelFamily::Convolution, 0, 0};
    const ConvolutionLaunch launch = ConvolutionLaunch::of(ConvolutionVariant(choice.ref.variant), launched_block(choice));
    const bool kernel_changed = next != user_kernel_;
    const bool launch_changed = !(launch.kernel == launch_.kernel && launch.block == launch_.block);
    if (!kernel_changed && !launch_changed) return;
    user_kernel_ = next;
    if (launch_changed) {
        launch_ = launch;
        replan();
        emit launchChanged();
        emit planChanged();
        emit frameChanged();
    }
    if (kernel_changed) emit userKernelChanged(user_kernel_);
    requestRun();
}

void ConvolutionSession::requestRun() {
    if (image_.isNull()) return;
    const std::uint64_t serial = ++run_serial_;
    const std::uint64_t input_serial = input_serial_;
    if (runsUserKernel()) {
        // The user's kernel on the worker, isolated (user_run.h): its output shown as a built-in's is,
        // its compile messages, writers and comparison kept beside it.
        const std::uint32_t width = std::uint32_t(image_.width()), height = std::uint32_t(image_.height());
        const BackendChoice backend = backend_ == BackendChoice::Auto
                                          ? (cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu)
                                          : backend_;
        emit runStarted();
        jobs_->submit(kRunTag, this, [this, serial, input_serial, width, height, mask = mask_, launch = launch_, backend,
                                      variant = user_variant(user_kernel_), gray = gray_, launches = launches_]() mutable
                      -> JobRunner::Continuation {
            // Worker thread.
            auto run = std::make_shared<UserRunResult>();
            ConvolutionResult result;
            result.width = width;
            result.height = height;
            if (!variant) {
                result.status = Status::error(ErrorKind::InvalidInput, "your kernel is no longer loaded: compile it again");
            } else {
                const std::unique_ptr<user::FamilyCall> call = convolution_user_call(*gray, width, height, mask);
                *run = run_user_variant(*variant, *call, launch.block, backend);
                result.status = run->ok() ? Status::ok() : run->status;
                result.backend = run->backend;
                result.kernel_ms = run->run_ms;
                result.times.gpu = backend == BackendChoice::Cuda;
                result.times.first_ms = run->run_ms;
                result.shape_text = QStringLiteral("yours: %1 · block %2 · grid %3 · mask %4x%4")
                                        .arg(QString::fromStdString(variant->name), dims_text(run->block),
                                             dims_text(run->grid))
                                        .arg(mask.side);
                if (run->ok()) {
                    launches->fetch_add(1);
                    const auto* values = static_cast<const float*>(call->output());
                    result.out.assign(values, values + call->output_bytes() / sizeof(float));
                }
            }
            const QImage shown = result.status ? convolution_output_image(result.out, width, height) : QImage();
            return [this, serial, input_serial, launch, result = std::move(result), shown, run]() mutable {
                if (input_serial == input_serial_ && serial == run_serial_) {
                    user_run_ = run;
                    emit userRunFinished();
                }
                finishRun(serial, input_serial, launch, std::move(result), shown);
            };
        });
        return;
    }
    ConvolutionRequest request;  // the grayscale is copied in on the worker
    request.width = std::uint32_t(image_.width());
    request.height = std::uint32_t(image_.height());
    request.mask = mask_;
    request.launch = launch_;
    request.backend = backend_;
    emit runStarted();
    jobs_->submit(kRunTag, this, [this, serial, input_serial, request, gray = gray_, launches = launches_]() mutable
                  -> JobRunner::Continuation {
        // Worker thread.
        request.gray = *gray;
        ConvolutionResult result = run_convolution(request);
        if (result.status) launches->fetch_add(1);  // a launch the validator refused never ran
        const QImage shown = result.status ? convolution_output_image(result.out, result.width, result.height) : QImage();
        const ConvolutionLaunch launch = request.launch;
        return [this, serial, input_serial, launch, result = std::move(result), shown]() mutable {
            finishRun(serial, input_serial, launch, std::move(result), shown);
        };
    });
}

void ConvolutionSession::finishRun(std::uint64_t serial, std::uint64_t input_serial, const ConvolutionLaunch& launch,
                                   ConvolutionResult result, const QImage& shown) {
    answered_serial_ = std::max(answered_serial_, serial);
    // Only the latest request's result is shown: a superseded run's would show a launch, picture or
    // mask that is no longer the one asked for.
    if (input_serial != input_serial_ || serial != run_serial_) return;
    result_launch_ = launch;
    if (!result.status) {
        last_ = std::move(result);
        emit runFailed(QString::fromStdString(last_.status.message()));
        return;
    }
    output_ = std::move(result.out);
    result.out.clear();
    last_ = std::move(result);
    result_ = shown;
    ++completed_runs_;
    emit runFinished(last_);
}

std::function<ScheduleRun()> ConvolutionSession::scheduleJob() const {
    if (image_.isNull()) return nullptr;
    const std::uint32_t width = std::uint32_t(image_.width()), height = std::uint32_t(image_.height());
    const BackendChoice backend = backend_ == BackendChoice::Auto
                                      ? (cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu)
                                      : backend_;
    if (const UserVariantPtr v = runsUserKernel() ? user_variant(user_kernel_) : nullptr)
        return [v, gray = gray_, width, height, mask = mask_, block = launch_.block, backend] {
            const std::unique_ptr<user::FamilyCall> call = convolution_user_call(*gray, width, height, mask);
            return record_user_schedule(*v, *call, block, backend);
        };
    return [gray = gray_, width, height, mask = mask_, launch = launch_, backend] {
        ConvolutionRequest request;
        request.gray = *gray;
        request.width = width;
        request.height = height;
        request.mask = mask;
        request.launch = launch;
        request.backend = backend;
        const ConvolutionScheduleRun recorded = record_convolution_schedule(request);
        ScheduleRun run;
        run.status = recorded.status;
        run.schedule = recorded.schedule;
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(recorded.out.data());
        run.output.assign(bytes, bytes + recorded.out.size() * sizeof(float));
        return run;
    };
}

std::function<TraceResult(const TraceOptions&)> ConvolutionSession::traceJob() const {
    const std::uint32_t width = std::uint32_t(image_.width()), height = std::uint32_t(image_.height());
    const ConvolutionLaunch launch = result_launch_;
    const ConvolutionMask mask = mask_;
    if (const UserVariantPtr v = runsUserKernel() ? user_variant(user_kernel_) : nullptr) {
        // Your kernel's trace over the picture's size; addresses do not depend on the pixels.
        return [=](const TraceOptions& options) {
            const std::unique_ptr<user::FamilyCall> call =
                convolution_user_call(std::vector<std::uint8_t>(std::size_t(width) * height, 0), width, height, mask);
            return trace_user_variant(*v, *call, launch.block, options);
        };
    }
    // Addresses do not depend on the pixels: the trace runs on a black picture of the same size.
    return [=](const TraceOptions& options) {
        return trace_convolution(nullptr, mask.values.data(), mask.side, width, height, launch, options);
    };
}

}  // namespace cvz
