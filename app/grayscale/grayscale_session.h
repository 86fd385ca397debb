#pragma once
#include <QImage>
#include <QObject>
#include <QPoint>
#include <QSize>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "app/jobs/backend_choice.h"
#include "app/models/device_profile.h"
#include "app/models/execution_animation.h"
#include "app/grayscale/grayscale_runner.h"
#include "app/models/launch_plan.h"
#include "app/models/occupancy_model.h"
#include "app/models/picture_launch_state.h"
#include "app/models/wave_model.h"
#include "app/trace/schedule_recorder.h"
#include "app/user/user_run.h"
#include "app/user/user_variants.h"
#include "kernels/core/dim3_text.h"
#include "kernels/grayscale/grayscale_launch_shape.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/trace/trace_result.h"

namespace cvz {

class FrameSink;
class GrayscaleFrame;
class JobRunner;

// The grayscale family's session, without widgets: the document (a photo), the launch (block shape,
// pixel layout, backend, device profile) and what follows from it (plan, occupancy, waves), the
// animation and the inspector's selection, and the run orchestration: every change that alters the
// output runs the kernel once, and a newer change supersedes an older one (a queued run is dropped,
// a stale result ignored). With the CUDA backend and a display that can show a frame written on the
// GPU (setFrameSink), that one run is the displayed frame, written on the GUI thread, and its timing
// and bytes are the result; otherwise it runs on the worker. The image page and its docks listen;
// none keeps a copy.
class GrayscaleSession : public QObject {
    Q_OBJECT
public:
    explicit GrayscaleSession(JobRunner* jobs, QObject* parent = nullptr);
    ~GrayscaleSession() override;

    // ---- the document ----
    // Decodes on the worker; imageChanged on success, loadFailed (with the loader's message) on
    // failure, which keeps the picture that was open.
    void openFile(const QString& path);
    void setImage(const QImage& image, const QString& path = {});  // converted to RGB888; runs
    QString file() const { return file_; }
    QImage image() const { return image_; }
    QSize imageSize() const { return image_.size(); }

    // ---- the launch ----
    LaunchShape shape() const { return shape_; }
    void setShape(const LaunchShape& shape);  // shapeChanged + planChanged + a run, on a real change
    PixelLayout layout() const { return layout_; }
    void setLayout(PixelLayout layout);  // layoutChanged + a run, on a real change
    BackendChoice backend() const { return backend_; }
    void setBackend(BackendChoice backend);  // backendChanged + a run, on a real change
    // The backend a run of `choice` takes on this machine: Auto is CUDA with a device, else the CPU.
    static BackendChoice resolve(BackendChoice choice);

    bool hasPlan() const { return grid_.hasPlan(); }
    const LaunchPlan& plan() const { return grid_.plan(); }
    void setDevice(const DeviceProfile& device);
    const DeviceProfile& device() const { return device_; }
    const Occupancy& occupancy() const { return grid_.occupancy(); }
    const WavePlan& waves() const { return grid_.waves(); }

    // ---- the animation and the selection ----
    AnimationMode animationMode() const { return grid_.mode(); }
    void setAnimationMode(AnimationMode mode);
    std::uint64_t animationSteps() const;
    std::uint64_t animationPosition() const { return grid_.position(); }
    void setAnimationPosition(std::uint64_t position);
    AnimationFrame frame() const;
    // The inspector's pixel (it may lie past the image, on an idle thread): outlined with its block,
    // which is also the block the Warps animation steps through. (-1, -1) clears it.
    void select(QPoint pixel);
    QPoint selectedPixel() const { return grid_.selectedPixel(); }
    std::int64_t selectedBlock() const { return grid_.selectedBlock(); }

    // ---- the display path ----
    // The display that runs a change's launch itself when it can (the CUDA backend and an open
    // CUDA-GL path: FrameSink::prepareFrame): that run is displayed, timed and inspected, and no worker
    // run happens. Null (the default): every run on the worker. Not owned: clear it before it goes.
    void setFrameSink(FrameSink* sink);
    FrameSink* frameSink() const { return sink_; }

    // ---- your kernel (issue 27) ----
    // Runs the user kernel `ref` (a registered user variant of this family, user_variants.h) instead of
    // the shape's built-in variant, with the shape's block; an invalid or built-in ref goes back to the
    // built-ins. userKernelChanged + a run, on a real change.
    void setUserKernel(const KernelRef& ref);
    // The same with the built-in `shape` standing in for its block: both set, then one run (the page's
    // choice of a user kernel; two setters would run the kernel twice, the first time with the old block).
    void setUserKernel(const KernelRef& ref, const LaunchShape& shape);
    KernelRef userKernel() const { return user_kernel_; }
    bool runsUserKernel() const { return is_user_ref(user_kernel_); }
    // The last answered run of the user kernel: its compile messages, fault, writers and comparison
    // with the reference. Null before one.
    std::shared_ptr<const UserRunResult> userRun() const { return user_run_; }

