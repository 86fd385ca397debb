#include "ui/windows/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

#include "app/jobs/job_runner.h"
#include "ui/editor/editor_actions.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/page_registry.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/overlay_panel.h"
#include "ui/panels/sm_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/image_surface.h"
#include "ui/views/memory_view.h"
#include "ui/views/source_view.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/dock_scroll_area.h"
#include "ui/windows/elided_label.h"
#include "ui/windows/animation_actions.h"
#include "ui/windows/export_actions.h"
#include "ui/windows/number_field_guard.h"
#include "ui/windows/recent_files.h"
#include "ui/windows/schedule_actions.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"

// Q_INIT_RESOURCE declares a function, so it must be used outside any namespace. The library is
// static: without this the linker may drop the embedded resources.
static void init_cudaviz_resources() { Q_INIT_RESOURCE(cudaviz); }

namespace cvz {

namespace {

bool is_resource(const QString& path) { return path.startsWith(QLatin1Char(':')); }

QString display_name(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    return is_resource(path) ? QObject::tr("%1 (sample)").arg(name) : name;
}

bool is_supported_image(const QString& path) {
    const QByteArray suffix = QFileInfo(path).suffix().toLower().toLatin1();
    return QImageReader::supportedImageFormats().contains(suffix);
}

}  // namespace

MainWindow::MainWindow(const DisplayPathChoice& display, const QString& file, QWidget* parent)
    : QMainWindow(parent), display_(display), jobs_(std::make_unique<JobRunner>()) {
    init_cudaviz_resources();
    settings_ = new QSettings(this);
    setAcceptDrops(true);
    qApp->installEventFilter(new NumberFieldGuard(this));  // Space or G in a number field keeps its value

    createActions();
    createToolBar();
    createPages();
    createStatusBar();
    createDocks();
    schedule_->createDock();
    editor_->createDock();
    restoreSettings();
    animation_->bind(docks_.timeline);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onCurrentPageChanged);
    onCurrentPageChanged();

    openFile(file.isEmpty() ? sampleFile() : file);
}

MainWindow::~MainWindow() {
    // Join the worker first: a job still running may post a continuation to a page, which ~QObject
    // then discards unrun.
    jobs_.reset();
}

QString MainWindow::sampleFile() { return ImagePage::sampleFile(); }

QString MainWindow::imageFileFilter() {
    QStringList patterns;
    for (const QByteArray& format : QImageReader::supportedImageFormats())
        patterns << QStringLiteral("*.") + QString::fromLatin1(format);
    return tr("Images (%1);;All files (*)").arg(patterns.join(QLatin1Char(' ')));
}

// ---- construction -------------------------------------------------------------------------------

