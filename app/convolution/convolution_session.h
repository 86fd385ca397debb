#pragma once
#include "app/trace/schedule_recorder.h"
#include "app/user/user_run.h"
#include "app/user/user_variants.h"
#include <QImage>
#include <QObject>
#include <QPoint>
#include <QSize>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "app/convolution/convolution_runner.h"
#include "app/family/launch_choice.h"
#include "app/jobs/backend_choice.h"
#include "app/models/device_profile.h"
#include "app/models/execution_animation.h"
#include "app/models/launch_plan.h"
#include "app/models/occupancy_model.h"
#include "app/models/picture_launch_state.h"
#include "app/models/wave_model.h"
#include "kernels/convolution/convolution_launch.h"
#include "kernels/convolution/convolution_mask.h"
#include "kernels/trace/trace_result.h"

namespace cvz {

class JobRunner;

// The convolution family's session, without widgets: the document (a photo, and its grayscale, which
// is the kernels' input), the mask, the launch (variant and block, backend, device profile) and what
// follows from it (plan, occupancy, waves), the animation and the selected pixel, and the runs: every
// change that alters the output runs the kernel once on the worker, and a newer change supersedes an
// older one (a queued run is dropped, a stale result ignored).
class ConvolutionSession : public QObject {
    Q_OBJECT
public:
    explicit ConvolutionSession(JobRunner* jobs, QObject* parent = nullptr);
    ~ConvolutionSession() override;

    // ---- the document ----
    void openFile(const QString& path);  // decodes on the worker; imageChanged or loadFailed
    void setImage(const QImage& image, const QString& path = {});
    QString file() const { return file_; }
    QImage image() const { return image_; }  // the photo, RGB888
    QImage grayImage() const { return gray_image_; }  // its grayscale: what the kernel convolves
    const std::vector<std::uint8_t>& grayBytes() const { return *gray_; }  // the same, width*height bytes
    QSize imageSize() const { return image_.size(); }

    // ---- the mask ----
    const ConvolutionMask& mask() const { return mask_; }
    QString maskName() const { return mask_name_; }  // "gauss5", or the .npy file's name
    // A named mask (convolution_mask.h); false (nothing changes) for an unknown name.
    bool setNamedMask(const QString& name);
    // Any valid mask; `name` says where it came from. False (nothing changes) when validate_mask refuses it.
    bool setMask(const ConvolutionMask& mask, const QString& name);

    // ---- the launch ----
    ConvolutionLaunch launch() const { return launch_; }
    LaunchChoice choice() const { return {launch_.ref(), launch_.block}; }
    void setLaunch(const ConvolutionLaunch& launch);  // launchChanged + planChanged + a run, on a change
    void setChoice(const LaunchChoice& choice);       // the launch panel's choice, as a launch
    BackendChoice backend() const { return backend_; }
    void setBackend(BackendChoice backend);
    void setDevice(const DeviceProfile& device);
    const DeviceProfile& device() const { return device_; }
    bool hasPlan() const { return grid_.hasPlan(); }
    const LaunchPlan& plan() const { return grid_.plan(); }
    const Occupancy& occupancy() const { return grid_.occupancy(); }
    BlockResources blockResources() const;
    const WavePlan& waves() const { return grid_.waves(); }
    QString launchError() const { return launch_error_; }  // why the launch cannot run; empty when it can

    // ---- the animation and the selection ----
    AnimationMode animationMode() const { return grid_.mode(); }
    void setAnimationMode(AnimationMode mode);
    std::uint64_t animationSteps() const;
    std::uint64_t animationPosition() const { return grid_.position(); }
    void setAnimationPosition(std::uint64_t position);
    AnimationFrame frame() const;
    void select(QPoint pixel);  // (-1, -1) clears it
    QPoint selectedPixel() const { return grid_.selectedPixel(); }
    std::int64_t selectedBlock() const { return grid_.selectedBlock(); }

