#include "ui/windows/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

#include "app/backend_choice.h"
#include "app/grayscale_runner.h"
#include "app/image_loader.h"
#include "app/job_runner.h"
#include "app/kernel_resources.h"
#include "app/launch_config.h"
#include "app/matmul_runner.h"
#include "app/pixel_inspection.h"
#include "app/rgb_buffer.h"
#include "ui/views/image_surface.h"
#include "ui/views/image_view.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/launch_panel.h"
#include "ui/launch_session.h"
#include "ui/panels/launch_shape_box.h"
#include "ui/pages/matmul_page.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/views/overlay_legend.h"
#include "ui/panels/overlay_panel.h"
#include "ui/views/raster_image_view.h"
#include "ui/windows/recent_files.h"
#include "ui/panels/sm_panel.h"
#include "ui/windows/sweep_dialog.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"

// Q_INIT_RESOURCE declares a function, so it must be used outside any namespace. The library is
// static: without this the linker may drop the embedded resources.
static void init_cudaviz_resources() { Q_INIT_RESOURCE(cudaviz); }

namespace cvz {

namespace {

// One tag per kind of job: a newer request of the same kind drops a queued older one.
const QString kLoadTag = QStringLiteral("load");
const QString kRunTag = QStringLiteral("grayscale");

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
    transform_ = new ViewTransform(this);
    connect(transform_, &ViewTransform::zoomChanged, this, &MainWindow::updateZoomLabel);
    session_ = new LaunchSession(this);

    createActions();
    createToolBar();
    createCentralWidget();
    createStatusBar();
    createDocks();
    installViews();
    restoreSettings();
    updateZoomLabel();

    openFile(file.isEmpty() ? sampleFile() : file);
}

MainWindow::~MainWindow() {
    // Join the worker first: a job still running may post a continuation to this window, which
    // ~QObject then discards unrun.
    jobs_.reset();
}

QString MainWindow::sampleFile() { return QStringLiteral(":/samples/chelsea.png"); }

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

    QMenu* run_menu = menuBar()->addMenu(tr("&Run"));
    QAction* again = run_menu->addAction(tr("Run &Again"), this, &MainWindow::requestRun);
    again->setShortcut(QKeySequence(Qt::Key_F5));
    again->setToolTip(tr("Run the kernel again with the same settings (to re-time it)"));
    QAction* sweep = run_menu->addAction(tr("Block-Size &Sweep..."), this, &MainWindow::openSweep);
    sweep->setObjectName(QStringLiteral("sweepAction"));
    sweep->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    sweep->setToolTip(tr("Time the current kernel over every block shape (GPU), with each shape's occupancy"));