void MainWindow::createActions() {
    QMenu* file_menu = menuBar()->addMenu(tr("&File"));
    QAction* open = file_menu->addAction(tr("&Open..."), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recent_ = new RecentFiles(file_menu->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
    QMenu* samples = file_menu->addMenu(tr("Open &Sample"));
    samples->addAction(tr("&Chelsea the cat"), this, [this] { openFile(sampleFile()); });
    samples->addAction(tr("C&offee cup"), this, [this] { openFile(QStringLiteral(":/samples/coffee.png")); });
    file_menu->addSeparator();
    editor_ = new EditorActions(this);
    editor_->addToFileMenu(file_menu);
    connect(editor_, &EditorActions::message, this, &MainWindow::setStatus);
    connect(editor_, &EditorActions::failed, this, &MainWindow::showError);
    file_menu->addSeparator();
    exports_ = new ExportActions(this, jobs_.get());
    exports_->addTo(file_menu);
    connect(exports_, &ExportActions::message, this, &MainWindow::setStatus);
    schedule_ = new ScheduleActions(this, jobs_.get());
    schedule_->addToFileMenu(file_menu);
    connect(schedule_, &ScheduleActions::message, this, &MainWindow::setStatus);
    connect(schedule_, &ScheduleActions::failed, this, &MainWindow::showError);
    file_menu->addSeparator();
    QAction* quit = file_menu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* view_menu = menuBar()->addMenu(tr("&View"));
    QAction* zoom_in = view_menu->addAction(tr("Zoom &In"), this, &MainWindow::zoomIn);
    // Ctrl++ needs Shift on most layouts; Ctrl+= is the same key without it.
    zoom_in->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction* zoom_out = view_menu->addAction(tr("Zoom &Out"), this, &MainWindow::zoomOut);
    zoom_out->setShortcut(QKeySequence::ZoomOut);
    QAction* fit = view_menu->addAction(tr("Zoom to &Fit"), this, &MainWindow::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* actual = view_menu->addAction(tr("&Actual Size (100%)"), this, &MainWindow::zoomToActualSize);
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    // 1-D 256 at fit zoom is a moire of staircases: these frame one block or warp readably.
    QAction* block = view_menu->addAction(tr("Zoom to &Block"), this, [this] {
        if (current_) current_->zoomToBlock();
    });
    block->setObjectName(QStringLiteral("zoomToBlockAction"));
    block->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    block->setToolTip(tr("Frame the clicked block (or the one under the mouse) (Ctrl+2)"));
    QAction* warp = view_menu->addAction(tr("Zoom to &Warp"), this, [this] {
        if (current_) current_->zoomToWarp();
    });
    warp->setObjectName(QStringLiteral("zoomToWarpAction"));
    warp->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
    warp->setToolTip(tr("Frame the 32 threads of the clicked pixel's warp (Ctrl+3)"));
    zoom_actions_ = {zoom_in, zoom_out, fit, actual, block, warp};
    view_menu->addSeparator();
    overlay_action_ = view_menu->addAction(tr("&Grid Overlay"));
    overlay_action_->setObjectName(QStringLiteral("overlayAction"));
    overlay_action_->setCheckable(true);
    overlay_action_->setChecked(true);
    overlay_action_->setShortcut(QKeySequence(Qt::Key_G));
    overlay_action_->setToolTip(tr("Draw the launch grid over both images: blocks, threads, warps, idle threads (G)"));
    view_menu_ = view_menu;

    QMenu* animation_menu = menuBar()->addMenu(tr("&Animation"));
    // A window-level shortcut, so Space plays and pauses whichever widget has focus (the image
    // views included); text fields keep their own Space.
    play_action_ = animation_menu->addAction(tr("&Play / Pause"), this, &MainWindow::togglePlay);
    play_action_->setObjectName(QStringLiteral("playAction"));
    play_action_->setShortcut(QKeySequence(Qt::Key_Space));
    play_action_->setShortcutContext(Qt::WindowShortcut);
    animation_ = new AnimationActions(animation_menu, this);

    QMenu* run_menu = menuBar()->addMenu(tr("&Run"));
    QAction* again = run_menu->addAction(tr("Run &Again"), this, &MainWindow::requestRun);
    again->setShortcut(QKeySequence(Qt::Key_F5));
    again->setToolTip(tr("Run the kernel again with the same settings (to re-time it)"));
    QAction* sweep = run_menu->addAction(tr("Block-Size &Sweep..."), this, &MainWindow::openSweep);
    sweep->setObjectName(QStringLiteral("sweepAction"));
    sweep->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    sweep->setToolTip(tr("Time the current kernel over every block shape (GPU), with each shape's occupancy"));
    QAction* ladder = run_menu->addAction(tr("Optimisation &Ladder..."), this, &MainWindow::openLadder);
    ladder->setObjectName(QStringLiteral("ladderAction"));
    ladder->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    ladder->setToolTip(tr("Every variant of the current kernel side by side: GPU time against the ceiling, and the "
                          "memory, occupancy and register figures that explain each step"));
    schedule_->addToRunMenu(run_menu);
    run_menu->addSeparator();
    editor_->addToRunMenu(run_menu);

    QMenu* help_menu = menuBar()->addMenu(tr("&Help"));
    help_menu->addAction(tr("&About cudaviz"), this, [this] {
        QMessageBox::about(this, tr("About cudaviz"),
                           tr("<b>cudaviz %1</b><p>See CUDA's execution model: the lecture's RGB to grayscale "
                              "and matrix multiply kernels on a real GPU or on a CPU emulator of blocks and threads.</p>"
                              "<p>Display: %2 (%3)<br>CUDA device: %4</p>")
                               .arg(QCoreApplication::applicationVersion(), to_string(display_.path),
                                    display_.reason.toHtmlEscaped(),
                                    cuda_device_available() ? tr("available") : tr("none")));
    });
}

void MainWindow::createToolBar() {
    QToolBar* bar = addToolBar(tr("Kernel"));
    bar->setObjectName(QStringLiteral("kernelToolBar"));  // for saveState
    bar->setMovable(false);

    bar->addWidget(new QLabel(tr(" Backend "), bar));
    backend_box_ = new QComboBox(bar);
    backend_box_->setObjectName(QStringLiteral("backendBox"));
    backend_box_->addItem(tr("Auto"), to_string(BackendChoice::Auto));
    backend_box_->addItem(tr("CPU emulator"), to_string(BackendChoice::Cpu));
    backend_box_->addItem(tr("CUDA"), to_string(BackendChoice::Cuda));
    backend_box_->setItemData(0, tr("CUDA when a device is present, else the CPU emulator"), Qt::ToolTipRole);
    backend_box_->setItemData(1, tr("Blocks and threads emulated on the CPU; bit-identical to the GPU"),
                              Qt::ToolTipRole);
    backend_box_->setItemData(2, tr("The kernels on this machine's NVIDIA GPU"), Qt::ToolTipRole);
    if (!cuda_device_available()) {
        auto* model = qobject_cast<QStandardItemModel*>(backend_box_->model());
        model->item(2)->setEnabled(false);
        backend_box_->setItemData(2, tr("No CUDA device: built without the CUDA toolkit, or no NVIDIA GPU found"),
                                  Qt::ToolTipRole);
    }
    bar->addWidget(backend_box_);
    updateBackendToolTip();
    bar->addSeparator();

    // The overlay's colouring in one click: blocks (or the colouring last chosen in the Overlay
    // panel) against boundaries only.
    colour_action_ = bar->addAction(tr("Colour Blocks"));
    colour_action_->setObjectName(QStringLiteral("colourAction"));
    colour_action_->setCheckable(true);
    colour_action_->setToolTip(tr("Tint each block (or thread, or warp: Overlay panel) in its own colour; "
                                  "off: the plain result under the block grid"));
    connect(colour_action_, &QAction::toggled, this, [this](bool on) {
        if (!docks_.overlay) return;
        if (on == (docks_.overlay->coloring() != OverlayColoring::None)) return;
        if (on) docks_.overlay->setOverlayEnabled(true);
        docks_.overlay->setColoring(on ? last_coloring_ : OverlayColoring::None);
    });
    bar->addSeparator();

    QAction* fit = bar->addAction(tr("Fit"), this, &MainWindow::zoomToFit);
    fit->setToolTip(tr("Zoom to fit (Ctrl+0)"));
    QAction* actual = bar->addAction(tr("100%"), this, &MainWindow::zoomToActualSize);
    actual->setToolTip(tr("Actual size: one image pixel per screen pixel (Ctrl+1)"));
    zoom_actions_ << fit << actual;
}

void MainWindow::createPages() {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("pageTabs"));
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);

    // One tab per family, in the registry's order; the window never names one.
    const PageContext context{jobs_.get(), display_};
    for (PageFactory make : page_factories()) addPage(make(context, tabs_));
}

void MainWindow::addPage(KernelPage* page) {
    pages_.append(page);
    tabs_->addTab(page, page->title());
    // A page's document events: recent files, the title, the display path, errors.
    connect(page, &KernelPage::fileOpened, this, [this](const QString& path) {
        if (!is_resource(path)) recent_->add(path);
        setWindowTitle(tr("%1 \u2014 cudaviz").arg(display_name(path)));
    });
    connect(page, &KernelPage::openFailed, this, [this](const QString& path) {
        if (!QFileInfo::exists(path)) recent_->remove(path);
    });
    connect(page, &KernelPage::errorRaised, this, &MainWindow::showError);
    connect(page, &KernelPage::displayChanged, this, &MainWindow::updateDisplayLabel);
    // The status bar speaks for the page in front: another page's result does not hide its line.
    connect(page, &KernelPage::statusChanged, this, [this, page](const QString& text, bool error) {
        if (page == current_) setStatus(text, error);
    });
    // At once: the worker's busyChanged follows.
    connect(page, &KernelPage::workStarted, this, [this] { busy_->show(); });
    connect(page, &KernelPage::documentChanged, this, [this, page] {
        if (page == current_) updateDocumentLabel();
    });
}

void MainWindow::createStatusBar() {
    status_label_ = new ElidedLabel(this);
    status_label_->setObjectName(QStringLiteral("statusMessage"));
    // A long run summary must not make the window wider than the screen: it ends in "…" where it
    // does not fit, and is whole in the tooltip.
    status_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(status_label_, 1);

    busy_ = new QProgressBar(this);
    busy_->setObjectName(QStringLiteral("busyIndicator"));
    busy_->setRange(0, 0);  // indeterminate
    busy_->setMaximumWidth(100);
    busy_->setMaximumHeight(14);
    busy_->setTextVisible(false);
    busy_->setToolTip(tr("A kernel run or a load is in progress"));
    busy_->hide();
    statusBar()->addPermanentWidget(busy_);
    // The runner's state now, not the signal's argument: a late "idle" from a finished job must not
    // hide the indicator while a newer job waits.
    connect(jobs_.get(), &JobRunner::busyChanged, busy_, [this] { busy_->setVisible(jobs_->busy()); });

    document_label_ = new QLabel(this);
    document_label_->setObjectName(QStringLiteral("documentLabel"));
    statusBar()->addPermanentWidget(document_label_);
    display_label_ = new QLabel(this);
    display_label_->setObjectName(QStringLiteral("displayPathLabel"));
    statusBar()->addPermanentWidget(display_label_);
    updateDisplayLabel();
}

QDockWidget* MainWindow::addDock(QWidget* content, const QString& title, const QString& name,
                                 Qt::DockWidgetArea area, PageDocks::Dock kind) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);  // for saveState
    // Every dock but the one-line Execution bar scrolls when short, so that no combination of open
    // panels makes the window taller than the screen.
    dock->setWidget(kind == PageDocks::Timeline ? content : static_cast<QWidget*>(new DockScrollArea(content, this)));
    addDockWidget(area, dock);
    panels_menu_->addAction(dock->toggleViewAction());
    docks_by_kind_.insert(kind, dock);
    return dock;
}