    // ---- runs ----
    void requestRun();
    bool running() const { return answered_serial_ < run_serial_; }
    QImage result() const { return result_; }  // the output clamped to 0..255 and truncated, Grayscale8
    const std::vector<float>& output() const { return output_; }  // the last good output, width*height floats
    const ConvolutionResult& lastResult() const { return last_; }  // its out is moved to output()
    ConvolutionLaunch resultLaunch() const { return result_launch_; }
    int completedRuns() const { return completed_runs_; }
    std::uint64_t launchCount() const { return launches_->load(); }

    // The traced launch of the last answered run, for the memory trace on the worker.
    std::function<TraceResult(const TraceOptions&)> traceJob() const;

    // ---- your kernel (issue 27) ----
    // Runs the user kernel `ref` (a registered user variant of this family, user_variants.h) instead of
    // the launch's built-in variant, with the launch's block; an invalid or built-in ref goes back to the
    // built-ins. userKernelChanged + a run, on a real change.
    void setUserKernel(const KernelRef& ref);
    // The same with the built-in `choice` standing in for its block: both set, then one run (the page's
    // choice of a kernel; two setters would run a user kernel twice, the first time with the old block).
    void setUserKernel(const KernelRef& ref, const LaunchChoice& choice);
    KernelRef userKernel() const { return user_kernel_; }
    bool runsUserKernel() const { return is_user_ref(user_kernel_); }
    // The last answered run of the user kernel (compile messages, fault, writers, comparison); null before.
    std::shared_ptr<const UserRunResult> userRun() const { return user_run_; }
    // The current launch (your kernel or the built-in) recorded with its block schedule, for the worker;
    // `output` holds the run's float output as bytes. Null without a picture.
    std::function<ScheduleRun()> scheduleJob() const;

signals:
    void userKernelChanged(const cvz::KernelRef& ref);
    void userRunFinished();  // userRun() is the new one (also when it failed: its fault says why)
    void imageChanged();
    void loadFailed(const QString& path, const QString& error);
    void maskChanged();
    void launchChanged();
    void backendChanged(cvz::BackendChoice backend);
    void planChanged();
    void frameChanged();
    void runStarted();
    void runFinished(const cvz::ConvolutionResult& result);
    void runFailed(const QString& error);

private:
    // A decoded picture and its grayscale (computed on the worker when it comes from a file).
    void setDocument(const QImage& rgb888, std::vector<std::uint8_t> gray, const QString& path);
    void replan();
    void finishRun(std::uint64_t serial, std::uint64_t input_serial, const ConvolutionLaunch& launch,
                   ConvolutionResult result, const QImage& shown);

    JobRunner* jobs_;
    std::shared_ptr<std::atomic<std::uint64_t>> launches_ = std::make_shared<std::atomic<std::uint64_t>>(0);

    QString file_;
    QImage image_;
    QImage gray_image_;
    // gray_image_'s bytes without row padding: the kernels' input, shared read-only with the worker's
    // runs (a run copies it there, not on the GUI thread).
    std::shared_ptr<const std::vector<std::uint8_t>> gray_ = std::make_shared<const std::vector<std::uint8_t>>();
    ConvolutionMask mask_;
    QString mask_name_;
    std::uint64_t load_serial_ = 0;
    std::uint64_t input_serial_ = 0;  // a new picture or mask
    std::uint64_t run_serial_ = 0;
    std::uint64_t answered_serial_ = 0;

    QImage result_;
    std::vector<float> output_;
    ConvolutionResult last_;
    ConvolutionLaunch result_launch_;
    int completed_runs_ = 0;

    KernelRef user_kernel_{KernelFamily::Convolution, 0, 0};  // a user ref, or none
    std::shared_ptr<const UserRunResult> user_run_;

    ConvolutionLaunch launch_ = ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{16, 16, 1});
    BackendChoice backend_ = BackendChoice::Auto;
    QString launch_error_;
    DeviceProfile device_;
    PictureLaunchState grid_;  // plan, occupancy, waves, animation and the picked pixel
};

// The float output as the display shows it: the bytes of the CLI's .png (convolution_to_bytes).
QImage convolution_output_image(const std::vector<float>& out, std::uint32_t width, std::uint32_t height);

}  // namespace cvz