    QMenu* help_menu = menuBar()->addMenu(tr("&Help"));
    help_menu->addAction(tr("&About cudaviz"), this, [this] {
        QMessageBox::about(this, tr("About cudaviz"),
                           tr("<b>cudaviz %1</b><p>See CUDA's execution model: the lecture's RGB to grayscale "
                              "kernel on a real GPU or on a CPU emulator of blocks and threads.</p>"
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

    bar->addWidget(new QLabel(tr(" Layout "), bar));
    layout_box_ = new QComboBox(bar);
    layout_box_->setObjectName(QStringLiteral("layoutBox"));
    layout_box_->addItem(tr("Interleaved (RGB RGB ...)"), QStringLiteral("interleaved"));
    layout_box_->addItem(tr("Planar (C\u00D7H\u00D7W)"), QStringLiteral("planar"));
    layout_box_->setItemData(0, tr("As image files store pixels: pixel i reads x[3i], x[3i+1], x[3i+2]"),
                             Qt::ToolTipRole);
    layout_box_->setItemData(1, tr("As the lecture's tensor: pixel i reads x[i], x[i+n], x[i+2n]"), Qt::ToolTipRole);
    bar->addWidget(layout_box_);
    bar->addSeparator();

    bar->addWidget(new QLabel(tr(" Block "), bar));
    shape_box_ = new LaunchShapeBox(bar);
    shape_box_->setObjectName(QStringLiteral("launchShapeBox"));
    bar->addWidget(shape_box_);
    bar->addSeparator();

    bar->addWidget(new QLabel(tr(" Backend "), bar));
    backend_box_ = new QComboBox(bar);
    backend_box_->setObjectName(QStringLiteral("backendBox"));
    backend_box_->addItem(tr("Auto"), to_string(BackendChoice::Auto));
    backend_box_->addItem(tr("CPU emulator"), to_string(BackendChoice::Cpu));
    backend_box_->addItem(tr("CUDA"), to_string(BackendChoice::Cuda));
    backend_box_->setItemData(0, tr("CUDA when a device is present, else the CPU emulator"), Qt::ToolTipRole);
    backend_box_->setItemData(1, tr("Blocks and threads emulated on the CPU; bit-identical to the GPU"),
                              Qt::ToolTipRole);
    if (!cuda_device_available()) {
        auto* model = qobject_cast<QStandardItemModel*>(backend_box_->model());
        model->item(2)->setEnabled(false);
        backend_box_->setItemData(2, tr("No CUDA device: built without the CUDA toolkit, or no NVIDIA GPU found"),
                                  Qt::ToolTipRole);
    }
    bar->addWidget(backend_box_);
    bar->addSeparator();

    QAction* fit = bar->addAction(tr("Fit"), this, &MainWindow::zoomToFit);
    fit->setToolTip(tr("Zoom to fit (Ctrl+0)"));
    QAction* actual = bar->addAction(tr("100%"), this, &MainWindow::zoomToActualSize);
    actual->setToolTip(tr("Actual size: one image pixel per screen pixel (Ctrl+1)"));
}

void MainWindow::createCentralWidget() {
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    splitter_ = new QSplitter(Qt::Horizontal, central);
    splitter_->setObjectName(QStringLiteral("viewSplitter"));
    splitter_->setChildrenCollapsible(false);
    const QString captions[2] = {tr("Original"), tr("Grayscale (kernel output)")};
    for (int i = 0; i < 2; ++i) {
        auto* panel = new QWidget(splitter_);
        panel_layouts_[i] = new QVBoxLayout(panel);
        panel_layouts_[i]->setContentsMargins(2, 2, 2, 2);
        panel_layouts_[i]->setSpacing(2);
        auto* caption = new QLabel(captions[i], panel);
        caption->setAlignment(Qt::AlignCenter);
        panel_layouts_[i]->addWidget(caption);
        splitter_->addWidget(panel);
        splitter_->setStretchFactor(i, 1);
    }
    splitter_->setSizes({1000, 1000});  // equal halves until the user moves the handle
    column->addWidget(splitter_, 1);
    legend_ = new OverlayLegend(central);
    legend_->setObjectName(QStringLiteral("overlayLegend"));
    column->addWidget(legend_);
    central->installEventFilter(this);  // side by side or stacked, by the window's shape
    image_page_ = central;

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("pageTabs"));
    tabs_->setDocumentMode(true);
    tabs_->addTab(central, tr("&Image: RGB → grayscale"));
    matmul_page_ = new MatmulPage(jobs_.get(), tabs_);
    matmul_page_->setObjectName(QStringLiteral("matmulPage"));
    tabs_->addTab(matmul_page_, tr("&Matrices: matmul"));
    setCentralWidget(tabs_);
}

// Side by side when the area is wide, one above the other when it is tall: whichever shows the
// image larger. Decided on resize and on loading, not when the block shape changes the grid's
// extent: a flip relayouts both views (and their framebuffers), too slow for every slider step.
void MainWindow::chooseSplitterOrientation() {
    const QSize area = splitter_->size();
    const QSize content = original_.size();
    if (content.isEmpty() || area.isEmpty()) return;
    const double beside = ViewTransform::fitZoom(content, QSizeF(area.width() / 2.0, area.height()));
    const double stacked = ViewTransform::fitZoom(content, QSizeF(area.width(), area.height() / 2.0));
    const Qt::Orientation want = stacked > beside * 1.1 ? Qt::Vertical : Qt::Horizontal;  // some hysteresis
    if (want == splitter_->orientation()) return;
    splitter_->setOrientation(want);
    splitter_->setSizes({1000, 1000});
}

void MainWindow::createStatusBar() {
    status_label_ = new QLabel(this);
    status_label_->setObjectName(QStringLiteral("statusMessage"));
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(status_label_, 1);

    busy_ = new QProgressBar(this);
    busy_->setObjectName(QStringLiteral("busyIndicator"));
    busy_->setRange(0, 0);  // indeterminate
    busy_->setMaximumWidth(100);
    busy_->setMaximumHeight(14);
    busy_->setTextVisible(false);
    busy_->setToolTip(tr("A kernel run or an image load is in progress"));
    busy_->hide();
    statusBar()->addPermanentWidget(busy_);
    // The runner's state now, not the signal's argument: a late "idle" from a finished job must not
    // hide the indicator while a newer job waits.
    connect(jobs_.get(), &JobRunner::busyChanged, busy_, [this] { busy_->setVisible(jobs_->busy()); });

    image_label_ = new QLabel(this);
    statusBar()->addPermanentWidget(image_label_);
    zoom_label_ = new QLabel(this);
    statusBar()->addPermanentWidget(zoom_label_);
    display_label_ = new QLabel(this);
    display_label_->setObjectName(QStringLiteral("displayPathLabel"));
    statusBar()->addPermanentWidget(display_label_);
}

QDockWidget* MainWindow::addDock(QWidget* content, const QString& title, const QString& name,
                                 Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);  // for saveState
    dock->setWidget(content);
    addDockWidget(area, dock);
    view_menu_->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createDocks() {
    setDockNestingEnabled(true);
    view_menu_->addSeparator();

    launch_panel_ = new LaunchPanel(this);
    launch_panel_->setObjectName(QStringLiteral("launchPanel"));
    addDock(launch_panel_, tr("Launch"), QStringLiteral("launchDock"), Qt::RightDockWidgetArea);

    overlay_panel_ = new OverlayPanel(this);
    overlay_panel_->setObjectName(QStringLiteral("overlayPanel"));
    overlay_panel_->setOverlayEnabled(overlay_action_->isChecked());
    QDockWidget* overlay_dock =
        addDock(overlay_panel_, tr("Grid Overlay"), QStringLiteral("overlayDock"), Qt::RightDockWidgetArea);

    inspector_ = new InspectorPanel(this);
    inspector_->setObjectName(QStringLiteral("inspectorPanel"));
    QDockWidget* inspector_dock = addDock(inspector_, tr("Inspector"), QStringLiteral("inspectorDock"), Qt::RightDockWidgetArea);

    occupancy_panel_ = new OccupancyPanel(this);
    occupancy_panel_->setObjectName(QStringLiteral("occupancyPanel"));
    occupancy_dock_ = addDock(occupancy_panel_, tr("Occupancy"), QStringLiteral("occupancyDock"), Qt::RightDockWidgetArea);

    auto* sm_box = new QWidget(this);
    auto* sm_layout = new QVBoxLayout(sm_box);
    sm_layout->setContentsMargins(4, 4, 4, 4);
    sm_caption_ = new QLabel(sm_box);
    sm_caption_->setObjectName(QStringLiteral("smCaption"));
    sm_caption_->setWordWrap(true);
    sm_panel_ = new SmPanel(sm_box);
    sm_panel_->setObjectName(QStringLiteral("smPanel"));
    sm_layout->addWidget(sm_caption_);
    sm_layout->addWidget(sm_panel_, 1);
    QDockWidget* sm_dock = addDock(sm_box, tr("SMs"), QStringLiteral("smDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(overlay_dock, inspector_dock);
    tabifyDockWidget(inspector_dock, occupancy_dock_);
    tabifyDockWidget(occupancy_dock_, sm_dock);
    inspector_dock->raise();

    auto* timeline_box = new QWidget(this);
    auto* timeline_layout = new QHBoxLayout(timeline_box);
    timeline_layout->setContentsMargins(4, 0, 4, 0);
    animation_box_ = new QComboBox(timeline_box);
    animation_box_->setObjectName(QStringLiteral("animationMode"));
    animation_box_->addItem(tr("No animation"), int(AnimationMode::Off));
    animation_box_->addItem(tr("Blocks in waves on the SMs"), int(AnimationMode::Waves));
    animation_box_->addItem(tr("Warps of one block (click a block)"), int(AnimationMode::Warps));
    animation_box_->setToolTip(tr("Waves: the GPU runs as many blocks at once as its SMs hold, then the next "
                                  "wave.\nWarps: inside the clicked block, 32 threads at a time."));
    timeline_ = new TimelineBar(timeline_box);
    timeline_->setObjectName(QStringLiteral("timeline"));
    timeline_layout->addWidget(animation_box_);
    timeline_layout->addWidget(timeline_, 1);
    addDock(timeline_box, tr("Execution"), QStringLiteral("timelineDock"), Qt::BottomDockWidgetArea);

    // One source of truth: every control edits the session; the session updates every view.
    connect(launch_panel_, &LaunchPanel::shapeChanged, session_, &LaunchSession::setShape);
    connect(session_, &LaunchSession::shapeChanged, this, &MainWindow::onShapeChanged);
    connect(session_, &LaunchSession::planChanged, this, &MainWindow::onPlanChanged);
    connect(session_, &LaunchSession::frameChanged, this, &MainWindow::onFrameChanged);
    connect(occupancy_panel_, &OccupancyPanel::profileChanged, session_, &LaunchSession::setDevice);
    connect(overlay_action_, &QAction::toggled, overlay_panel_, &OverlayPanel::setOverlayEnabled);
    connect(overlay_panel_, &OverlayPanel::changed, this, [this] {
        overlay_action_->setChecked(overlay_panel_->overlayEnabled());
        pushOverlay();
        settings_->setValue(QStringLiteral("overlay/enabled"), overlay_panel_->overlayEnabled());
        settings_->setValue(QStringLiteral("overlay/coloring"), int(overlay_panel_->coloring()));
        settings_->setValue(QStringLiteral("overlay/opacity"), overlay_panel_->opacity());
        settings_->setValue(QStringLiteral("overlay/showIdle"), overlay_panel_->showIdle());
    });
    connect(animation_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        session_->setAnimationMode(AnimationMode(animation_box_->currentData().toInt()));
    });
    connect(timeline_, &TimelineBar::positionChanged, this, [this](int position) {
        if (matricesShown()) matmul_page_->setAnimationPosition(std::max(0, position));
        else session_->setAnimationPosition(std::uint64_t(std::max(0, position)));
    });

    // The Matrices tab: the same launch panel (matmul mode), occupancy and timeline.
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onTabChanged);
    connect(launch_panel_, &LaunchPanel::matmulLaunchChanged, this, &MainWindow::onMatmulLaunchChanged);
    connect(matmul_page_, &MatmulPage::animationChanged, this, &MainWindow::refreshMatmulTimeline);
    connect(matmul_page_, &MatmulPage::captionChanged, this, [this](const QString& caption) {
        if (matricesShown()) timeline_->setLabel(caption);
    });
    // The status bar speaks for the tab in front: a matmul result does not hide the image's.
    connect(matmul_page_, &MatmulPage::statusMessage, this, [this](const QString& text) {
        if (matricesShown()) setStatus(text);
    });
    connect(matmul_page_, &MatmulPage::resultReady, this, [this](const MatmulResult& r) {
        matmul_status_ = r.summary();
        if (matricesShown()) setStatus(r.summary(), !r.status.is_ok());
        const MatmulLaunch l = launch_panel_->matmulLaunch();
        const Dim3 g = matmul_grid(l, r.c.rows, r.c.cols);
        launch_panel_->showMatmulStats(
            tr("<table><tr><td>Kernel</td><td align=right><b>%1</b></td></tr>"
               "<tr><td>Grid</td><td align=right><b>%2 × %3</b> blocks of %4 × %5</td></tr>"
               "<tr><td>Output</td><td align=right>%6 × %7, K = %8</td></tr></table>")
                .arg(QString::fromStdString(to_string(l)))
                .arg(g.x).arg(g.y).arg(l.block_shape().x).arg(l.block_shape().y)
                .arg(r.c.rows).arg(r.c.cols).arg(r.k));
        refreshMatmulTimeline();
    });

    session_->setDevice(occupancy_panel_->profile());
    occupancy_panel_->setBlock(grayscale_block_resources(session_->shape()));
    launch_panel_->setShape(session_->shape());
    onPlanChanged();
    onFrameChanged();
}

// Builds both views for the current display path, replacing any there were; the images stay.
void MainWindow::installViews() {
    for (int i = 0; i < 2; ++i) {
        if (views_[i]) {
            QWidget* old = views_[i]->widget();
            panel_layouts_[i]->removeWidget(old);
            old->hide();
            old->deleteLater();  // it may be the sender of the failure being handled
        }
        if (display_.path == DisplayPath::OpenGL) {
            auto* view = new ImageView(transform_);
            connect(view, &ImageView::failed, this, &MainWindow::switchToRaster, Qt::QueuedConnection);
            if (i == 1) {
                connect(view, &ImageView::displayPathChanged, this, [this, view](const QString& text) {
                    display_label_->setText(tr("Display: OpenGL \u00B7 %1").arg(text));
                    display_label_->setToolTip(view->interopRefusals().join(QLatin1Char('\n')));
                });
                connect(view, &ImageView::interopError, this, &MainWindow::showError);
            }
            connect(view, &ImageView::downscaled, this, [this](const QString& message) { setStatus(message); });
            views_[i] = view;
        } else {
            views_[i] = new RasterImageView(transform_);
        }
        QWidget* widget = views_[i]->widget();
        widget->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        widget->setFocusPolicy(Qt::ClickFocus);
        widget->installEventFilter(this);  // refit on resize
        panel_layouts_[i]->addWidget(widget, 1);
        connectView(views_[i]);
    }
    views_[0]->setImage(original_);
    views_[1]->setImage(result_);
    feedInterop();
    views_[1]->setSourceImage(original_);  // what the animation shows for blocks not yet done
    for (ImageSurface* view : views_) view->setOverlay(overlay_);
    display_label_->setText(tr("Display: %1").arg(to_string(display_.path)));
    display_label_->setToolTip(display_.reason);
    feedInterop();
}

// Hover shows a pixel's thread in the inspector; a click keeps it (and picks the block whose warps
// the Warps animation steps through).
void MainWindow::connectView(ImageSurface* view) {
    auto* navigator = view->widget()->findChild<ViewNavigator*>();
    if (!navigator) return;
    auto to_pixel = [view](QPointF widget_pos) {
        const QPointF p = view->widgetToImage(widget_pos);
        return QPoint(int(std::floor(p.x())), int(std::floor(p.y())));
    };
    connect(navigator, &ViewNavigator::hovered, this, [this, to_pixel](QPointF pos) { inspectPixel(to_pixel(pos), false); });
    connect(navigator, &ViewNavigator::clicked, this, [this, to_pixel](QPointF pos) { inspectPixel(to_pixel(pos), true); });
    connect(navigator, &ViewNavigator::left, this, [this] {
        hovered_pixel_ = QPoint(-1, -1);
        refreshInspector();  // back to the pinned pixel
    });
}

void MainWindow::switchToRaster(const QString& reason) {
    if (display_.path == DisplayPath::Raster) return;  // both views report; switch once
    display_ = {DisplayPath::Raster, reason};
    installViews();
    setStatus(tr("%1; drawing with the raster fallback").arg(reason), true);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1500, 900);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    splitter_->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());

    const int layout = layout_box_->findData(settings.value(QStringLiteral("run/layout")).toString());
    if (layout >= 0) layout_box_->setCurrentIndex(layout);
    shape_box_->setShapeText(settings.value(QStringLiteral("run/block"), shape_box_->shapeText()).toString());
    session_->setShape(shape_box_->shape());
    overlay_panel_->setColoring(OverlayColoring(
        settings.value(QStringLiteral("overlay/coloring"), int(OverlayColoring::Block)).toInt()));
    overlay_panel_->setOpacity(settings.value(QStringLiteral("overlay/opacity"), 0.45).toDouble());
    overlay_panel_->setShowIdle(settings.value(QStringLiteral("overlay/showIdle"), true).toBool());
    overlay_action_->setChecked(settings.value(QStringLiteral("overlay/enabled"), true).toBool());
    const int backend = backend_box_->findData(settings.value(QStringLiteral("run/backend")).toString());
    // A remembered CUDA choice on a machine without a device falls back to Auto.
    if (backend >= 0 && (backend != 2 || cuda_device_available())) backend_box_->setCurrentIndex(backend);

    // The matmul launch; the page runs it once, now.
    {
        MatmulLaunch l = MatmulLaunch::naive(16, 16);
        const LaunchConfigParse block = parse_launch_config(settings.value(QStringLiteral("matmul/block"), "16x16").toString());
        if (block.ok() && block.shape.kind == GridKind::TwoD) l.block = block.shape.block;
        const unsigned tile = settings.value(QStringLiteral("matmul/tile"), 16).toUInt();
        l.tile = (tile == 8 || tile == 32) ? tile : 16;
        if (settings.value(QStringLiteral("matmul/kernel")).toString() == QLatin1String("tiled")) l.kernel = MatmulKernel::Tiled;
        launch_panel_->setMatmulLaunch(l);
        matmul_page_->setBackend(parse_backend_choice(backend_box_->currentData().toString()).value_or(BackendChoice::Auto));
        matmul_page_->setLaunch(l);
    }

    // Connected after restoring, so that restoring does not start runs.
    connect(layout_box_, &QComboBox::currentIndexChanged, this, [this] {
        saveRunSettings();
        refreshInspector();
        feedInterop();
        requestRun();
    });
    connect(backend_box_, &QComboBox::currentIndexChanged, this, [this] {
        saveRunSettings();
        feedInterop();
        requestRun();
        matmul_page_->setBackend(parse_backend_choice(backend_box_->currentData().toString()).value_or(BackendChoice::Auto));
    });
    connect(shape_box_, &LaunchShapeBox::shapeChosen, session_, &LaunchSession::setShape);
    connect(session_, &LaunchSession::shapeChanged, this, [this] {
        saveRunSettings();
        requestRun();
    });
    connect(shape_box_, &LaunchShapeBox::invalidShape, this,
            [this](const QString& error) { setStatus(tr("Block shape not run: %1").arg(error), true); });
}

void MainWindow::saveRunSettings() const {
    // The window's long-lived QSettings: a temporary one writes the file in its destructor, on
    // every slider step; this one is written from the event loop, once for a burst of changes.
    settings_->setValue(QStringLiteral("run/layout"), layout_box_->currentData());
    settings_->setValue(QStringLiteral("run/block"), QString::fromStdString(to_string(session_->shape())));
    settings_->setValue(QStringLiteral("run/backend"), backend_box_->currentData());
}

// ---- files --------------------------------------------------------------------------------------

void MainWindow::openDialog() {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("files/lastDir"), QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Image"), dir, imageFileFilter());
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openFile(const QString& path) {
    const quint64 serial = ++load_serial_;
    setStatus(tr("Opening %1...").arg(display_name(path)));
    busy_->show();  // at once; the worker's busyChanged follows
    jobs_->submit(kLoadTag, this, [this, path, serial]() -> JobRunner::Continuation {
        // Worker thread: decode only; the window is touched in the continuation, on the GUI thread.
        LoadedImage loaded = load_image(path);
        return [this, path, serial, loaded] { onLoaded(path, serial, loaded); };
    });
}

void MainWindow::onLoaded(const QString& path, quint64 serial, const LoadedImage& loaded) {
    if (serial != load_serial_) return;  // a newer open request is on its way
    if (!loaded.ok()) {
        showError(loaded.error);
        if (!QFileInfo::exists(path)) recent_->remove(path);
        if (original_.isNull() && path != sampleFile()) openFile(sampleFile());  // never an empty window
        return;
    }
    current_file_ = path;
    original_ = loaded.rgb;
    result_ = QImage();
    ++image_serial_;
    views_[0]->setImage(original_);
    views_[1]->setImage(result_);
    feedInterop();
    views_[1]->setSourceImage(original_);
    transform_->setImageSize(original_.size());
    hovered_pixel_ = QPoint(-1, -1);
    session_->select(QPoint(-1, -1));
    session_->setImageSize(original_.size());
    chooseSplitterOrientation();
    zoomToFit();
    if (!is_resource(path)) recent_->add(path);
    setWindowTitle(tr("%1 \u2014 cudaviz").arg(display_name(path)));
    updateImageLabel();
    requestRun();
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
            openFile(url.toLocalFile());  // the first image only: the window shows one
            event->acceptProposedAction();
            return;
        }
    }
}

