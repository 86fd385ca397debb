#pragma once
#include <QPointer>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "app/family/launch_choice.h"
#include "app/jobs/backend_choice.h"
#include "app/matmul/matmul_session.h"
#include "app/matmul/matmul_phase_model.h"
#include "app/matmul/matmul_runner.h"
#include "app/matmul/matmul_thread_tiles.h"
#include "app/matmul/matmul_traffic.h"
#include "app/io/matrix.h"
#include "kernels/trace/memory_trace.h"
#include "kernels/matmul/matmul_launch.h"
#include "ui/pages/kernel_page.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;
class QTabWidget;

namespace cvz {

class ElidedLabel;
class FragmentView;
class JobRunner;
class MatrixHeatmap;
class MemoryTraceSession;
class PredictionSession;
class TraceDocks;

// The matrices tab, a view of a MatmulSession (app/matmul): B top-right, A bottom-left, C
// bottom-right, so A's rows line up with C's rows and B's columns with C's columns, as in the classic
// diagram (the row and column axes of the views are linked). Buttons to open, generate and save
// matrices; the thread of a clicked output element against a float64 reference; the selected
// block's phases (tiled) or dot-product chunks (naive) with the loads counted so far; and, with the
// second barrier removed, the outputs that came out wrong. The session runs; the page shows.
class MatmulPage : public KernelPage {
    Q_OBJECT
public:
    using Operand = MatmulSession::Operand;

    explicit MatmulPage(JobRunner* runner, QWidget* parent = nullptr);
    ~MatmulPage() override;  // deletes its launch controls, wherever they are
    MatmulSession* session() const { return session_; }

    // ---- KernelPage ----
    QString title() const override;
    bool resultShown() const override;
    PageDocks::Docks docksUsed() const override;
    QString documentText() const override;
    void setBackend(BackendChoice backend) override;
    void setDevice(const DeviceProfile& device) override;
    void runAgain() override;
    void togglePlay() override;
    void offerToSweep(SweepDialog* sweep) const override;
    std::unique_ptr<user::FamilyCall> userKernelCall() const override;
    bool showOutputElement(std::uint64_t index) override;
    std::function<ScheduleRun()> scheduleJob() const override { return session_->scheduleJob(); }
    LaunchChoice shownChoice() const;
    void chooseInSweep(SweepDialog* sweep) const override;
    void connectSweep(SweepDialog* sweep) override;
    void offerToLadder(LadderDialog* ladder) const override;
    void chooseInLadder(LadderDialog* ladder) const override;
    void connectLadder(LadderDialog* ladder) override;
    void restoreSettings(QSettings* settings) override;

    // ---- guided lessons ----
    // "MxKxN": A (M×K) and B (K×N) generated with the seed shown; nothing when both have those sizes.
    QString setLessonInput(const QString& spec) override;
    QString pickedThread() const override;  // the selected element's thread

    // ---- File > Save Result As, File > Export, scripts/screenshots ----
    QString resultFileName() const override { return QStringLiteral("C.npy"); }
    QString resultFileFilter() const override;
    QString resultDescription() const override;
    std::function<QString()> resultWriter(const QString& path, QString* error) const override;
    std::optional<RunTiming> lastRunTiming() const override;
    void tour(ScreenshotTour& tour) override;

    // ---- the launch (the launch panel edits it while the page is bound) ----
    void setLaunch(const MatmulLaunch& launch);  // re-runs when it differs from the current one
    MatmulLaunch launch() const { return session_->launch(); }

    int animationSteps() const;       // positions run from 0 to animationSteps(); the last is "done"
    QString animationUnit() const;    // "step" (tiled: three per phase) or "chunk" (naive)
    void setAnimationPosition(int position);
    int animationPosition() const { return session_->animationPosition(); }
    QString animationCaption() const;  // one line for the timeline