void MainWindow::createDocks() {
    setDockNestingEnabled(true);
    view_menu_->addSeparator();
    // The docks' show/hide entries apart, so that "Grid Overlay" (drawing the grid) is in the menu once.
    panels_menu_ = view_menu_->addMenu(tr("&Panels"));
    panels_menu_->setObjectName(QStringLiteral("panelsMenu"));

    docks_.launch = new LaunchPanel(this);
    docks_.launch->setObjectName(QStringLiteral("launchPanel"));
    QDockWidget* launch_dock =
        addDock(docks_.launch, tr("Launch"), QStringLiteral("launchDock"), Qt::RightDockWidgetArea, PageDocks::Launch);
    // The panel edited most is shown whole where the screen allows; the tabbed docks below scroll first.
    static_cast<DockScrollArea*>(launch_dock->widget())->setKeepWhole(true);

    docks_.overlay = new OverlayPanel(this);
    docks_.overlay->setObjectName(QStringLiteral("overlayPanel"));
    docks_.overlay->setOverlayEnabled(overlay_action_->isChecked());
    QDockWidget* overlay_dock = addDock(docks_.overlay, tr("Overlay"), QStringLiteral("overlayDock"),
                                        Qt::RightDockWidgetArea, PageDocks::Overlay);

    docks_.inspector = new InspectorPanel(this);
    docks_.inspector->setObjectName(QStringLiteral("inspectorPanel"));
    QDockWidget* inspector_dock = addDock(docks_.inspector, tr("Inspector"), QStringLiteral("inspectorDock"),
                                          Qt::RightDockWidgetArea, PageDocks::Inspector);

    docks_.occupancy = new OccupancyPanel(this);
    docks_.occupancy->setObjectName(QStringLiteral("occupancyPanel"));
    QDockWidget* occupancy_dock = addDock(docks_.occupancy, tr("Occupancy"), QStringLiteral("occupancyDock"),
                                          Qt::RightDockWidgetArea, PageDocks::Occupancy);

    auto* sm_box = new QWidget(this);
    auto* sm_layout = new QVBoxLayout(sm_box);
    sm_layout->setContentsMargins(4, 4, 4, 4);
    docks_.sm_caption = new QLabel(sm_box);
    docks_.sm_caption->setObjectName(QStringLiteral("smCaption"));
    docks_.sm_caption->setWordWrap(true);
    docks_.sms = new SmPanel(sm_box);
    docks_.sms->setObjectName(QStringLiteral("smPanel"));
    sm_layout->addWidget(docks_.sm_caption);
    sm_layout->addWidget(docks_.sms, 1);
    QDockWidget* sm_dock = addDock(sm_box, tr("SMs"), QStringLiteral("smDock"), Qt::RightDockWidgetArea, PageDocks::Sms);
    // The picked warp's memory requests: a tab beside the inspector (tall and narrow suits requests
    // stacked one under the other), so the window's layout and its fit on a small screen do not change.
    docks_.memory = new MemoryView(this);
    docks_.memory->setObjectName(QStringLiteral("memoryView"));
    QDockWidget* memory_dock = addDock(docks_.memory, tr("Memory"), QStringLiteral("memoryDock"), Qt::RightDockWidgetArea,
                                       PageDocks::Memory);
    tabifyDockWidget(overlay_dock, inspector_dock);
    tabifyDockWidget(inspector_dock, occupancy_dock);
    tabifyDockWidget(occupancy_dock, sm_dock);
    tabifyDockWidget(sm_dock, memory_dock);
    inspector_dock->raise();

    auto* timeline_box = new QWidget(this);
    auto* timeline_layout = new QHBoxLayout(timeline_box);
    timeline_layout->setContentsMargins(4, 0, 4, 0);
    docks_.animation_mode = new QComboBox(timeline_box);
    docks_.animation_mode->setObjectName(QStringLiteral("animationMode"));
    docks_.animation_mode->addItem(tr("No animation"), int(AnimationMode::Off));
    docks_.animation_mode->addItem(tr("Blocks in waves on the SMs"), int(AnimationMode::Waves));
    docks_.animation_mode->addItem(tr("Warps of one block (click a block)"), int(AnimationMode::Warps));
    docks_.animation_mode->setToolTip(tr("Waves: the GPU runs as many blocks at once as its SMs hold, then the next "
                                         "wave.\nWarps: inside the clicked block, 32 threads at a time."));
    docks_.timeline = new TimelineBar(timeline_box);
    docks_.timeline->setObjectName(QStringLiteral("timeline"));
    timeline_layout->addWidget(docks_.animation_mode);
    timeline_layout->addWidget(docks_.timeline, 1);
    QDockWidget* timeline_dock =
        addDock(timeline_box, tr("Execution"), QStringLiteral("timelineDock"), Qt::BottomDockWidgetArea, PageDocks::Timeline);

    // The kernel's source wants width: under the pages, above the timeline, across the window. Closed
    // until asked for (View > Kernel Source, Ctrl+U), so the pages keep their height on a small screen.
    docks_.source = new SourceView(this);
    docks_.source->setObjectName(QStringLiteral("sourceView"));
    QDockWidget* source_dock = addDock(docks_.source, tr("Source"), QStringLiteral("sourceDock"),
                                       Qt::BottomDockWidgetArea, PageDocks::Source);
    splitDockWidget(source_dock, timeline_dock, Qt::Vertical);
    source_dock->hide();
    // Opened, it takes a third of the window's height (the docks' minimums alone would leave it a few
    // lines); the right-hand docks and the page share the rest. The Launch panel then scrolls rather
    // than keeping its whole height: on a small screen that height is what the code needs.
    auto* launch_scroll = static_cast<DockScrollArea*>(launch_dock->widget());
    connect(source_dock->toggleViewAction(), &QAction::toggled, this, [this, launch_scroll](bool open) {
        launch_scroll->setKeepWhole(!open);
        if (open) QTimer::singleShot(0, this, &MainWindow::shareBottomDocks);
        // Closed, its height goes back to the page, not to the Execution bar left alone at the bottom.
        else QTimer::singleShot(0, this, [this] {
            QDockWidget* timeline = dock(PageDocks::Timeline);
            resizeDocks({timeline}, {timeline->minimumSizeHint().height()}, Qt::Vertical);
        });
    });
    // Brought to the front by a key, as a browser's View Source.
    auto raise_action = [this](QDockWidget* dock, const QString& text, const QKeySequence& key, const QString& name) {
        auto* action = new QAction(text, this);
        action->setObjectName(name);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, dock, [dock] {
            if (!dock->toggleViewAction()->isEnabled()) return;
            dock->show();
            dock->raise();
        });
        view_menu_->insertAction(panels_menu_->menuAction(), action);
        addAction(action);
    };
    raise_action(source_dock, tr("Kernel &Source"), QKeySequence(Qt::CTRL | Qt::Key_U), QStringLiteral("showSourceAction"));
    raise_action(memory_dock, tr("&Memory Requests"), QKeySequence(Qt::CTRL | Qt::Key_M), QStringLiteral("showMemoryAction"));

    // Window-wide choices: the device profile models every page's launch; the overlay is one setting.
    connect(docks_.occupancy, &OccupancyPanel::profileChanged, this, [this](const DeviceProfile& profile) {
        for (KernelPage* page : pages_) page->setDevice(profile);
    });
    for (KernelPage* page : pages_) page->setDevice(docks_.occupancy->profile());
    connect(overlay_action_, &QAction::toggled, docks_.overlay, &OverlayPanel::setOverlayEnabled);
    connect(docks_.overlay, &OverlayPanel::changed, this, [this] {
        overlay_action_->setChecked(docks_.overlay->overlayEnabled());
        if (docks_.overlay->coloring() != OverlayColoring::None) last_coloring_ = docks_.overlay->coloring();
        colour_action_->setChecked(docks_.overlay->overlayEnabled() && docks_.overlay->coloring() != OverlayColoring::None);
        settings_->setValue(QStringLiteral("overlay/enabled"), docks_.overlay->overlayEnabled());
        settings_->setValue(QStringLiteral("overlay/coloring"), int(docks_.overlay->coloring()));
        settings_->setValue(QStringLiteral("overlay/opacity"), docks_.overlay->opacity());
        settings_->setValue(QStringLiteral("overlay/showIdle"), docks_.overlay->showIdle());
    });
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1500, 900);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    fitToScreen();

    // First impression: the plain grayscale under a light block grid; the colouring is one click
    // away (the toolbar's "Colour Blocks").
    docks_.overlay->setColoring(OverlayColoring(
        settings.value(QStringLiteral("overlay/coloring"), int(OverlayColoring::None)).toInt()));
    docks_.overlay->setOpacity(settings.value(QStringLiteral("overlay/opacity"), 0.45).toDouble());
    docks_.overlay->setShowIdle(settings.value(QStringLiteral("overlay/showIdle"), true).toBool());
    overlay_action_->setChecked(settings.value(QStringLiteral("overlay/enabled"), true).toBool());
    colour_action_->setChecked(docks_.overlay->overlayEnabled() && docks_.overlay->coloring() != OverlayColoring::None);
    const int backend_index = backend_box_->findData(settings.value(QStringLiteral("run/backend")).toString());
    // A remembered CUDA choice on a machine without a device falls back to Auto.
    if (backend_index >= 0 && (backend_index != 2 || cuda_device_available())) backend_box_->setCurrentIndex(backend_index);

    for (KernelPage* page : pages_) {
        page->setBackend(backend());
        page->restoreSettings(settings_);
    }
    // Connected after restoring, so that restoring does not start runs.
    connect(backend_box_, &QComboBox::currentIndexChanged, this, [this] {
        settings_->setValue(QStringLiteral("run/backend"), backend_box_->currentData());
        updateBackendToolTip();
        for (KernelPage* page : pages_) page->setBackend(backend());
    });
    updateBackendToolTip();
}