// ---- kernel runs --------------------------------------------------------------------------------

void MainWindow::requestRun() {
    if (original_.isNull()) return;
    const quint64 serial = ++run_serial_;
    const quint64 image_serial = image_serial_;
    const QImage input = original_;  // shared, read-only on the worker
    const PixelLayout layout = layout_box_->currentData().toString() == QLatin1String("planar")
                                   ? PixelLayout::Planar
                                   : PixelLayout::Interleaved;
    const LaunchShape shape = session_->shape();
    const BackendChoice backend =
        parse_backend_choice(backend_box_->currentData().toString()).value_or(BackendChoice::Auto);

    busy_->show();
    jobs_->submit(kRunTag, this, [=]() -> JobRunner::Continuation {
        // Worker thread.
        GrayscaleRequest request;
        request.input = to_rgb_buffer(input);
        request.layout = layout;
        request.shape = shape;
        request.backend = backend;
        GrayscaleResult result = run_grayscale(request);
        QImage gray;
        if (result.status) gray = gray_to_qimage(result.gray, result.width, result.height);
        result.gray = {};  // the QImage holds the pixels now
        return [this, serial, image_serial, result, gray] { onRunFinished(serial, image_serial, result, gray); };
    });
}

void MainWindow::onRunFinished(quint64 serial, quint64 image_serial, const GrayscaleResult& result,
                               const QImage& gray) {
    // A result for an image no longer shown, or older than the one on screen, is dropped.
    if (image_serial != image_serial_ || serial < shown_serial_) return;
    shown_serial_ = serial;
    if (!result.status) {
        showError(tr("The kernel did not run: %1").arg(QString::fromStdString(result.status.message())));
        return;  // the previous result stays on screen
    }
    result_ = gray;
    views_[1]->setImage(result_);
    ++completed_runs_;
    refreshInspector();  // it shows the kernel's byte for the pixel
    setStatus(result.summary());
}

