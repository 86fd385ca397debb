#pragma once
#include <QHash>
#include <QImage>
#include <QList>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <memory>

#include "app/jobs/backend_choice.h"
#include "ui/pages/kernel_page.h"
#include "ui/views/display_path.h"
#include "ui/views/overlay_state.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSettings;
class QTabWidget;

namespace cvz {

class ElidedLabel;

class AnimationActions;
class EditorActions;
class ExportActions;
class ImagePage;
class ImageSurface;
class InspectorPanel;
class JobRunner;
class LaunchPanel;
class OccupancyPanel;
class OverlayLegend;
class OverlayPanel;
class RecentFiles;
class ScheduleActions;
class SmPanel;
class LadderDialog;
class SweepDialog;
class TimelineBar;
class ViewTransform;

// The shell: one tab per kernel family (a KernelPage: the image's grayscale, the matrices' matmul),
// and docks for the launch, the overlay, the inspector, occupancy, the SMs and the execution
// timeline, bound to whichever page is in front — the window never asks which one that is. The
// toolbar's backend and the occupancy panel's device profile apply to every page. Loading and every
// kernel run go to one worker (JobRunner); errors are shown and leave what was open as it was.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Opens `file`, or the bundled sample photo when `file` is empty (or fails to open).
    explicit MainWindow(const DisplayPathChoice& display, const QString& file = QString(),
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    static QString sampleFile();       // ":/samples/chelsea.png"
    static QString imageFileFilter();  // "Images (*.bmp *.jpg ...);;All files (*)"

    // Loads on the worker; on success replaces the image and runs the kernel, on failure shows why.
    void openFile(const QString& path);
    // Where File > Open starts: the current picture's folder, or the samples folder.
    QString openFolder() const;
    // Runs the current page's kernel again with the same settings.
    void requestRun();

    KernelPage* currentPage() const { return current_; }
    QList<KernelPage*> pages() const { return pages_; }
    QTabWidget* tabs() const { return tabs_; }
    // The page of type P (ImagePage, ...), or null: for tests and scripts.
    template <class P>
    P* page() const {
        for (KernelPage* p : pages_)
            if (auto* typed = qobject_cast<P*>(p)) return typed;
        return nullptr;
    }
    JobRunner* jobs() const { return jobs_.get(); }
    QString statusText() const;
    QMessageBox* errorBox() const { return error_box_; }
    QDockWidget* dock(PageDocks::Dock which) const { return docks_by_kind_.value(which); }
    QString documentText() const;  // the status bar's permanent label for the current page

    // The docks.
    LaunchPanel* launchPanel() const { return docks_.launch; }
    OverlayPanel* overlayPanel() const { return docks_.overlay; }
    OccupancyPanel* occupancyPanel() const { return docks_.occupancy; }
    SmPanel* smPanel() const { return docks_.sms; }
    TimelineBar* timeline() const { return docks_.timeline; }
    InspectorPanel* inspector() const { return docks_.inspector; }
    QComboBox* animationModeBox() const { return docks_.animation_mode; }
    QAction* overlayAction() const { return overlay_action_; }
    QAction* colourAction() const { return colour_action_; }  // the toolbar's "Colour Blocks"
    QAction* playAction() const { return play_action_; }
    // File > Save Result As and File > Export.
    ExportActions* exports() const { return exports_; }
    AnimationActions* animationActions() const { return animation_; }
    // File > Open Schedule, Run > Record Schedule and the Schedule dock.
    ScheduleActions* scheduleActions() const { return schedule_; }
    // File > New Kernel, Open Kernel, Save Kernel, Run > Compile and Run and the Kernel Editor dock.
    EditorActions* editorActions() const { return editor_; }
    BackendChoice backendChoice() const { return backend(); }  // the toolbar's

    // The block-size sweep for the current page's kernel (Run > Block-Size Sweep, Ctrl+B).
    void openSweep();
    SweepDialog* sweepDialog() const { return sweep_; }
    // The optimisation ladder of the current page's family (Run > Optimisation Ladder, Ctrl+L).
    void openLadder();
    LadderDialog* ladderDialog() const { return ladder_; }

    // The names `--show` takes: every dock and dialog ("source", "memory", "inspector", ...).
    static QStringList panelNames();
    // Opens the named panels (raised, tabs brought to the front) and dialogs; empty on success, else
    // the unknown names and the known ones. A panel the current page does not use stays closed.
    QString showPanels(const QStringList& names);
    QMenu* panelsMenu() const { return panels_menu_; }  // View > Panels

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

private:
    void createActions();
    void createToolBar();
    void createPages();
    void createStatusBar();
    void createDocks();
    QDockWidget* addDock(QWidget* content, const QString& title, const QString& name, Qt::DockWidgetArea area,
                         PageDocks::Dock kind);
    void restoreSettings();
    void fitToScreen();  // the window inside the screen's available area
    void shareBottomDocks();
    void addPage(KernelPage* page);
    KernelPage* imageDocumentPage() const;  // where File > Open and dropped images go
    void onCurrentPageChanged();
    void showDocksOf(KernelPage* page);
    BackendChoice backend() const;
    void updateBackendToolTip();  // the toolbar's choice, parsed here once
    void showError(const QString& text);
    void setStatus(const QString& text, bool error = false);
    void updateDocumentLabel();
    void updateDisplayLabel();

    DisplayPathChoice display_;
    std::unique_ptr<JobRunner> jobs_;
    QTabWidget* tabs_ = nullptr;
    QList<KernelPage*> pages_;
    KernelPage* current_ = nullptr;
    SweepDialog* sweep_ = nullptr;
    LadderDialog* ladder_ = nullptr;

    PageDocks docks_;
    QHash<int, QDockWidget*> docks_by_kind_;
    QHash<QDockWidget*, bool> hidden_by_page_;  // docks hidden because the current page does not use them

    QComboBox* backend_box_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QList<QAction*> zoom_actions_;

    ElidedLabel* status_label_ = nullptr;  // the run summary, "…" where cut
    QProgressBar* busy_ = nullptr;
    QLabel* document_label_ = nullptr;
    QLabel* display_label_ = nullptr;
    QPointer<QMessageBox> error_box_;

    QAction* overlay_action_ = nullptr;
    QAction* colour_action_ = nullptr;
    OverlayColoring last_coloring_ = OverlayColoring::Block;  // what "Colour Blocks" turns on
    QAction* play_action_ = nullptr;
    QMenu* view_menu_ = nullptr;
    QMenu* panels_menu_ = nullptr;  // View > Panels: a check per dock
    QSettings* settings_ = nullptr;  // run and overlay choices, written as they change
    ExportActions* exports_ = nullptr;
    AnimationActions* animation_ = nullptr;
    ScheduleActions* schedule_ = nullptr;
    EditorActions* editor_ = nullptr;
};

}  // namespace cvz
