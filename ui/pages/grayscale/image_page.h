#pragma once
#include <QImage>
#include <QPoint>
#include <QPointer>
#include <QString>

#include "app/family/launch_choice.h"
#include "app/grayscale/grayscale_session.h"
#include "ui/pages/picture_pair_page.h"

class QComboBox;
class QLabel;
class QSettings;
class QSplitter;
class QVBoxLayout;

namespace cvz {

class PredictionSession;

class JobRunner;
class MemoryTraceSession;
class TraceDocks;

// The image tab, a view of a GrayscaleSession (app/grayscale): the original photo and the kernel's
// output side by side, in step (one ViewTransform), with the launch grid drawn over both (which
// block, thread and warp made each pixel, the idle threads) and its legend beneath. Hovering shows
// a pixel's thread in the inspector, a click keeps it. With a CUDA device and NVIDIA GL the output
// view's texture is written by the kernel through CUDA–GL interop; otherwise it shows the worker's
// result. Draws with OpenGL, or with the raster fallback where GL fails (PicturePairPage).
class ImagePage : public PicturePairPage {
    Q_OBJECT
public:
    ImagePage(JobRunner* jobs, const DisplayPathChoice& display, QWidget* parent = nullptr);
    ~ImagePage() override;  // deletes its launch controls, wherever they are

    GrayscaleSession* session() const { return session_; }

    // ---- KernelPage ----
    QString title() const override;
    bool resultShown() const override;
    PageDocks::Docks docksUsed() const override;
    QString documentText() const override;
    QString documentToolTip() const override;
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
    // Frames the pinned block (else the one under the mouse) so its cells are readable; Warp: the
    // pinned (else hovered) pixel's warp. False when there is none.
    bool zoomToBlock() override;
    bool zoomToWarp() override;
    void restoreSettings(QSettings* settings) override;
    void saveSettings(QSettings* settings) const override;
    bool opensImages() const override { return true; }

    // ---- guided lessons ----
    // A sample's file name, or "WxH": a generated picture of that size (a colour ramp).
    QString setLessonInput(const QString& spec) override;
    QString setOption(const QString& name, const QString& value) override;  // "layout"
    QString option(const QString& name) const override;
    QString pickedThread() const override;  // the pinned pixel's thread

    // ---- File > Save Result As, File > Export, scripts/screenshots ----
    QString documentFile() const override;
    QString resultFileName() const override;
    QString resultFileFilter() const override;
    QString resultDescription() const override;
    std::function<QString()> resultWriter(const QString& path, QString* error) const override;
    std::optional<RunTiming> lastRunTiming() const override;
    void tour(ScreenshotTour& tour) override;

    // ---- the document and the views ----
    void openFile(const QString& path) override;  // on the worker; a bad file keeps what was open (the sample if nothing was)
    static QString sampleFile();         // ":/samples/chelsea.png"
    QString currentFile() const { return session_->file(); }
    QImage originalImage() const { return session_->image(); }
    QImage resultImage() const { return session_->result(); }
    ImageSurface* originalView() const { return inputView(); }
    ImageSurface* resultView() const { return outputView(); }
    QString displayText() const override { return display_text_; }
    QString displayToolTip() const override { return display_tooltip_; }
    QLabel* resultCaption() const { return outputCaption(); }
    // The memory trace of the shown launch (the Source and Memory docks show it).
    MemoryTraceSession* traceSession() const { return trace_; }

    // The mouse over image pixel `pixel` (pin false), or a click on it (pin true): a click pins the
    // inspector to the pixel (a second click on the pinned pixel lets go); hovering outlines the
    // block under the mouse lightly and moves the inspector only while nothing is pinned.
    void inspectPixel(QPoint pixel, bool pin) override;
    void clearSelection();  // Esc

protected:
    void onBind(const PageDocks& docks) override;
    void onUnbind() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

    // ---- PicturePairPage ----
    QSize pictureSize() const override { return session_->imageSize(); }
    QImage inputImage() const override { return session_->image(); }
    QImage outputImage() const override { return session_->result(); }
    void pushOverlay() override;
    void refreshInspector() override;
    void viewInstalled(int index, ImageSurface* view) override;
    void viewsInstalled() override;
    void describeAnimation(AnimationExportRequest* request) const override;

private:
    void chooseSplitterOrientation();
    void setDisplayText(const QString& text, const QString& tooltip);
    void bindFrameSink();
    std::int64_t hoveredBlock() const;  // -1: the mouse is not over the grid
    void onImageChanged();
    void onRunFinished(const GrayscaleResult& result);
    // The launch panel's choices, to the session (a layout the variant does not read gives way first).
    void onLaunchChosen(const LaunchChoice& choice);
    // The pixel layout, the page's own control in the launch panel (setExtraControls while bound).
    void buildLaunchExtras();
    void showLayout();  // the session's layout, and only the layouts the variant reads enabled
    // Filling the bound docks.
    void showShape();
    void showPlan();
    void showFrame();
    // The Source and Memory docks: the launch traced, and the warp picked (the animation's, else the
    // clicked pixel's) with the requests its thread takes part in.
    void traceLaunch();
    void showTracedWarp();
    // The predicted GPU time of the current launch (asked on every change) beside the measured or
    // emulated one, in the launch panel and the status line.
    void predict();
    void showTimes();

    GrayscaleSession* session_;
    MemoryTraceSession* trace_ = nullptr;
    PredictionSession* prediction_ = nullptr;
    QString run_summary_, run_status_;  // the last run's summary, and the status line made of it
    TraceDocks* trace_docks_ = nullptr;
    QPointer<QWidget> launch_extras_;  // a child of the page, in the launch panel while bound
    QComboBox* layout_box_ = nullptr;
    QSettings* settings_ = nullptr;
    QString display_text_, display_tooltip_;
};

}  // namespace cvz