// ---- view ---------------------------------------------------------------------------------------

void MainWindow::zoomIn() { transform_->zoomBy(ViewTransform::kStep); }

void MainWindow::zoomOut() { transform_->zoomBy(1 / ViewTransform::kStep); }

void MainWindow::zoomToFit() {
    // Both views show the same region: fit the smaller one.
    const QSize a = views_[0]->widget()->size();
    const QSize b = views_[1]->widget()->size();
    // With the grid shown past the image, fit the whole grid: the idle threads stay in view.
    const QSize content = overlay_.decorates() ? overlay_.extent() : original_.size();
    transform_->fitTo(QSizeF(std::min(a.width(), b.width()), std::min(a.height(), b.height())),
                      QSizeF(content.isEmpty() ? original_.size() : content));
}

void MainWindow::zoomToActualSize() { transform_->setZoom(1); }

// ---- launch, overlay, animation, inspector ------------------------------------------------------

void MainWindow::onShapeChanged() {
    // Both editors show the session's shape; their own signals are not re-emitted.
    const LaunchShape shape = session_->shape();
    const LaunchShape shown = shape_box_->shape();
    if (shown.kind != shape.kind || !(shown.block == shape.block)) {  // not when the box made the change
        const QSignalBlocker block(shape_box_);
        shape_box_->setShapeText(QString::fromStdString(to_string(shape)));
    }
    {
        const QSignalBlocker block(launch_panel_);
        launch_panel_->setShape(shape);
    }
    if (!matricesShown()) occupancy_panel_->setBlock(grayscale_block_resources(shape));
    if (auto* view = qobject_cast<ImageView*>(views_[1] ? views_[1]->widget() : nullptr)) view->setInteropShape(shape);
}

