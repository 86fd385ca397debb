#pragma once
#include "app/trace/schedule_recorder.h"
#include "app/user/user_run.h"
#include "app/user/user_variants.h"
#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "app/models/device_profile.h"
#include "app/matmul/matmul_phase_model.h"
#include "app/matmul/matmul_runner.h"
#include "app/matmul/matmul_traffic.h"
#include "app/io/matrix.h"
#include "app/models/occupancy_model.h"
#include "app/models/wave_model.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/trace/trace_result.h"

namespace cvz {

class JobRunner;

// The matmul family's session, without widgets: the document (A and B, where they came from), the
// launch and the backend, the run orchestration (C on the worker; with the second barrier removed
// also the safe run, to mark the outputs that came out wrong; the traced emulator's access counts
// when the problem is small enough), the phase model of the animation, and the selected output
// element and block. Every change that alters C runs the kernel once; a newer change supersedes an
// older one. The matrices page shows it; the tests drive it with no widgets.
class MatmulSession : public QObject {
    Q_OBJECT
public:
    enum class Operand { A, B };
    Q_ENUM(Operand)

    explicit MatmulSession(JobRunner* jobs, QObject* parent = nullptr);

    // ---- the document ----
    // Replaces A and B; a matrix whose data do not fill its shape is refused (failed), nothing replaced.
    void setMatrices(Matrix a, Matrix b, const QString& a_source = {}, const QString& b_source = {});
    void setOperands(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b);
    void openMatrix(Operand which, const QString& path);  // on the worker; a bad file keeps what was open
    // Uniform [-1, 1): A from `seed`, B from seed + 1, on the worker. A matrix loaded from a file is
    // kept when the size asked for is its own: only what is not loaded, or whose size changed, is
    // replaced; `generated` says which.
    void generate(std::uint32_t a_rows, std::uint32_t a_cols, std::uint32_t b_rows, std::uint32_t b_cols,
                  std::uint32_t seed);
    bool loadedFromFile(Operand which) const { return which == Operand::A ? a_from_file_ : b_from_file_; }
    void saveResult(const QString& path);  // on the worker: resultSaved or failed
    std::shared_ptr<const Matrix> a() const { return a_; }
    std::shared_ptr<const Matrix> b() const { return b_; }
    std::shared_ptr<const Matrix> c() const { return c_; }
    QString aSource() const { return a_source_; }
    QString bSource() const { return b_source_; }
    bool shapesMatch() const;
    QString shapeError() const;  // why A @ B is not defined; empty when it is

    // ---- the launch ----
    void setLaunch(const MatmulLaunch& launch);  // launchChanged + a run, on a real change
    MatmulLaunch launch() const { return launch_; }
    void setBackend(BackendChoice backend);  // a run, on a real change
    BackendChoice backend() const { return backend_; }
    void setDevice(const DeviceProfile& device);  // occupancy and waves on that profile
    const DeviceProfile& device() const { return device_; }
    const Occupancy& occupancy() const { return occupancy_; }
    const WavePlan& waves() const { return waves_; }

    // ---- runs ----
    void requestRun();  // the same launch again (to re-time it); changes run by themselves
    bool running() const { return running_; }
    const MatmulResult& lastResult() const { return result_; }  // its c is moved into c()
    MatmulLaunch resultLaunch() const { return result_launch_; }
    QString runNote() const { return note_; }  // e.g. why the run took the emulator
    std::shared_ptr<const Matrix> safeC() const { return c_normal_; }  // with both barriers, when one was removed
    std::shared_ptr<const std::vector<std::uint8_t>> wrongMask() const { return wrong_; }
    long long wrongCount() const { return wrong_count_; }  // -1 unless the barrier-removed run was compared
    MatmulTraffic predictedTraffic() const;
    std::optional<MatmulTraffic> measuredTraffic() const { return measured_; }
    int completedRuns() const { return completed_runs_; }
    // Kernel executions so far (the checking runs of the missing-barrier lesson included): one run
    // of the launch per change. Read by tests that check the kernel runs once per change.
    std::uint64_t launchCount() const { return launches_->load(); }

    // The traced launch of the last run (its launch over A's and B's shapes), for the memory trace to
    // run on the worker; null when A @ B is not defined. Addresses do not depend on the values, so
    // no copy of them is taken.
    std::function<TraceResult(const TraceOptions&)> traceJob() const;

