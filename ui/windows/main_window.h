#pragma once
#include <QImage>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <memory>

#include "ui/views/display_path.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/matmul/matmul_launch.h"
#include "ui/views/overlay_state.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSettings;
class QSplitter;
class QTabWidget;
class QVBoxLayout;

namespace cvz {

class ImageSurface;
class InspectorPanel;
class JobRunner;
class LaunchPanel;
class LaunchSession;
class LaunchShapeBox;
class MatmulPage;
class OccupancyPanel;
class OverlayLegend;
class OverlayPanel;
class RecentFiles;
class SmPanel;
class SweepDialog;
class TimelineBar;
class ViewTransform;
struct GrayscaleResult;
struct LoadedImage;

// The original photo and the grayscale kernel's output side by side, in step, with the launch grid
// drawn over both (which block, thread and warp made each pixel, the idle threads), and docks for
// the launch shape, the overlay, occupancy, the SMs, the inspector and the execution timeline.
// Loading and every kernel run go to one worker (JobRunner); results come back to the GUI thread
// and the window never waits for them; the overlay needs only the shape, so it follows a slider at
// once. Errors are shown and leave what was open as it was.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Opens `file`, or the bundled sample photo when `file` is empty (or fails to open).
    explicit MainWindow(const DisplayPathChoice& display, const QString& file = QString(),
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    static QString sampleFile();  // ":/samples/chelsea.png"
    static QString imageFileFilter();  // "Images (*.bmp *.jpg ...);;All files (*)"

    // Loads on the worker; on success replaces the image and runs the kernel, on failure shows why.
    void openFile(const QString& path);
    // Queues a kernel run with the toolbar's settings; supersedes a queued, not yet started run.
    void requestRun();

    QString currentFile() const { return current_file_; }
    QImage originalImage() const { return original_; }
    QImage resultImage() const { return result_; }
    ImageSurface* originalView() const { return views_[0]; }
    ImageSurface* resultView() const { return views_[1]; }
    ViewTransform* viewTransform() const { return transform_; }
    DisplayPath displayPath() const { return display_.path; }
    JobRunner* jobs() const { return jobs_.get(); }
    QString statusText() const;
    QMessageBox* errorBox() const { return error_box_; }
    int completedRuns() const { return completed_runs_; }  // results shown so far

    // The launch (shape, plan, waves, animation, selection) and the docks, for tests and scripts.
    LaunchSession* session() const { return session_; }
    LaunchPanel* launchPanel() const { return launch_panel_; }
    OverlayPanel* overlayPanel() const { return overlay_panel_; }
    OverlayLegend* legend() const { return legend_; }
    OccupancyPanel* occupancyPanel() const { return occupancy_panel_; }
    SmPanel* smPanel() const { return sm_panel_; }
    TimelineBar* timeline() const { return timeline_; }
    InspectorPanel* inspector() const { return inspector_; }
    QComboBox* animationModeBox() const { return animation_box_; }
    QAction* overlayAction() const { return overlay_action_; }
    QAction* playAction() const { return play_action_; }
    const OverlayState& overlayState() const { return overlay_; }
    // The Matrices tab (matmul) shares the launch panel, occupancy and timeline with the image.
    QTabWidget* tabs() const { return tabs_; }
    MatmulPage* matmulPage() const { return matmul_page_; }
    bool matricesShown() const;
    // The block-size sweep for the current tab's kernel (Run > Block-Size Sweep, Ctrl+B).
    void openSweep();
    SweepDialog* sweepDialog() const { return sweep_; }

    // Shows what the thread of image pixel `pixel` does in the inspector; `pin` also selects it
    // (outlined on the views; the block the Warps animation steps through), as a click does.
    void inspectPixel(QPoint pixel, bool pin);

public slots:
    void openDialog();
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomToActualSize();
    void togglePlay();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createActions();
    void createToolBar();
    void createCentralWidget();
    void createStatusBar();
    void createDocks();
    QDockWidget* addDock(QWidget* content, const QString& title, const QString& name, Qt::DockWidgetArea area);
    void installViews();
    void connectView(ImageSurface* view);
    void chooseSplitterOrientation();
    void switchToRaster(const QString& reason);
    void restoreSettings();
    void saveRunSettings() const;

    void onLoaded(const QString& path, quint64 serial, const LoadedImage& loaded);
    void onRunFinished(quint64 serial, quint64 image_serial, const GrayscaleResult& result, const QImage& gray);
    void showError(const QString& text);
    void setStatus(const QString& text, bool error = false);
    void updateImageLabel();
    void updateZoomLabel();
    void onShapeChanged();
    void onPlanChanged();
    void onFrameChanged();
    void pushOverlay();
    void onTabChanged();
    void feedInterop();
    void onMatmulLaunchChanged(const MatmulLaunch& launch);
    void refreshMatmulTimeline();
    void refreshInspector();
    PixelLayout pixelLayout() const;

    DisplayPathChoice display_;
    std::unique_ptr<JobRunner> jobs_;
    ViewTransform* transform_ = nullptr;
    ImageSurface* views_[2] = {nullptr, nullptr};
    QVBoxLayout* panel_layouts_[2] = {nullptr, nullptr};
    QSplitter* splitter_ = nullptr;
    QWidget* image_page_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    MatmulPage* matmul_page_ = nullptr;
    SweepDialog* sweep_ = nullptr;
    QString image_status_, matmul_status_;  // each tab's last status line

    QComboBox* layout_box_ = nullptr;
    LaunchShapeBox* shape_box_ = nullptr;
    QComboBox* backend_box_ = nullptr;
    RecentFiles* recent_ = nullptr;

    QLabel* status_label_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QLabel* image_label_ = nullptr;
    QLabel* zoom_label_ = nullptr;
    QLabel* display_label_ = nullptr;
    QPointer<QMessageBox> error_box_;

    LaunchSession* session_ = nullptr;
    OverlayState overlay_;
    LaunchPanel* launch_panel_ = nullptr;
    OverlayPanel* overlay_panel_ = nullptr;
    OverlayLegend* legend_ = nullptr;
    OccupancyPanel* occupancy_panel_ = nullptr;
    SmPanel* sm_panel_ = nullptr;
    QLabel* sm_caption_ = nullptr;
    TimelineBar* timeline_ = nullptr;
    QComboBox* animation_box_ = nullptr;
    InspectorPanel* inspector_ = nullptr;
    QDockWidget* occupancy_dock_ = nullptr;
    QAction* overlay_action_ = nullptr;
    QAction* play_action_ = nullptr;
    QMenu* view_menu_ = nullptr;
    QSettings* settings_ = nullptr;  // run and overlay choices, written as they change
    QPoint hovered_pixel_{-1, -1};  // (-1, -1): the mouse is not over a view

    QString current_file_;
    QImage original_;
    QImage result_;
    quint64 load_serial_ = 0;   // the latest open request
    quint64 image_serial_ = 0;  // bumped whenever a new image is shown
    quint64 run_serial_ = 0;    // the latest run request
    quint64 shown_serial_ = 0;  // the run whose result is on screen
    int completed_runs_ = 0;
};

}  // namespace cvz