void MainWindow::onPlanChanged() {
    if (session_->hasPlan()) launch_panel_->showPlan(session_->plan());
    sm_panel_->setPlan(session_->waves());
    if (matricesShown()) return;  // the timeline belongs to the matrices then
    const AnimationMode mode = session_->animationMode();
    const std::uint64_t steps = session_->animationSteps();
    timeline_->setSteps(int(std::min<std::uint64_t>(std::max<std::uint64_t>(1, steps), INT_MAX)),
                        mode == AnimationMode::Warps ? tr("warp") : tr("wave"));
    timeline_->setEnabled(session_->hasPlan());
    refreshInspector();
    // The session follows every planChanged with frameChanged: the views update there.
}

void MainWindow::onFrameChanged() {
    const AnimationFrame frame = session_->frame();
    const WavePlan& waves = session_->waves();
    if (matricesShown()) {
        pushOverlay();
        return;
    }
    if (timeline_->position() != int(session_->animationPosition()))
        timeline_->setPosition(int(session_->animationPosition()));
    sm_panel_->setWave(frame.mode == AnimationMode::Off ? waves.waves : frame.wave);
    sm_panel_->setHighlightBlock(frame.mode == AnimationMode::Warps ? frame.block : session_->selectedBlock());
    QString label;
    switch (frame.mode) {
        case AnimationMode::Off: label = tr("Pick an animation, or press Space"); break;
        case AnimationMode::Waves:
            label = frame.wave >= waves.waves
                        ? tr("All %1 blocks done, %2 waves").arg(waves.blocks).arg(waves.waves)
                        : tr("Wave %1 of %2: blocks %3\u2013%4 run, %5 done")
                              .arg(frame.wave + 1)
                              .arg(waves.waves)
                              .arg(frame.done_end)
                              .arg(frame.run_end - 1)
                              .arg(frame.done_end);
            break;
        case AnimationMode::Warps: {
            const std::uint64_t warps = session_->plan().warps_per_block;
            label = frame.warp_done_end >= warps
                        ? tr("Block %1: all %2 warps done").arg(frame.block).arg(warps)
                        : tr("Block %1: warp %2 of %3 (threads %4\u2013%5)")
                              .arg(frame.block)
                              .arg(frame.warp_done_end)
                              .arg(warps)
                              .arg(frame.warp_done_end * 32)
                              .arg(std::min<std::uint64_t>((frame.warp_done_end + 1) * 32, session_->plan().threads_per_block) - 1);
            break;
        }
    }
    timeline_->setLabel(label);
    sm_caption_->setText(sm_panel_->caption());
    pushOverlay();
}