    // The current launch (your kernel or the built-in) recorded with its block schedule, for the
    // schedule panel to run on the worker.
    std::function<ScheduleRun()> scheduleJob() const;

    // ---- runs ----
    // Runs the current launch again (to re-time it); changes run by themselves.
    void requestRun();
    bool running() const { return answered_serial_ < run_serial_; }  // a request not answered yet
    QImage result() const { return result_; }  // the last good output, Format_Grayscale8; null before
    const GrayscaleResult& lastResult() const { return last_; }
    // The launch and layout of the last answered run (shown, or failed).
    LaunchShape resultShape() const { return result_shape_; }
    PixelLayout resultLayout() const { return result_layout_; }
    int completedRuns() const { return completed_runs_; }  // results accepted (shown) so far
    // Kernel executions so far, whichever backend ran them: one per change (a superseded request
    // that never started adds none). Read by tests that check the kernel runs once per change.
    std::uint64_t launchCount() const { return launches_->load(); }

    // The traced launch of the last answered run (its shape and layout over the picture's size), for
    // the memory trace to run on the worker: addresses do not depend on the pixels, so no copy of
    // them is taken.
    std::function<TraceResult(const TraceOptions&)> traceJob() const;

signals:
    void imageChanged();  // a new picture (size, plan and selection follow)
    void loadFailed(const QString& path, const QString& error);
    void shapeChanged(const cvz::LaunchShape& shape);
    void layoutChanged(cvz::PixelLayout layout);
    void backendChanged(cvz::BackendChoice backend);
    void planChanged();   // plan, occupancy, waves or the number of animation steps changed
    void frameChanged();  // the animation frame or the selection changed
    void runStarted();
    void runFinished(const cvz::GrayscaleResult& result);  // the output is in result()
    void runFailed(const QString& error);                  // the previous result stays
    void userKernelChanged(const cvz::KernelRef& ref);
    void userRunFinished();  // userRun() is the new one (also when it failed: its fault says why)

private:
    void replan();
    void finishRun(std::uint64_t serial, std::uint64_t image_serial, const GrayscaleRequest& request,
                   const GrayscaleResult& result, const QImage& gray);
    // The run of `serial` as the display's frame; false when the display cannot take it (the worker
    // runs it then).
    bool runOnDisplay(std::uint64_t serial, const GrayscaleRequest& request);
    void requestUserRun(std::uint64_t serial);

    JobRunner* jobs_;
    // Shared with the worker's jobs: one may still count after the session is gone.
    std::shared_ptr<std::atomic<std::uint64_t>> launches_ = std::make_shared<std::atomic<std::uint64_t>>(0);

    QString file_;
    QImage image_;
    std::uint64_t load_serial_ = 0;
    std::uint64_t image_serial_ = 0;
    std::uint64_t run_serial_ = 0;    // the latest run request
    std::uint64_t shown_serial_ = 0;  // the run whose result is shown
    std::uint64_t answered_serial_ = 0;  // the newest request answered (shown, failed or stale)
    QImage result_;
    GrayscaleResult last_;
    LaunchShape result_shape_;
    PixelLayout result_layout_ = PixelLayout::Interleaved;
    int completed_runs_ = 0;

    double first_display_ms_ = -1;  // the first displayed frame's kernel time (the process's first launch)
    LaunchShape shape_ = LaunchShape::two_d(16, 16);
    PixelLayout layout_ = PixelLayout::Interleaved;
    BackendChoice backend_ = BackendChoice::Auto;
    DeviceProfile device_;
    PictureLaunchState grid_;  // plan, occupancy, waves, animation and the picked pixel

    KernelRef user_kernel_{KernelFamily::Grayscale, 0, 0};  // a user ref, or none
    std::shared_ptr<const UserRunResult> user_run_;

    FrameSink* sink_ = nullptr;
    std::unique_ptr<GrayscaleFrame> frame_;  // the picture on the device, for the display's frames
    std::uint64_t frame_image_serial_ = 0;   // the picture and layout frame_ holds
    PixelLayout frame_layout_ = PixelLayout::Interleaved;
};

}  // namespace cvz
