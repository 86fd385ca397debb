#pragma once
#include <QImage>
#include <QPoint>
#include <QPointer>
#include <QString>

#include "app/family/launch_choice.h"
#include "app/grayscale/grayscale_session.h"
#include "ui/pages/kernel_page.h"
#include "ui/views/display_path.h"
#include "ui/views/overlay_state.h"

class QComboBox;
class QLabel;
class QSettings;
class QSplitter;
class QVBoxLayout;

namespace cvz {

class PredictionSession;

class ImageSurface;
class JobRunner;
class MemoryTraceSession;
class TraceDocks;
class OverlayLegend;
class ViewTransform;

// The image tab, a view of a GrayscaleSession (app/grayscale): the original photo and the kernel's
// output side by side, in step (one ViewTransform), with the launch grid drawn over both (which
// block, thread and warp made each pixel, the idle threads) and its legend beneath. Hovering shows
// a pixel's thread in the inspector, a click keeps it. With a CUDA device and NVIDIA GL the output
// view's texture is written by the kernel through CUDA–GL interop; otherwise it shows the worker's
// result. Draws with OpenGL, or with the raster fallback where GL fails.
class ImagePage : public KernelPage {
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
    LaunchChoice shownChoice() const;
    void chooseInSweep(SweepDialog* sweep) const override;
    void connectSweep(SweepDialog* sweep) override;
    void offerToLadder(LadderDialog* ladder) const override;
    void chooseInLadder(LadderDialog* ladder) const override;
    void connectLadder(LadderDialog* ladder) override;
    bool canZoom() const override { return true; }
    void zoomIn() override;
    void zoomOut() override;
    void zoomToFit() override;
    void zoomToActualSize() override;
    // Frames the pinned block (else the one under the mouse) so its cells are readable; Warp: the
    // pinned (else hovered) pixel's warp. False when there is none.
    bool zoomToBlock() override;
    bool zoomToWarp() override;
    void restoreSettings(QSettings* settings) override;
    void saveSettings(QSettings* settings) const override;
    bool opensImages() const override { return true; }

    // ---- the document and the views ----
    void openFile(const QString& path) override;  // on the worker; a bad file keeps what was open (the sample if nothing was)
    static QString sampleFile();         // ":/samples/chelsea.png"
    QString currentFile() const { return session_->file(); }
    QImage originalImage() const { return session_->image(); }
    QImage resultImage() const { return session_->result(); }
    ImageSurface* originalView() const { return views_[0]; }
    ImageSurface* resultView() const { return views_[1]; }
    ViewTransform* viewTransform() const { return transform_; }
    DisplayPath displayPath() const { return display_.path; }
    QString displayText() const override { return display_text_; }
    QString displayToolTip() const override { return display_tooltip_; }
    OverlayLegend* legend() const { return legend_; }
    const OverlayState& overlayState() const { return overlay_; }
    QSplitter* splitter() const { return splitter_; }
    QLabel* resultCaption() const { return result_caption_; }
    // The memory trace of the shown launch (the Source and Memory docks show it).
    MemoryTraceSession* traceSession() const { return trace_; }

    // The mouse over image pixel `pixel` (pin false), or a click on it (pin true): a click pins the
    // inspector to the pixel (a second click on the pinned pixel lets go); hovering outlines the
    // block under the mouse lightly and moves the inspector only while nothing is pinned.
    void inspectPixel(QPoint pixel, bool pin);
    void clearSelection();  // Esc

protected:
    void onBind(const PageDocks& docks) override;
    void onUnbind() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void installViews();
    void connectView(ImageSurface* view);
    void switchToRaster(const QString& reason);
    void chooseSplitterOrientation();
    void setDisplayText(const QString& text, const QString& tooltip);
    void bindFrameSink();
    void pushOverlay();
    void refreshInspector();
    std::int64_t hoveredBlock() const;  // -1: the mouse is not over the grid
    void frame(const QRect& image_rect);
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
    DisplayPathChoice display_;
    QString display_text_, display_tooltip_;
    ViewTransform* transform_ = nullptr;
    ImageSurface* views_[2] = {nullptr, nullptr};
    QVBoxLayout* panel_layouts_[2] = {nullptr, nullptr};
    QSplitter* splitter_ = nullptr;
    QLabel* result_caption_ = nullptr;
    OverlayLegend* legend_ = nullptr;
    OverlayState overlay_;
    QPoint hovered_pixel_{-1, -1};  // (-1, -1): the mouse is not over a view
};

}  // namespace cvz