// A default or remembered size larger than this screen's free area (a geometry saved on a larger
// screen, or the default at QT_SCALE_FACTOR=1.5 on a laptop) is cut to it, and the window moved onto it.
void MainWindow::fitToScreen() {
    // Before the first show there is no frame yet: leave room for a typical title bar and border.
    fit_to_screen(this, isVisible() ? frameGeometry().size() - size() : QSize(16, 40));
}

// The box says what runs the kernels, and why CUDA is greyed out when it is.
void MainWindow::updateBackendToolTip() {
    QString tip = tr("Where the kernels run: %1").arg(backend_box_->itemData(backend_box_->currentIndex(), Qt::ToolTipRole).toString());
    if (!cuda_device_available())
        tip += tr("\nCUDA is greyed out: no CUDA device (built without the CUDA toolkit, or no NVIDIA GPU found)");
    backend_box_->setToolTip(tip);
}

BackendChoice MainWindow::backend() const {
    return parse_backend_choice(backend_box_->currentData().toString()).value_or(BackendChoice::Auto);
}

// ---- the current page ---------------------------------------------------------------------------

void MainWindow::onCurrentPageChanged() {
    auto* page = qobject_cast<KernelPage*>(tabs_->currentWidget());
    if (!page || page == current_) return;
    if (current_) current_->unbind();
    current_ = page;
    current_->bind(docks_);
    showDocksOf(current_);
    for (QAction* zoom : zoom_actions_) zoom->setEnabled(current_->canZoom());
    setStatus(current_->statusText(), current_->statusIsError());
    updateDocumentLabel();
    updateDisplayLabel();
}

