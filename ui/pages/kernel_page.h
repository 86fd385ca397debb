#pragma once
#include <QFlags>
#include <QList>
#include <QMetaObject>
#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

#include "app/io/result_tables.h"
#include "app/jobs/backend_choice.h"
#include "app/family/launch_choice.h"
#include "app/models/device_profile.h"
#include "app/trace/schedule_recorder.h"
#include "kernels/user/user_call.h"

class QComboBox;
class QLabel;
class QSettings;

namespace cvz {

class InspectorPanel;
class LaunchPanel;
class MemoryView;
class OccupancyPanel;
class OverlayPanel;
class SmPanel;
class SourceView;
class LadderDialog;
class SweepDialog;
class TimelineBar;
class ScreenshotTour;
struct AnimationExportRequest;

// The window's docks that the current page fills: the window creates them once and hands them to
// whichever page is in front (KernelPage::bind); it never asks which page that is.
struct PageDocks {
    enum Dock {
        Launch = 1 << 0,
        Overlay = 1 << 1,
        Inspector = 1 << 2,
        Occupancy = 1 << 3,
        Sms = 1 << 4,
        Timeline = 1 << 5,
        Source = 1 << 6,
        Memory = 1 << 7,
    };
    Q_DECLARE_FLAGS(Docks, Dock)

    LaunchPanel* launch = nullptr;
    OverlayPanel* overlay = nullptr;
    InspectorPanel* inspector = nullptr;
    OccupancyPanel* occupancy = nullptr;
    SmPanel* sms = nullptr;
    QLabel* sm_caption = nullptr;
    TimelineBar* timeline = nullptr;
    QComboBox* animation_mode = nullptr;  // the timeline's choice of animation, for families that have several
    SourceView* source = nullptr;  // the kernel's source with per-line memory figures
    MemoryView* memory = nullptr;  // the picked warp's requests over the memory they touch
};
Q_DECLARE_OPERATORS_FOR_FLAGS(PageDocks::Docks)

// One kernel family's page (a tab of the window) behind one interface: it shows its session's
// document in the central area and, while it is the current page, drives the shared docks — the
// launch panel edits its launch, the inspector shows its selection, occupancy and the SMs its
// blocks, the timeline its animation — and speaks in the status bar. A new family adds a page (and
// a session in app/) and nothing in the window.
class KernelPage : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString title() const = 0;                // the tab's text
    // The page's result is on screen: a run has finished and none is pending (a screenshot waits for it).
    virtual bool resultShown() const = 0;
    // The name `cudaviz --page NAME` knows the page by: its object name less "Page" ("image", "matmul").
    QString pageName() const;
    virtual PageDocks::Docks docksUsed() const = 0;   // the others are hidden while the page is current

    // Binds the docks to this page until unbind(): fills them from the session now, follows the
    // session's changes, and routes the docks' edits to the session.
    void bind(const PageDocks& docks);
    void unbind();
    bool isBound() const { return bound_; }

    // The status line: the page's last message (its run's summary, or what went wrong).
    QString statusText() const { return status_; }
    bool statusIsError() const { return status_error_; }
    // What the status bar's permanent label shows about the document ("chelsea.png  451×300").
    virtual QString documentText() const = 0;
    virtual QString documentToolTip() const { return {}; }

    // Every page runs on the backend and models the device the window's controls choose.
    virtual void setBackend(BackendChoice backend) = 0;
    virtual void setDevice(const DeviceProfile& device) = 0;
    virtual void runAgain() = 0;     // the same launch again, to re-time it
    virtual void togglePlay() = 0;   // Space: play or pause the page's animation

    // The block-size sweep: every page gives the dialog its document (so the sweep can switch
    // between kernels), the current page also picks the kernel and receives the chosen launch.
    virtual void offerToSweep(SweepDialog* sweep) const = 0;
    virtual void chooseInSweep(SweepDialog* sweep) const = 0;
    virtual void connectSweep(SweepDialog* sweep) = 0;
    // The optimisation ladder, the same way: every page offers its document, the current one picks
    // the family, and a chosen variant's launch comes back to the page.
    virtual void offerToLadder(LadderDialog* ladder) const = 0;
    virtual void chooseInLadder(LadderDialog* ladder) const = 0;
    virtual void connectLadder(LadderDialog* ladder) = 0;
    // The page's input as the problem a user's kernel runs on (issue 27: the kernel editor's Compile and
    // Run), a copy the worker may keep; null while the page has no input.
    virtual std::unique_ptr<user::FamilyCall> userKernelCall() const { return nullptr; }
    // Selects output element `index` (row-major, as the family's output buffer) as a click on it would,
    // so that it is marked on the output and the inspector names its thread; false when out of range.
    virtual bool showOutputElement(std::uint64_t index) { Q_UNUSED(index); return false; }
    // Run ▸ Record Schedule: a job (run on a worker) that launches the page's current launch once more,
    // the chosen variant or your kernel, recording which SM ran each block and when; empty while the
    // page has no input to run.
    virtual std::function<ScheduleRun()> scheduleJob() const { return {}; }

