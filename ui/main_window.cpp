#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

#include "app/backend_choice.h"
#include "app/grayscale_runner.h"
#include "app/image_loader.h"
#include "app/job_runner.h"
#include "app/rgb_buffer.h"
#include "image_surface.h"
#include "image_view.h"
#include "launch_shape_box.h"
#include "raster_image_view.h"
#include "recent_files.h"
#include "view_transform.h"

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
    setAcceptDrops(true);
    transform_ = new ViewTransform(this);
    connect(transform_, &ViewTransform::zoomChanged, this, &MainWindow::updateZoomLabel);

    createActions();
    createToolBar();
    createCentralWidget();
    createStatusBar();
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

    QMenu* run_menu = menuBar()->addMenu(tr("&Run"));
    QAction* again = run_menu->addAction(tr("Run &Again"), this, &MainWindow::requestRun);
    again->setShortcut(QKeySequence(Qt::Key_F5));
    again->setToolTip(tr("Run the kernel again with the same settings (to re-time it)"));

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
    splitter_ = new QSplitter(Qt::Horizontal, this);
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
    setCentralWidget(splitter_);
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
            connect(view, &ImageView::downscaled, this, [this](const QString& message) { setStatus(message); });
            views_[i] = view;
        } else {
            views_[i] = new RasterImageView(transform_);
        }
        QWidget* widget = views_[i]->widget();
        widget->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        widget->installEventFilter(this);  // refit on resize
        panel_layouts_[i]->addWidget(widget, 1);
    }
    views_[0]->setImage(original_);
    views_[1]->setImage(result_);
    display_label_->setText(tr("Display: %1").arg(to_string(display_.path)));
    display_label_->setToolTip(display_.reason);
}

void MainWindow::switchToRaster(const QString& reason) {
    if (display_.path == DisplayPath::Raster) return;  // both views report; switch once
    display_ = {DisplayPath::Raster, reason};
    installViews();
    setStatus(tr("%1; drawing with the raster fallback").arg(reason), true);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1200, 700);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    splitter_->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());

    const int layout = layout_box_->findData(settings.value(QStringLiteral("run/layout")).toString());
    if (layout >= 0) layout_box_->setCurrentIndex(layout);
    shape_box_->setShapeText(settings.value(QStringLiteral("run/block"), shape_box_->shapeText()).toString());
    const int backend = backend_box_->findData(settings.value(QStringLiteral("run/backend")).toString());
    // A remembered CUDA choice on a machine without a device falls back to Auto.
    if (backend >= 0 && (backend != 2 || cuda_device_available())) backend_box_->setCurrentIndex(backend);

    // Connected after restoring, so that restoring does not start runs.
    connect(layout_box_, &QComboBox::currentIndexChanged, this, [this] {
        saveRunSettings();
        requestRun();
    });
    connect(backend_box_, &QComboBox::currentIndexChanged, this, [this] {
        saveRunSettings();
        requestRun();
    });
    connect(shape_box_, &LaunchShapeBox::shapeChosen, this, [this] {
        saveRunSettings();
        requestRun();
    });
    connect(shape_box_, &LaunchShapeBox::invalidShape, this,
            [this](const QString& error) { setStatus(tr("Block shape not run: %1").arg(error), true); });
}

void MainWindow::saveRunSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("run/layout"), layout_box_->currentData());
    settings.setValue(QStringLiteral("run/block"), shape_box_->shapeText());
    settings.setValue(QStringLiteral("run/backend"), backend_box_->currentData());
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
    transform_->setImageSize(original_.size());
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
    const LaunchShape shape = shape_box_->shape();
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
    setStatus(result.summary());
}

// ---- view ---------------------------------------------------------------------------------------

void MainWindow::zoomIn() { transform_->zoomBy(ViewTransform::kStep); }

void MainWindow::zoomOut() { transform_->zoomBy(1 / ViewTransform::kStep); }

void MainWindow::zoomToFit() {
    // Both views show the same region: fit the smaller one.
    const QSize a = views_[0]->widget()->size();
    const QSize b = views_[1]->widget()->size();
    transform_->fitTo(QSizeF(std::min(a.width(), b.width()), std::min(a.height(), b.height())));
}

void MainWindow::zoomToActualSize() { transform_->setZoom(1); }

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
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