// Docks the page does not use are hidden while it is in front, and come back as they were after.
void MainWindow::showDocksOf(KernelPage* page) {
    const PageDocks::Docks used = page->docksUsed();
    for (auto it = docks_by_kind_.cbegin(); it != docks_by_kind_.cend(); ++it) {
        QDockWidget* dock = it.value();
        const bool applies = used.testFlag(PageDocks::Dock(it.key()));
        if (applies && hidden_by_page_.take(dock)) {
            dock->show();
        } else if (!applies && !dock->isHidden()) {
            dock->hide();
            hidden_by_page_.insert(dock, true);
        }
        dock->toggleViewAction()->setEnabled(applies);
    }
}

void MainWindow::requestRun() { current_->runAgain(); }

void MainWindow::togglePlay() { current_->togglePlay(); }

void MainWindow::zoomIn() { current_->zoomIn(); }

void MainWindow::zoomOut() { current_->zoomOut(); }

void MainWindow::zoomToFit() { current_->zoomToFit(); }

void MainWindow::zoomToActualSize() { current_->zoomToActualSize(); }

void MainWindow::openSweep() {
    if (!sweep_) {
        sweep_ = new SweepDialog(jobs_.get(), this);
        sweep_->setObjectName(QStringLiteral("sweepDialog"));
        for (KernelPage* page : pages_) page->connectSweep(sweep_);
    }
    // Every page's document, so the dialog can switch kernels; the page in front picks the kernel;
    // the occupancy model uses the profile chosen in the main window.
    for (KernelPage* page : pages_) page->offerToSweep(sweep_);
    current_->chooseInSweep(sweep_);
    sweep_->selectProfile(docks_.occupancy->profile().name);
    sweep_->show();
    sweep_->raise();
    sweep_->activateWindow();
}