void MainWindow::pushOverlay() {
    OverlayState state;
    overlay_panel_->apply(&state);
    state.plan = session_->plan();
    state.animation = session_->frame();
    state.selected_block = session_->selectedBlock();
    state.selected_pixel = session_->selectedPixel();
    const QSize old_extent = overlay_.decorates() ? overlay_.extent() : original_.size();
    overlay_ = state;
    for (ImageSurface* view : views_)
        if (view) view->setOverlay(overlay_);
    legend_->setState(overlay_);
    const QSize extent = overlay_.decorates() ? overlay_.extent() : original_.size();
    if (extent != old_extent && !original_.isNull() && transform_->fitting()) zoomToFit();
}

// The result view's real display path (invariant 4): with a CUDA device and NVIDIA GL the kernel
// writes the view's texture through CUDA-GL interop; otherwise the view shows the worker's result.
// The CPU backend is shown as computed by the emulator, so it takes no interop source.
void MainWindow::feedInterop() {
    auto* view = qobject_cast<ImageView*>(views_[1] ? views_[1]->widget() : nullptr);
    if (!view) return;
    const BackendChoice backend = parse_backend_choice(backend_box_->currentData().toString()).value_or(BackendChoice::Auto);
    if (!cuda_device_available() || backend == BackendChoice::Cpu || original_.isNull()) {
        view->clearInteropSource();
        return;
    }
    view->setInteropShape(session_->shape());
    view->setInteropSource(to_rgb_buffer(original_), pixelLayout());
}