    // Zooming the document (View menu, toolbar): pages without a zoomable view ignore it.
    virtual bool canZoom() const { return false; }
    virtual void zoomIn() {}
    virtual void zoomOut() {}
    virtual void zoomToFit() {}
    virtual void zoomToActualSize() {}

    // The page's choices (launch, layout, ...), read once at startup and written as they change;
    // saveSettings writes what is kept only when the window closes (a splitter's position).
    virtual void restoreSettings(QSettings* settings) = 0;
    virtual void saveSettings(QSettings* settings) const { Q_UNUSED(settings); }

    // Pages whose document is an image file take File > Open, dropped files and recent files.
    virtual bool opensImages() const { return false; }
    virtual void openFile(const QString& path) { Q_UNUSED(path); }
    // View > Zoom to Block / Warp: frame the picked block or warp; false when there is none.
    virtual bool zoomToBlock() { return false; }
    virtual bool zoomToWarp() { return false; }
    // How the page's output reaches the screen ("Display: OpenGL · ..."), for the status bar; empty
    // when the page says nothing about it.
    virtual QString displayText() const { return {}; }
    virtual QString displayToolTip() const { return {}; }

    // ---- File > Save Result As and File > Export (ExportActions asks the page in front) ----
    // The document's file (exports are named and placed after it); empty when it has none.
    virtual QString documentFile() const { return {}; }
    // The save dialog for the result: a name to offer (after the document's) and the filter, the first
    // type being the default. An empty filter: the page has nothing to save.
    virtual QString resultFileName() const { return {}; }
    virtual QString resultFileFilter() const { return {}; }
    virtual QString resultDescription() const { return tr("the result"); }  // for the status line
    // A write of the result to `path` for the worker (it holds its own copy of the result: the page
    // may change meanwhile), returning an error sentence or empty; null with *error set when there is
    // nothing to write or `path` names a format the page does not write.
    virtual std::function<QString()> resultWriter(const QString& path, QString* error) const;
    // The last run as File > Export > Timings lists it; none before the first run.
    virtual std::optional<RunTiming> lastRunTiming() const { return std::nullopt; }
    // The output view as drawn, for the View and Animation exports: the overlay, the images, the
    // view's size and transform, the execution animation and a title. False when the page has no such
    // view (the request is then unchanged).
    virtual bool viewExport(AnimationExportRequest* request) const {
        Q_UNUSED(request);
        return false;
    }

    // ---- guided lessons (issue 28): a step sets the page's input and options, and reads its answer ----
    // The input a lesson names: a bundled sample's file name ("chelsea.png") or a generated picture
    // ("WxH") on a picture page, generated matrices ("MxKxN") on the matrices page. Empty when done (the
    // load or run follows on the worker), else why not.
    virtual QString setLessonInput(const QString& spec);
    // A launch setting of the page's own, by name ("layout": "planar" | "interleaved" on the image
    // page). Empty when set, else why not; option() is empty for a setting the page does not have.
    virtual QString setOption(const QString& name, const QString& value);
    virtual QString option(const QString& name) const {
        Q_UNUSED(name);
        return {};
    }
    // The picked thread (the inspector's), as "bx,by,tx,ty"; empty while none is picked.
    virtual QString pickedThread() const { return {}; }

    // Views of the page's own that `cudaviz --show NAME` brings to the front (beside the window's
    // docks); showView is false for a name the page does not know or cannot show now.
    virtual QStringList viewNames() const { return {}; }
    virtual bool showView(const QString& name) { Q_UNUSED(name); return false; }

    // scripts/screenshots: the page stages its own states (a launch, a dock raised, a selection) and
    // asks the tour for a shot of each. The page is in front when this is called.
    virtual void tour(ScreenshotTour& tour) { Q_UNUSED(tour); }

signals:
    void statusChanged(const QString& text, bool error);
    void documentChanged();  // documentText() changed
    void workStarted();  // a load or a run went to the worker (the window shows it is busy at once)
    void fileOpened(const QString& path);  // a document was loaded from `path` (recent files, the title)
    void openFailed(const QString& path, const QString& error);
    void errorRaised(const QString& text);  // worth a message box
    void displayChanged();  // displayText() / displayToolTip() changed

protected:
    virtual void onBind(const PageDocks& docks) = 0;
    virtual void onUnbind() {}
    // Connections made in onBind, undone by unbind().
    void keep(const QMetaObject::Connection& connection) { connections_.append(connection); }
    const PageDocks& docks() const { return docks_; }
    void setStatus(const QString& text, bool error = false);
    // A user kernel's choice ("yours: NAME", issue 27) as the family's first built-in of the same block
    // rule with the same block: what the page's plan, overlay and occupancy model while the session
    // runs the user's kernel (its session's setUserKernel). The choice itself when it is a built-in's.
    static LaunchChoice builtinStandIn(const LaunchChoice& choice);

private:
    PageDocks docks_;
    bool bound_ = false;
    QList<QMetaObject::Connection> connections_;
    QString status_;
    bool status_error_ = false;
};

}  // namespace cvz