// The Source dock a third of the window's height, the Execution bar (and the Schedule tabbed with it)
// no more than it needs: the bottom docks' size hints would otherwise leave the code a line or two.
void MainWindow::shareBottomDocks() {
    QDockWidget* source = dock(PageDocks::Source);
    QDockWidget* timeline = dock(PageDocks::Timeline);
    if (!source || !timeline || source->isHidden()) return;
    resizeDocks({source, timeline}, {height() / 3, timeline->minimumSizeHint().height()}, Qt::Vertical);
}

// In the order they are opened: the editor before the Source it is tabbed with, and the schedule before
// the timeline, so that the Source and the execution controls end in front.
QStringList MainWindow::panelNames() {
    return {QStringLiteral("launch"),   QStringLiteral("overlay"),  QStringLiteral("inspector"), QStringLiteral("occupancy"),
            QStringLiteral("sms"),      QStringLiteral("memory"),   QStringLiteral("editor"),    QStringLiteral("source"),
            QStringLiteral("schedule"), QStringLiteral("timeline"), QStringLiteral("sweep"),     QStringLiteral("ladder")};
}

QString MainWindow::showPanels(const QStringList& names) {
    const QHash<QString, PageDocks::Dock> kinds = {
        {QStringLiteral("launch"), PageDocks::Launch},       {QStringLiteral("overlay"), PageDocks::Overlay},
        {QStringLiteral("inspector"), PageDocks::Inspector}, {QStringLiteral("occupancy"), PageDocks::Occupancy},
        {QStringLiteral("sms"), PageDocks::Sms},             {QStringLiteral("memory"), PageDocks::Memory},
        {QStringLiteral("source"), PageDocks::Source},       {QStringLiteral("timeline"), PageDocks::Timeline},
    };
    QStringList unknown;
    for (const QString& raw : names)
        if (!panelNames().contains(raw.trimmed().toLower())) unknown << raw;
    if (!unknown.isEmpty())
        return tr("unknown panel %1: the panels are %2").arg(unknown.join(QStringLiteral(", ")), panelNames().join(QStringLiteral(", ")));
    for (const QString& raw : names) {
        const QString name = raw.trimmed().toLower();
        if (kinds.contains(name)) {
            QDockWidget* d = dock(kinds.value(name));
            if (!d || !d->toggleViewAction()->isEnabled()) continue;  // not used by the page in front
            d->show();
            d->raise();
        } else if (name == QLatin1String("schedule")) {
            schedule_->dock()->show();
            schedule_->dock()->raise();
        } else if (name == QLatin1String("editor")) {
            editor_->dock()->show();
            editor_->dock()->raise();
        } else if (name == QLatin1String("sweep")) {
            openSweep();
        } else if (name == QLatin1String("ladder")) {
            openLadder();
        }
    }
    QTimer::singleShot(0, this, &MainWindow::shareBottomDocks);  // after the docks' layout settles
    return {};
}