bool MainWindow::matricesShown() const { return tabs_ && tabs_->currentWidget() == matmul_page_; }

void MainWindow::onTabChanged() {
    const bool mm = matricesShown();
    launch_panel_->setKernel(mm ? PanelKernel::Matmul : PanelKernel::Grayscale);
    animation_box_->setEnabled(!mm);  // the matrices have one animation: the kernel's own steps
    layout_box_->setEnabled(!mm);     // pixel layout and the image's block box are the image's
    shape_box_->setEnabled(!mm);
    // Each tab's last message comes back with it.
    if (mm) {
        image_status_ = status_label_->text();
        setStatus(matmul_status_);
    } else if (!image_status_.isEmpty()) {
        setStatus(image_status_);
    }
    if (mm) {
        occupancy_panel_->setBlock(matmul_block_resources(launch_panel_->matmulLaunch()));
        refreshMatmulTimeline();
    } else {
        occupancy_panel_->setBlock(grayscale_block_resources(session_->shape()));
        onPlanChanged();
        onFrameChanged();
    }
}

void MainWindow::onMatmulLaunchChanged(const MatmulLaunch& launch) {
    matmul_page_->setLaunch(launch);
    if (matricesShown()) occupancy_panel_->setBlock(matmul_block_resources(launch));
    settings_->setValue(QStringLiteral("matmul/kernel"), launch.kernel == MatmulKernel::Tiled ? "tiled" : "naive");
    settings_->setValue(QStringLiteral("matmul/block"), QStringLiteral("%1x%2").arg(launch.block.x).arg(launch.block.y));
    settings_->setValue(QStringLiteral("matmul/tile"), launch.tile);
}

