#pragma once
#include <QImage>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <memory>

#include "display_path.h"

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QSplitter;
class QVBoxLayout;

namespace cvz {

class ImageSurface;
class JobRunner;
class LaunchShapeBox;
class RecentFiles;
class ViewTransform;
struct GrayscaleResult;
struct LoadedImage;

// The original photo and the grayscale kernel's output side by side, in step. Loading and every
// kernel run go to one worker (JobRunner); results come back to the GUI thread and the window never
// waits for them. Errors are shown and leave what was open as it was.
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

public slots:
    void openDialog();
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomToActualSize();

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
    void installViews();
    void switchToRaster(const QString& reason);
    void restoreSettings();
    void saveRunSettings() const;

    void onLoaded(const QString& path, quint64 serial, const LoadedImage& loaded);
    void onRunFinished(quint64 serial, quint64 image_serial, const GrayscaleResult& result, const QImage& gray);
    void showError(const QString& text);
    void setStatus(const QString& text, bool error = false);
    void updateImageLabel();
    void updateZoomLabel();

    DisplayPathChoice display_;
    std::unique_ptr<JobRunner> jobs_;
    ViewTransform* transform_ = nullptr;
    ImageSurface* views_[2] = {nullptr, nullptr};
    QVBoxLayout* panel_layouts_[2] = {nullptr, nullptr};
    QSplitter* splitter_ = nullptr;

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