void MainWindow::openLadder() {
    if (!ladder_) {
        ladder_ = new LadderDialog(jobs_.get(), this);
        ladder_->setObjectName(QStringLiteral("ladderDialog"));
        for (KernelPage* page : pages_) page->connectLadder(ladder_);
    }
    for (KernelPage* page : pages_) page->offerToLadder(ladder_);
    current_->chooseInLadder(ladder_);
    ladder_->selectProfile(docks_.occupancy->profile().name);
    ladder_->show();
    ladder_->raise();
    ladder_->activateWindow();
}

// ---- the image page's document ------------------------------------------------------------------

void MainWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Image"), openFolder(), imageFileFilter());
    if (path.isEmpty()) return;
    openFile(path);
}

// Next to the page's document on screen; while a bundled sample is shown, the samples folder (the samples
// copied once to the app's data folder, so that they can be browsed beside the user's own files).
QString MainWindow::openFolder() const {
    const QString current = current_ ? current_->documentFile() : QString();
    if (!current.isEmpty() && !is_resource(current) && QFileInfo(current).dir().exists())
        return QFileInfo(current).absolutePath();
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir samples(data + QStringLiteral("/samples"));
    if (data.isEmpty() || !QDir().mkpath(samples.path())) return QDir::homePath();
    for (const QFileInfo& sample : QDir(QStringLiteral(":/samples")).entryInfoList(QDir::Files)) {
        const QString copy = samples.filePath(sample.fileName());
        if (!QFileInfo::exists(copy) && QFile::copy(sample.filePath(), copy))
            QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    return samples.path();
}

// The page in front when it opens images, else the first that does, brought to the front.
KernelPage* MainWindow::imageDocumentPage() const {
    if (current_ && current_->opensImages()) return current_;
    for (KernelPage* page : pages_)
        if (page->opensImages()) return page;
    return nullptr;
}

void MainWindow::openFile(const QString& path) {
    KernelPage* page = imageDocumentPage();
    if (!page) return;
    tabs_->setCurrentWidget(page);
    page->openFile(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(),
                    [](const QUrl& url) { return url.isLocalFile() && is_supported_image(url.toLocalFile()); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile() && is_supported_image(url.toLocalFile())) {
            openFile(url.toLocalFile());  // the first image only: the page shows one
            event->acceptProposedAction();
            return;
        }
    }
}

// The image page's document and views, for tests and scripts.

void MainWindow::closeEvent(QCloseEvent* event) {
    // Saved as the user arranged them, not as the page in front hides them.
    for (auto it = hidden_by_page_.cbegin(); it != hidden_by_page_.cend(); ++it) it.key()->show();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    for (KernelPage* page : pages_) page->saveSettings(&settings);
    QMainWindow::closeEvent(event);
}

// ---- status -------------------------------------------------------------------------------------

QString MainWindow::statusText() const { return status_label_->text(); }

QString MainWindow::documentText() const { return document_label_->text(); }

void MainWindow::setStatus(const QString& text, bool error) {
    status_label_->setText(text);
    status_label_->setToolTip(text);
    status_label_->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

void MainWindow::showError(const QString& text) {
    // One box at a time; open() keeps the window (and tests) running while it shows.
    if (!error_box_) {
        error_box_ = new QMessageBox(QMessageBox::Warning, tr("cudaviz"), text, QMessageBox::Ok, this);
        error_box_->setAttribute(Qt::WA_DeleteOnClose);
        error_box_->open();
    } else {
        error_box_->setText(text);
        error_box_->raise();
    }
}

void MainWindow::updateDocumentLabel() {
    document_label_->setText(current_ ? current_->documentText() : QString());
    document_label_->setToolTip(current_ ? current_->documentToolTip() : QString());
}

// The page in front says how its output reaches the screen; a page that says nothing leaves the
// label to the one that does (the image page's display path stays in view on the other pages).
void MainWindow::updateDisplayLabel() {
    KernelPage* speaker = current_ && !current_->displayText().isEmpty() ? current_ : nullptr;
    for (KernelPage* page : pages_)
        if (!speaker && !page->displayText().isEmpty()) speaker = page;
    display_label_->setText(speaker ? speaker->displayText() : QString());
    display_label_->setToolTip(speaker ? speaker->displayToolTip() : QString());
}

}  // namespace cvz