void MainWindow::refreshMatmulTimeline() {
    if (!matricesShown()) return;
    timeline_->setSteps(matmul_page_->animationSteps(), matmul_page_->animationUnit());
    timeline_->setEnabled(true);
    if (timeline_->position() != matmul_page_->animationPosition()) timeline_->setPosition(matmul_page_->animationPosition());
    timeline_->setLabel(matmul_page_->animationCaption());
}

void MainWindow::openSweep() {
    if (!sweep_) {
        sweep_ = new SweepDialog(jobs_.get(), this);
        sweep_->setObjectName(QStringLiteral("sweepDialog"));
        connect(sweep_, &SweepDialog::shapeChosen, session_, &LaunchSession::setShape);
        connect(sweep_, &SweepDialog::matmulLaunchChosen, launch_panel_, &LaunchPanel::setMatmulLaunch);
    }
    if (matricesShown()) {
        if (matmul_page_->matrixA() && matmul_page_->matrixB())
            sweep_->setMatrices(*matmul_page_->matrixA(), *matmul_page_->matrixB(), tr("current matrices"));
        sweep_->setKernel(SweepKernel::Matmul);
    } else {
        sweep_->setImage(original_, pixelLayout(), display_name(current_file_));
        sweep_->setKernel(SweepKernel::Grayscale);
    }
    sweep_->show();
    sweep_->raise();
    sweep_->activateWindow();
}

void MainWindow::togglePlay() {
    if (matricesShown()) {
        timeline_->togglePlay();
        return;
    }
    // Playing with no animation chosen plays the waves.
    if (session_->animationMode() == AnimationMode::Off)
        animation_box_->setCurrentIndex(animation_box_->findData(int(AnimationMode::Waves)));
    timeline_->togglePlay();
}

PixelLayout MainWindow::pixelLayout() const {
    return layout_box_->currentData().toString() == QLatin1String("planar") ? PixelLayout::Planar
                                                                            : PixelLayout::Interleaved;
}

void MainWindow::inspectPixel(QPoint pixel, bool pin) {
    if (pin) {
        session_->select(pixel);
        hovered_pixel_ = QPoint(-1, -1);
    } else {
        hovered_pixel_ = pixel;
    }
    refreshInspector();
}

void MainWindow::refreshInspector() {
    if (!inspector_) return;
    const QPoint pixel = hovered_pixel_.x() >= 0 ? hovered_pixel_ : session_->selectedPixel();
    if (!session_->hasPlan() || pixel.x() < 0 || pixel.y() < 0) {
        inspector_->showHint(tr("Hover over a pixel, or click one to keep it, to see which thread made it."));
        return;
    }
    const bool inside = QRect(QPoint(0, 0), original_.size()).contains(pixel);
    std::uint8_t rgb[3] = {0, 0, 0};
    if (inside) {
        const QRgb c = original_.pixel(pixel);
        rgb[0] = std::uint8_t(qRed(c));
        rgb[1] = std::uint8_t(qGreen(c));
        rgb[2] = std::uint8_t(qBlue(c));
    }
    const int output = inside && result_.size() == original_.size() ? qGray(result_.pixel(pixel)) : -1;
    inspector_->showPixel(inspect_pixel(session_->plan(), pixelLayout(), pixel.x(), pixel.y(), rgb), session_->plan(),
                          pixelLayout(), session_->waves(), output);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == image_page_) chooseSplitterOrientation();
    if (event->type() == QEvent::Resize && transform_->fitting()) {
        for (ImageSurface* view : views_)
            if (view && view->widget() == watched) zoomToFit();
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/splitter"), splitter_->saveState());
    QMainWindow::closeEvent(event);
}

// ---- status -------------------------------------------------------------------------------------

QString MainWindow::statusText() const { return status_label_->text(); }

void MainWindow::setStatus(const QString& text, bool error) {
    status_label_->setText(text);
    status_label_->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

void MainWindow::showError(const QString& text) {
    setStatus(text, true);
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

void MainWindow::updateImageLabel() {
    image_label_->setText(
        tr("%1  %2\u00D7%3").arg(display_name(current_file_)).arg(original_.width()).arg(original_.height()));
    image_label_->setToolTip(QDir::toNativeSeparators(current_file_));
}

void MainWindow::updateZoomLabel() {
    zoom_label_->setText(tr("Zoom %1%").arg(transform_->zoom() * 100, 0, 'f', transform_->zoom() < 0.1 ? 1 : 0));
}

}  // namespace cvz