    // ---- matrices ----
    void setMatrices(Matrix a, Matrix b, const QString& a_source = {}, const QString& b_source = {});
    void openMatrix(Operand which, const QString& path);  // on the worker; a bad file keeps what was open
    void generate(std::uint32_t a_rows, std::uint32_t a_cols, std::uint32_t b_rows, std::uint32_t b_cols, std::uint32_t seed);
    void applyPreset(int index);  // an index into lecture_matmul_presets()
    void saveResult(const QString& path);
    std::shared_ptr<const Matrix> matrixA() const { return session_->a(); }
    std::shared_ptr<const Matrix> matrixB() const { return session_->b(); }
    std::shared_ptr<const Matrix> matrixC() const { return session_->c(); }

    // ---- selection and inspection ----
    void selectElement(int row, int col);      // an output element of C
    void selectThread(Dim3 block, Dim3 thread);
    int selectedRow() const { return session_->selectedRow(); }
    int selectedCol() const { return session_->selectedCol(); }
    Dim3 selectedBlock() const { return session_->selectedBlock(); }
    QString inspectorText() const;

    // ---- state, for the main window and tests ----
    bool running() const { return session_->running(); }
    const MatmulResult& lastResult() const { return session_->lastResult(); }
    MatmulLaunch resultLaunch() const { return session_->resultLaunch(); }
    MatmulStep animationStep() const { return session_->step(); }
    // The counters the page shows for the current step: the phase model's closed forms for the
    // lecture's kernels, counted off the selected block's trace for the register-tiled ones.
    MatmulStepCounters animationCounters() const;
    // The selected element's thread (a linear id tx + ty*bx of the selected block), and its thread
    // and warp tiles of C as the matrix view draws them; nothing until the block's trace arrived for a
    // register-tiled kernel, or when no element is selected.
    std::optional<std::uint32_t> selectedThreadId() const { return thread_id_; }
    const MatmulThreadTiles& threadTiles() const { return thread_tiles_; }
    MatmulTraffic predictedTraffic() const { return session_->predictedTraffic(); }
    std::optional<MatmulTraffic> measuredTraffic() const { return session_->measuredTraffic(); }
    long long wrongCount() const { return session_->wrongCount(); }  // -1 unless the barrier-removed run was compared
    QString lastError() const { return last_error_; }
    // The memory trace of the shown launch: the Source and Memory docks and the step captions read it.
    MemoryTraceSession* traceSession() const { return trace_; }
    // The selected warp's requests that the current step makes (pointers into traceSession()->trace()).
    const std::vector<const MemoryRequest*>& stepRequests() const { return step_requests_; }
    MatrixHeatmap* heatmapA() const { return a_view_; }
    MatrixHeatmap* heatmapB() const { return b_view_; }
    MatrixHeatmap* heatmapC() const { return c_view_; }

    // ---- the tensor-core rungs (issue 29) ----
    // Whether the launch's variant runs on the tensor cores (matmul_tf32, matmul_3xtf32): only then is
    // the Fragments tab there, the warp tiles drawn on C and the shared layout in the memory view.
    bool tensorCores() const;
    FragmentView* fragmentView() const { return fragment_view_; }
    bool fragmentsTabShown() const;  // the tab is there (not necessarily in front)
    QTabWidget* viewTabs() const { return views_; }
    QString fragmentCaption() const;  // the line under the grids: the lane in view, the picked output
    void setWarpTilesShown(bool shown);  // the warp tiles on C (when the variant has them)
    bool warpTilesShown() const;
    // `cudaviz --show fragments` brings the Fragments tab to the front, `--show layout` the memory
    // view's shared layout.
    QStringList viewNames() const override;
    bool showView(const QString& name) override;

