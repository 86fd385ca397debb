#pragma once
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "app/backend_choice.h"
#include "app/matmul_phase_model.h"
#include "app/matmul_runner.h"
#include "app/matmul_traffic.h"
#include "app/matrix.h"
#include "kernels/matmul/matmul_launch.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace cvz {

class JobRunner;
class MatrixHeatmap;

// The matrices tab: B top-right, A bottom-left, C bottom-right, so A's rows line up with C's rows and
// B's columns with C's columns, as in the classic diagram (the row and column axes of the views are
// linked). Opens, generates and saves matrices; runs the launch the main window sets on the worker
// (a newer request supersedes an older one, and a stale result is dropped); inspects the thread of
// a clicked output element against a float64 reference; animates the selected block's phases (tiled)
// or dot-product chunks (naive) with the loads counted so far; and, with the second barrier removed,
// marks the outputs that came out wrong. The main window owns the launch panel and the timeline.
class MatmulPage : public QWidget {
    Q_OBJECT
public:
    enum class Operand { A, B };

    explicit MatmulPage(JobRunner* runner, QWidget* parent = nullptr);

    // ---- driven by the main window ----
    void setLaunch(const MatmulLaunch& launch);  // re-runs when it differs from the current one
    void setBackend(BackendChoice backend);
    MatmulLaunch launch() const { return launch_; }

    int animationSteps() const;       // positions run from 0 to animationSteps(); the last is "done"
    QString animationUnit() const;    // "step" (tiled: three per phase) or "chunk" (naive)
    void setAnimationPosition(int position);
    int animationPosition() const { return position_; }
    QString animationCaption() const;  // one line for the timeline

    // ---- matrices ----
    void setMatrices(Matrix a, Matrix b, const QString& a_source = {}, const QString& b_source = {});
    void openMatrix(Operand which, const QString& path);  // on the worker; a bad file keeps what was open
    void generate(std::uint32_t a_rows, std::uint32_t a_cols, std::uint32_t b_rows, std::uint32_t b_cols, std::uint32_t seed);
    void applyPreset(int index);  // an index into lecture_matmul_presets()
    void saveResult(const QString& path);
    std::shared_ptr<const Matrix> matrixA() const { return a_; }
    std::shared_ptr<const Matrix> matrixB() const { return b_; }
    std::shared_ptr<const Matrix> matrixC() const { return c_; }

    // ---- selection and inspection ----
    void selectElement(int row, int col);      // an output element of C
    void selectThread(Dim3 block, Dim3 thread);
    int selectedRow() const { return sel_row_; }
    int selectedCol() const { return sel_col_; }
    Dim3 selectedBlock() const { return sel_block_; }
    QString inspectorText() const;

    // ---- state, for the main window and tests ----
    bool running() const { return running_; }
    const MatmulResult& lastResult() const { return result_; }
    MatmulLaunch resultLaunch() const { return result_launch_; }
    MatmulStep animationStep() const { return step_; }
    MatmulStepCounters animationCounters() const { return step_.counters; }
    MatmulTraffic predictedTraffic() const;
    std::optional<MatmulTraffic> measuredTraffic() const { return measured_; }
    long long wrongCount() const { return wrong_count_; }  // -1 unless the barrier-removed run was compared
    QString lastError() const { return last_error_; }
    MatrixHeatmap* heatmapA() const { return a_view_; }
    MatrixHeatmap* heatmapB() const { return b_view_; }
    MatrixHeatmap* heatmapC() const { return c_view_; }

    // The overlay colours (alpha = fill opacity), for the legend and tests.
    static QColor selectionBandColor();  // the selected element's row of A and column of B
    static QColor sharedTileColor();     // the K-slice staged in shared memory (tiled) or being summed (naive)
    static QColor consumedColor();       // the K already accumulated

signals:
    void statusMessage(const QString& message);
    void animationChanged();  // animationSteps() or animationUnit() changed
    void captionChanged(const QString& caption);
    void resultReady(const cvz::MatmulResult& result);

private:
    struct RunOutcome;
    static std::shared_ptr<RunOutcome> runOnWorker(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b,
                                                   MatmulLaunch launch, BackendChoice backend);

    QWidget* buildControls();
    QWidget* buildMatrixPanel(MatrixHeatmap* view, QLabel* title);
    void linkAxes();
    void setOperands(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b);
    void startRun();
    void finishRun(std::uint64_t serial, const std::shared_ptr<RunOutcome>& outcome);
    void rebuildModel();
    void refreshAnimation();
    void refreshTitles();
    void refreshInfo();
    void updateStretch();
    void showError(const QString& text);
    void onOpen(Operand which);
    void onSave();
    Dim3 selectedThread() const;
    bool shapesMatch() const;

    JobRunner* runner_;
    MatmulLaunch launch_;
    BackendChoice backend_ = BackendChoice::Auto;

    std::shared_ptr<const Matrix> a_, b_, c_;
    std::shared_ptr<const Matrix> c_normal_;  // the run with both barriers, when the second was removed
    std::shared_ptr<const std::vector<std::uint8_t>> wrong_;
    long long wrong_count_ = -1;
    QString a_source_, b_source_;
    MatmulResult result_;
    MatmulLaunch result_launch_;
    std::optional<MatmulTraffic> measured_;
    std::uint64_t run_serial_ = 0;
    bool running_ = false;
    QString last_error_;

    MatmulPhaseModel model_;
    MatmulStep step_;
    int position_ = 0;
    int announced_steps_ = -1;  // what animationChanged() last announced
    QString announced_unit_;
    int sel_row_ = -1;
    int sel_col_ = -1;
    Dim3 sel_block_{0, 0, 0};

    MatrixHeatmap* a_view_ = nullptr;
    MatrixHeatmap* b_view_ = nullptr;
    MatrixHeatmap* c_view_ = nullptr;
    QLabel* a_title_ = nullptr;
    QLabel* b_title_ = nullptr;
    QLabel* c_title_ = nullptr;
    QLabel* step_label_ = nullptr;     // the step's caption and what the threads do in it
    QLabel* counters_label_ = nullptr;  // loads and stores so far, block and thread
    QLabel* totals_label_ = nullptr;    // the whole kernel, predicted and counted; wrong outputs
    QLabel* inspector_ = nullptr;
    QSpinBox* a_rows_ = nullptr;
    QSpinBox* a_cols_ = nullptr;
    QSpinBox* b_rows_ = nullptr;
    QSpinBox* b_cols_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* presets_ = nullptr;
    QComboBox* cells_ = nullptr;
    QGridLayout* grid_ = nullptr;
};

}  // namespace cvz