    // ---- the animation and the selection ----
    const MatmulPhaseModel& model() const { return model_; }
    int animationSteps() const;  // positions run from 0 to animationSteps(); the last is "done"
    void setAnimationPosition(int position);
    int animationPosition() const { return position_; }
    const MatmulStep& step() const { return step_; }
    void selectElement(int row, int col);  // an output element of C
    void selectThread(Dim3 block, Dim3 thread);
    int selectedRow() const { return sel_row_; }
    int selectedCol() const { return sel_col_; }
    Dim3 selectedBlock() const { return sel_block_; }
    Dim3 selectedThread() const;  // of the selected element within the selected block, else (0, 0)

    // ---- your kernel (issue 27) ----
    // Runs the user kernel `ref` (a registered user variant of this family, user_variants.h) instead of
    // the launch's built-in variant, with the launch's block; an invalid or built-in ref goes back to the
    // built-ins. userKernelChanged + a run, on a real change.
    void setUserKernel(const KernelRef& ref);
    // The same with the built-in `launch` standing in for its block: both set, then one run (the page's
    // choice of a kernel; two setters would run a user kernel twice, the first time with the old block).
    void setUserKernel(const KernelRef& ref, const MatmulLaunch& launch);
    KernelRef userKernel() const { return user_kernel_; }
    bool runsUserKernel() const { return is_user_ref(user_kernel_); }
    // The last answered run of the user kernel (compile messages, fault, writers, comparison); null before.
    std::shared_ptr<const UserRunResult> userRun() const { return user_run_; }
    // The current launch (your kernel or the built-in) recorded with its block schedule, for the worker;
    // null without two matrices that multiply.
    std::function<ScheduleRun()> scheduleJob() const;

signals:
    void userKernelChanged(const cvz::KernelRef& ref);
    void userRunFinished();  // userRun() is the new one (also when it failed: its fault says why)
    void operandsChanged();
    void operandLoaded(cvz::MatmulSession::Operand which, const QString& source);
    void resultSaved(const QString& path);
    void generated(const QString& summary);  // "Kept A (A.csv, 45 × 38) as loaded; generated B 38 × 52."
    void failed(const QString& error);  // a file, a shape or a save; what was open stays
    void launchChanged(const cvz::MatmulLaunch& launch);
    void planChanged();  // model, occupancy, waves or the number of animation steps may have changed
    void stepChanged();  // the animation position or the selection changed
    void runStarted();
    void runFinished(const cvz::MatmulResult& result);  // status says whether C came out

private:
    struct RunOutcome;
    static std::shared_ptr<RunOutcome> runUserOnWorker(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b,
                                                       UserVariantPtr variant, Dim3 block, BackendChoice backend,
                                                       std::atomic<std::uint64_t>* launches);
    static std::shared_ptr<RunOutcome> runOnWorker(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b,
                                                   MatmulLaunch launch, BackendChoice backend,
                                                   std::atomic<std::uint64_t>* launches);
    void startRun();
    void finishRun(std::uint64_t serial, const std::shared_ptr<RunOutcome>& outcome);
    void rebuildModel();
    void refreshStep();

    JobRunner* jobs_;
    std::shared_ptr<std::atomic<std::uint64_t>> launches_ = std::make_shared<std::atomic<std::uint64_t>>(0);
    MatmulLaunch launch_;
    BackendChoice backend_ = BackendChoice::Auto;
    DeviceProfile device_;
    Occupancy occupancy_;
    WavePlan waves_;

    std::shared_ptr<const Matrix> a_, b_, c_;
    std::shared_ptr<const Matrix> c_normal_;
    std::shared_ptr<const std::vector<std::uint8_t>> wrong_;
    long long wrong_count_ = -1;
    QString a_source_, b_source_;
    bool a_from_file_ = false, b_from_file_ = false;
    MatmulResult result_;
    MatmulLaunch result_launch_;
    std::optional<MatmulTraffic> measured_;
    QString note_;
    std::uint64_t run_serial_ = 0;
    bool running_ = false;
    int completed_runs_ = 0;

    KernelRef user_kernel_{KernelFamily::Matmul, 0, 0};  // a user ref, or none
    std::shared_ptr<const UserRunResult> user_run_;

    MatmulPhaseModel model_;
    MatmulStep step_;
    int position_ = 0;
    int sel_row_ = -1;
    int sel_col_ = -1;
    Dim3 sel_block_{0, 0, 0};
};

}  // namespace cvz
