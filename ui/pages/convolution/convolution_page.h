#pragma once
#include <QImage>
#include <QPoint>
#include <QString>

#include <memory>

#include "ui/pages/picture_pair_page.h"

class QComboBox;
class QLabel;
class QSettings;
class QSplitter;
class QVBoxLayout;

namespace cvz {

class ConvolutionSession;
class JobRunner;
class FamilyProblem;
class MemoryTraceSession;
class PredictionSession;
class TileOverlay;
class TraceDocks;
struct ConvolutionResult;

// The convolution tab (PMPP chapter 7), a view of a ConvolutionSession (app/convolution): the photo's
// grayscale (the kernels' input) and the convolved output side by side, in step, with the launch
// grid over both. Over the views: the picked block's output tile and the input tile it reads (the
// output tile grown by the mask's radius: the halo), and the picked pixel's mask window with its
// reads outside the image (ghost cells, read as 0). The inspector lists the window's reads and the
// sum the thread computed. The mask is chosen beside the kernel in the launch panel.
class ConvolutionPage : public PicturePairPage {
    Q_OBJECT
public:
    ConvolutionPage(JobRunner* jobs, const DisplayPathChoice& display, QWidget* parent = nullptr);
    ~ConvolutionPage() override;  // deletes the mask chooser wherever it is (lent to the launch panel or not)

    ConvolutionSession* session() const { return session_; }

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
    std::function<ScheduleRun()> scheduleJob() const override;
    LaunchChoice shownChoice() const;
    void chooseInSweep(SweepDialog* sweep) const override;
    void connectSweep(SweepDialog* sweep) override;
    void offerToLadder(LadderDialog* ladder) const override;
    void chooseInLadder(LadderDialog* ladder) const override;
    void connectLadder(LadderDialog* ladder) override;
    void restoreSettings(QSettings* settings) override;

    // ---- File > Save Result As, File > Export, scripts/screenshots ----
    QString documentFile() const override;
    QString resultFileName() const override;
    QString resultFileFilter() const override;
    QString resultDescription() const override;
    std::function<QString()> resultWriter(const QString& path, QString* error) const override;
    std::optional<RunTiming> lastRunTiming() const override;
    void tour(ScreenshotTour& tour) override;

    bool opensImages() const override { return true; }
    void openFile(const QString& path) override;  // on the worker; a bad file keeps what was open
    TileOverlay* tileOverlay(int view) const { return tiles_[view]; }
    QComboBox* maskBox() const { return mask_box_; }
    MemoryTraceSession* traceSession() const { return trace_; }

    // The mouse over image pixel `pixel` (pin false) or a click on it (pin true), as on the image page.
    void inspectPixel(QPoint pixel, bool pin) override;
    // The inspector's text for `pixel` (its thread, the window's reads, the sum), for tests too.
    QString inspection(QPoint pixel) const;

protected:
    void onBind(const PageDocks& docks) override;
    void onUnbind() override;

    // ---- PicturePairPage ----
    QSize pictureSize() const override;
    QImage inputImage() const override;
    QImage outputImage() const override;
    void pushOverlay() override;
    void refreshInspector() override;
    void viewInstalled(int index, ImageSurface* view) override;
    void viewsInstalled() override;
    void describeAnimation(AnimationExportRequest* request) const override;

private:
    void buildMaskBox();
    void openMaskFile();
    void onImageChanged();
    void onRunFinished(const ConvolutionResult& result);
    void pushTiles();
    void showLaunch();
    void showPlan();
    void showFrame();
    void traceLaunch();
    void predict();
    void showTimes();
    std::shared_ptr<const FamilyProblem> problem(bool with_pixels) const;
    void showTracedWarp();
    std::int64_t hoveredBlock() const;
    QPoint inspectedPixel() const;  // the pinned pixel, else the hovered one; (-1, -1): none

    ConvolutionSession* session_;
    MemoryTraceSession* trace_ = nullptr;
    TraceDocks* trace_docks_ = nullptr;
    QSettings* settings_ = nullptr;
    TileOverlay* tiles_[2] = {nullptr, nullptr};
    QWidget* extras_ = nullptr;  // the mask chooser, shown in the launch panel while bound
    QComboBox* mask_box_ = nullptr;
    PredictionSession* prediction_ = nullptr;
    QString run_summary_, run_status_;
};

}  // namespace cvz