    // The overlay colours (alpha = fill opacity), for the legend and tests.
    static QColor selectionBandColor();  // the selected element's row of A and column of B
    static QColor sharedTileColor();     // the K-slice staged in shared memory (tiled) or being summed (naive)
    static QColor consumedColor();       // the K already accumulated
    static QColor warpTileColor();       // the outputs of C the selected thread's warp computes
    static QColor threadTileColor();     // the outputs of C the selected thread computes

signals:
    void statusMessage(const QString& message);
    void animationChanged();  // animationSteps() or animationUnit() changed
    void captionChanged(const QString& caption);
    void resultReady(const cvz::MatmulResult& result);

protected:
    void onBind(const PageDocks& docks) override;
    void onUnbind() override;

private:
    void say(const QString& text, bool error = false);  // the status line and statusMessage
    void showDocks();
    // The launch panel's choices, to the session (the barrier lesson carried over).
    void onLaunchChosen(const LaunchChoice& choice);
    // "Remove the second __syncthreads()", the page's own control in the launch panel while bound:
    // enabled for a variant with barriers.
    void buildLaunchExtras();
    void showBarrier();
    QWidget* buildControls();
    QWidget* buildMatrixPanel(MatrixHeatmap* view, QLabel* title);
    void linkAxes();
    void onOperandsChanged();
    void onPlanChanged();
    void onRunStarted();
    // The predicted GPU time of the current launch beside the measured or emulated one, in the launch
    // panel and the status line.
    void predict();
    void showTimes();
    void onRunFinished(const MatmulResult& result);
    void refreshAnimation();
    void traceLaunch();
    void showTracedStep();  // the selected thread's warp and the current step's requests
    void refreshThreadTiles(std::uint64_t block);  // thread_tiles_ of the block, when its trace is in hand
    QStringList threadTileLines() const;           // the inspector's lines on the thread's and warp's tiles
    void refreshTitles();
    void refreshInfo();
    void updateStretch();
    QWidget* buildFragmentsTab();
    void refreshTensorCores();    // the tab, C's warp tiles and the memory view's layout, for the launch
    void refreshFragmentSelection();  // the picked output's lane in the fragments, its warp's loads
    void refreshFragmentCaption();
    void refreshSharedLayout();
    void showError(const QString& text);
    QString matrixFolder() const;
    static void rememberMatrixFolder(const QString& path);
    void onOpen(Operand which);
    void onSave();

    MatmulSession* session_;
    MemoryTraceSession* trace_ = nullptr;
    PredictionSession* prediction_ = nullptr;
    QString run_summary_, run_status_;  // the last run's message, and the status line made of it
    TraceDocks* trace_docks_ = nullptr;
    QPointer<QWidget> launch_extras_;  // a child of the page, in the launch panel while bound
    QCheckBox* barrier_box_ = nullptr;
    std::vector<const MemoryRequest*> step_requests_;
    MatmulThreadTiles thread_tiles_;          // of the selected block, read off its trace
    std::shared_ptr<const MemoryTrace> tiles_trace_;  // the trace thread_tiles_ was read from
    std::optional<std::uint32_t> thread_id_;  // the selected element's thread, when known
    QSettings* settings_ = nullptr;
    QString last_error_;
    int announced_steps_ = -1;  // what animationChanged() last announced
    QString announced_unit_;

    MatrixHeatmap* a_view_ = nullptr;
    MatrixHeatmap* b_view_ = nullptr;
    MatrixHeatmap* c_view_ = nullptr;
    ElidedLabel* a_title_ = nullptr;
    ElidedLabel* b_title_ = nullptr;
    ElidedLabel* c_title_ = nullptr;
    QLabel* step_label_ = nullptr;     // the step's caption and what the threads do in it
    QLabel* counters_label_ = nullptr;  // loads and stores so far, block and thread
    QLabel* totals_label_ = nullptr;    // the whole kernel, predicted and counted; wrong outputs
    QSpinBox* a_rows_ = nullptr;
    QSpinBox* a_cols_ = nullptr;
    QSpinBox* b_rows_ = nullptr;
    QSpinBox* b_cols_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* presets_ = nullptr;
    QComboBox* cells_ = nullptr;
    QGridLayout* grid_ = nullptr;
    QTabWidget* views_ = nullptr;
    QWidget* fragments_tab_ = nullptr;
    FragmentView* fragment_view_ = nullptr;
    QLabel* fragment_caption_ = nullptr;
    QCheckBox* warp_tiles_box_ = nullptr;
    // What the memory view's shared layout was made for (variant, warp), to make it once per change.
    int layout_variant_ = -1, layout_warp_ = -1;
};

}  // namespace cvz
