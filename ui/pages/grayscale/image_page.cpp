#include "app/grayscale/grayscale_resources.h"
#include "app/jobs/counted.h"
#include "ui/pages/grayscale/image_page.h"

#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

#include "app/grayscale/grayscale_choice.h"
#include "app/grayscale/gray_output.h"
#include "app/models/kernel_resources.h"
#include "app/models/launch_config.h"
#include "app/trace/memory_trace_session.h"
#include "app/models/overlay_geometry.h"
#include "app/models/unit_extent.h"
#include "kernels/catalogue/gpu_counter_notes.h"
#include "kernels/emulator/emulate.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/grayscale/pixel_inspection.h"
#include "app/io/rgb_buffer.h"
#include "kernels/grayscale/grayscale_user_call.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/launch_plan_html.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/overlay_panel.h"
#include "ui/panels/sm_panel.h"
#include "ui/pages/trace_docks.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/image_surface.h"
#include "ui/views/image_view.h"
#include "ui/views/overlay_legend.h"
#include "ui/views/raster_image_view.h"
#include "ui/views/trace_presentation.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"
#include "app/tuning/prediction_session.h"
#include "ui/windows/animation_export.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"

namespace cvz {

namespace {

const char* layout_name(PixelLayout layout) { return layout == PixelLayout::Planar ? "planar" : "interleaved"; }

bool reads(const KernelInfo& info, PixelLayout layout) {
    return std::find(info.layouts.begin(), info.layouts.end(), layout_name(layout)) != info.layouts.end();
}

bool is_resource(const QString& path) { return path.startsWith(QLatin1Char(':')); }

QString display_name(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    return is_resource(path) ? QObject::tr("%1 (sample)").arg(name) : name;
}

}  // namespace

ImagePage::ImagePage(JobRunner* jobs, const DisplayPathChoice& display, QWidget* parent)
    : PicturePairPage(display, parent), session_(new GrayscaleSession(jobs, this)) {
    setObjectName(QStringLiteral("imagePage"));
    buildLaunchExtras();
    buildPictures(tr("Original"), tr("Grayscale (kernel output)"), QStringLiteral("viewSplitter"));
    captions_[0]->setWordWrap(false);
    captions_[1]->setObjectName(QStringLiteral("resultCaption"));
    installEventFilter(this);  // side by side or stacked, by the page's shape
    // Esc lets go of the pinned pixel while the keyboard is anywhere in the page.
    auto* clear = new QShortcut(QKeySequence(Qt::Key_Escape), this, this, &ImagePage::clearSelection,
                                Qt::WidgetWithChildrenShortcut);
    clear->setObjectName(QStringLiteral("clearSelectionShortcut"));

    connect(session_, &GrayscaleSession::imageChanged, this, &ImagePage::onImageChanged);
    connect(session_, &GrayscaleSession::loadFailed, this, [this](const QString& path, const QString& error) {
        setStatus(error, true);
        emit errorRaised(error);
        emit openFailed(path, error);
        if (session_->image().isNull() && path != sampleFile()) openFile(sampleFile());  // never an empty page
    });
    connect(session_, &GrayscaleSession::runStarted, this, &KernelPage::workStarted);
    connect(session_, &GrayscaleSession::runFinished, this, &ImagePage::onRunFinished);
    connect(session_, &GrayscaleSession::runFailed, this, [this](const QString& error) {
        const QString text = tr("The kernel did not run: %1").arg(error);
        setStatus(text, true);
        emit errorRaised(text);  // the previous result stays on screen
    });
    connect(session_, &GrayscaleSession::shapeChanged, this, [this] {
        if (settings_) settings_->setValue(QStringLiteral("run/block"), QString::fromStdString(to_string(session_->shape())));
        showShape();
    });
    connect(session_, &GrayscaleSession::layoutChanged, this, [this](PixelLayout layout) {
        if (settings_) settings_->setValue(QStringLiteral("run/layout"), layout == PixelLayout::Planar ? "planar" : "interleaved");
        refreshInspector();
        showShape();
    });
    connect(session_, &GrayscaleSession::planChanged, this, &ImagePage::showPlan);
    connect(session_, &GrayscaleSession::frameChanged, this, &ImagePage::showFrame);

    trace_ = new MemoryTraceSession(jobs, this);
    trace_docks_ = new TraceDocks(trace_, this);
    // A kernel run wants the worker: a trace of the launch it replaces stops; the run's end traces anew.
    connect(session_, &GrayscaleSession::runStarted, trace_, &MemoryTraceSession::cancel);
    connect(trace_, &MemoryTraceSession::traceChanged, this, &ImagePage::showTracedWarp);

    prediction_ = new PredictionSession(this);
    connect(session_, &GrayscaleSession::planChanged, this, &ImagePage::predict);
    connect(session_, &GrayscaleSession::layoutChanged, this, &ImagePage::predict);
    connect(session_, &GrayscaleSession::imageChanged, this, &ImagePage::predict);
    connect(prediction_, &PredictionSession::predictionChanged, this, &ImagePage::showTimes);
}

QString ImagePage::sampleFile() { return QStringLiteral(":/samples/chelsea.png"); }

bool ImagePage::resultShown() const { return session_->completedRuns() >= 1 && !session_->running(); }

QString ImagePage::title() const { return tr("&Image: RGB → grayscale"); }

PageDocks::Docks ImagePage::docksUsed() const {
    return PageDocks::Launch | PageDocks::Overlay | PageDocks::Inspector | PageDocks::Occupancy | PageDocks::Sms |
           PageDocks::Timeline | PageDocks::Source | PageDocks::Memory;
}

QString ImagePage::documentText() const {
    const QImage image = session_->image();
    const double zoom = transform_->zoom();
    return tr("%1  %2\u00D7%3   Zoom %4%")
        .arg(display_name(session_->file()))
        .arg(image.width())
        .arg(image.height())
        .arg(zoom * 100, 0, 'f', zoom < 0.1 ? 1 : 0);
}

QString ImagePage::documentToolTip() const { return QDir::toNativeSeparators(session_->file()); }

void ImagePage::setBackend(BackendChoice backend) { session_->setBackend(backend); }

void ImagePage::setDevice(const DeviceProfile& device) { session_->setDevice(device); }

void ImagePage::runAgain() { session_->requestRun(); }

void ImagePage::togglePlay() {
    if (!isBound()) return;
    // Playing with no animation chosen plays the waves.
    if (session_->animationMode() == AnimationMode::Off) {
        QComboBox* mode = docks().animation_mode;
        mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
    }
    docks().timeline->togglePlay();
}

void ImagePage::restoreSettings(QSettings* settings) {
    settings_ = nullptr;  // restoring writes nothing back
    const QString layout = settings->value(QStringLiteral("run/layout")).toString();
    session_->setLayout(layout == QLatin1String("planar") ? PixelLayout::Planar : PixelLayout::Interleaved);
    const LaunchConfigParse block = parse_launch_config(settings->value(QStringLiteral("run/block"), "16x16").toString());
    if (block.ok()) session_->setShape(block.shape);
    const QByteArray splitter = settings->value(QStringLiteral("window/splitter")).toByteArray();
    splitter_->restoreState(splitter);
    settings_ = settings;
}

void ImagePage::saveSettings(QSettings* settings) const {
    settings->setValue(QStringLiteral("window/splitter"), splitter_->saveState());
}

// ---- the document -------------------------------------------------------------------------------

void ImagePage::openFile(const QString& path) {
    setStatus(tr("Opening %1...").arg(display_name(path)));
    session_->openFile(path);
    emit workStarted();
}

void ImagePage::onImageChanged() {
    const QImage original = session_->image();
    views_[0]->setImage(original);
    views_[1]->setImage(QImage());
    views_[1]->setSourceImage(original);  // what the animation shows for blocks not yet done
    transform_->setImageSize(original.size());
    hovered_pixel_ = QPoint(-1, -1);
    chooseSplitterOrientation();
    zoomToFit();
    emit documentChanged();
    emit fileOpened(session_->file());
}

void ImagePage::onRunFinished(const GrayscaleResult& result) {
    traceLaunch();
    views_[1]->setImage(session_->result());
    refreshInspector();  // it shows the kernel's byte for the pixel
    run_summary_ = result.summary();
    run_status_ = with_prediction(run_summary_, prediction_->prediction());
    setStatus(run_status_);
    showTimes();
}

void ImagePage::predict() {
    const QSize size = session_->imageSize();
    if (size.isEmpty()) {
        prediction_->clear(tr("no image"));
        return;
    }
    prediction_->predict(session_->device(),
                         make_grayscale_problem(std::uint32_t(size.width()), std::uint32_t(size.height()), session_->layout()),
                         grayscale_choice(session_->shape()));
    if (prediction_->pending()) showTimes();
}

void ImagePage::showTimes() {
    const GrayscaleResult& last = session_->lastResult();
    const GpuPrediction& p = prediction_->prediction();
    if (isBound())
        docks().launch->showTimes(launch_times_html(p, prediction_->pending(), last.status ? &last.times : nullptr),
                                  prediction_details(p));
    // The status line follows while it still shows the last run.
    if (!run_summary_.isEmpty() && !prediction_->pending() && statusText() == run_status_) {
        run_status_ = with_prediction(run_summary_, p);
        setStatus(run_status_);
    }
}

// ---- views --------------------------------------------------------------------------------------

// The output view on OpenGL says how its pixels reach the screen (the display path) and what went
// wrong with interop; either view says when it shows a picture downscaled.
void ImagePage::viewInstalled(int index, ImageSurface* surface) {
    auto* view = qobject_cast<ImageView*>(surface->widget());
    if (!view) return;
    if (index == 1) {
        connect(view, &ImageView::displayPathChanged, this, [this, view](const QString& text) {
            setDisplayText(tr("Display: OpenGL \u00B7 %1").arg(text), view->interopRefusals().join(QLatin1Char('\n')));
        });
        connect(view, &ImageView::interopError, this, [this](const QString& error) {
            setStatus(error, true);
            emit errorRaised(error);
        });
    }
    connect(view, &ImageView::downscaled, this, [this](const QString& message) { setStatus(message); });
}

void ImagePage::viewsInstalled() {
    setDisplayText(tr("Display: %1").arg(to_string(display_.path)), display_.reason);
    bindFrameSink();
}

void ImagePage::setDisplayText(const QString& text, const QString& tooltip) {
    display_text_ = text;
    display_tooltip_ = tooltip;
    emit displayChanged();
}

// Side by side when the area is wide, one above the other when it is tall: whichever shows the
// image larger. Decided on resize and on loading, not when the block shape changes the grid's
// extent: a flip relayouts both views (and their framebuffers), too slow for every slider step.
void ImagePage::chooseSplitterOrientation() {
    const QSize area = splitter_->size();
    const QSize content = session_->imageSize();
    if (content.isEmpty() || area.isEmpty()) return;
    const double beside = ViewTransform::fitZoom(content, QSizeF(area.width() / 2.0, area.height()));
    const double stacked = ViewTransform::fitZoom(content, QSizeF(area.width(), area.height() / 2.0));
    const Qt::Orientation want = stacked > beside * 1.1 ? Qt::Vertical : Qt::Horizontal;  // some hysteresis
    if (want == splitter_->orientation()) return;
    splitter_->setOrientation(want);
    splitter_->setSizes({1000, 1000});
}

// The result view's real display path (invariant 4): the GL result view is the session's frame sink,
// so with the CUDA backend and an interop path the change's one run writes the view's texture; the
// raster view (no GL) takes host results only. The CPU backend's runs stay on the worker (the session
// decides), and their host result is what the view shows.
void ImagePage::bindFrameSink() {
    auto* view = qobject_cast<ImageView*>(views_[1] ? views_[1]->widget() : nullptr);
    session_->setFrameSink(view);
}

bool ImagePage::zoomToBlock() {
    const std::int64_t block = session_->selectedBlock() >= 0 ? session_->selectedBlock() : hoveredBlock();
    if (block < 0) {
        setStatus(tr("Zoom to Block: click a block first (or point at one)"));
        return false;
    }
    frame(block_extent(session_->plan(), std::uint64_t(block)));
    return true;
}

bool ImagePage::zoomToWarp() {
    const QPoint pinned = session_->selectedPixel();
    const QPoint pixel = pinned.x() >= 0 ? pinned : hovered_pixel_;
    const GridCell cell = session_->hasPlan() && pixel.x() >= 0 ? grid_cell(session_->plan(), pixel.x(), pixel.y()) : GridCell{};
    if (!cell.in_grid) {
        setStatus(tr("Zoom to Warp: click a pixel first (or point at one)"));
        return false;
    }
    frame(warp_extent(session_->plan(), cell.thread.linear_block, cell.thread.warp));
    return true;
}

bool ImagePage::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == this) chooseSplitterOrientation();
    return PicturePairPage::eventFilter(watched, event);
}

// ---- the docks ----------------------------------------------------------------------------------

void ImagePage::onBind(const PageDocks& d) {
    d.launch->setFamily(KernelFamily::Grayscale);
    {
        const QSignalBlocker block(d.launch);
        d.launch->setChoice(shownChoice());
    }
    d.launch->setExtraControls(launch_extras_);
    keep(connect(d.launch, &LaunchPanel::choiceChanged, this, &ImagePage::onLaunchChosen));
    keep(connect(d.launch, &LaunchPanel::invalidShape, this,
                 [this](const QString& error) { setStatus(tr("Block shape not run: %1").arg(error), true); }));
    keep(connect(d.overlay, &OverlayPanel::changed, this, &ImagePage::pushOverlay));
    keep(connect(d.timeline, &TimelineBar::positionChanged, this,
                 [this](int position) { session_->setAnimationPosition(std::uint64_t(std::max(0, position))); }));
    d.animation_mode->setEnabled(true);
    {
        const QSignalBlocker block(d.animation_mode);
        d.animation_mode->setCurrentIndex(d.animation_mode->findData(int(session_->animationMode())));
    }
    keep(connect(d.animation_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, d] {
        session_->setAnimationMode(AnimationMode(d.animation_mode->currentData().toInt()));
    }));
    trace_docks_->bind(d.source, d.memory);
    showShape();
    showPlan();
    showFrame();
    showTimes();
}

void ImagePage::onUnbind() {
    docks().launch->setExtraControls(nullptr);
    trace_docks_->unbind();
}

ImagePage::~ImagePage() { delete launch_extras_; }

// The session's launch as the launch panel lists it: the user's kernel while it runs one.
LaunchChoice ImagePage::shownChoice() const {
    const LaunchChoice built_in = grayscale_choice(session_->shape());
    return session_->runsUserKernel() ? LaunchChoice{session_->userKernel(), built_in.block} : built_in;
}

void ImagePage::onLaunchChosen(const LaunchChoice& choice) {
    if (choice.ref.family != KernelFamily::Grayscale) return;
    // A kernel of the user's: the session runs it, with the block of the built-in standing in for it.
    if (is_user_ref(choice.ref)) {
        session_->setUserKernel(choice.ref, grayscale_shape(builtinStandIn(choice)));
        return;
    }
    session_->setUserKernel(choice.ref);
    // A layout the variant does not read gives way to the first it does.
    const KernelInfo* info = choice.info();
    if (info && !info->layouts.empty() && !reads(*info, session_->layout()))
        session_->setLayout(info->layouts.front() == "planar" ? PixelLayout::Planar : PixelLayout::Interleaved);
    session_->setShape(grayscale_shape(choice));
}

void ImagePage::buildLaunchExtras() {
    launch_extras_ = new QWidget(this);
    launch_extras_->setObjectName(QStringLiteral("imageLaunchExtras"));
    launch_extras_->hide();
    auto* form = new QFormLayout(launch_extras_);
    form->setContentsMargins(0, 0, 0, 0);
    // The pixel layout the kernel reads.
    layout_box_ = new QComboBox(launch_extras_);
    layout_box_->setObjectName(QStringLiteral("layoutBox"));
    layout_box_->addItem(tr("Interleaved RGB"), QStringLiteral("interleaved"));
    layout_box_->addItem(tr("Planar C\u00D7H\u00D7W"), QStringLiteral("planar"));
    layout_box_->setItemData(0, tr("As image files store pixels: pixel i reads x[3i], x[3i+1], x[3i+2]"), Qt::ToolTipRole);
    layout_box_->setItemData(1, tr("As the lecture's tensor: pixel i reads x[i], x[i+n], x[i+2n]"), Qt::ToolTipRole);
    form->addRow(tr("Pixel layout"), layout_box_);
    showLayout();
    connect(layout_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        session_->setLayout(layout_box_->currentData().toString() == QLatin1String("planar") ? PixelLayout::Planar
                                                                                            : PixelLayout::Interleaved);
    });
}

void ImagePage::showLayout() {
    const QSignalBlocker block(layout_box_);
    layout_box_->setCurrentIndex(layout_box_->findData(QLatin1String(layout_name(session_->layout()))));
    // Only the layouts the variant reads can be chosen.
    const KernelInfo* info = grayscale_variant_info(session_->shape().kind);
    if (auto* model = qobject_cast<QStandardItemModel*>(layout_box_->model()))
        for (int i = 0; i < layout_box_->count(); ++i) {
            const std::string l = layout_box_->itemData(i).toString().toStdString();
            model->item(i)->setEnabled(!info || std::find(info->layouts.begin(), info->layouts.end(), l) != info->layouts.end());
        }
}

void ImagePage::traceLaunch() {
    const LaunchShape shape = session_->resultShape();
    const LaunchPlan& plan = session_->plan();
    const KernelInfo* info = grayscale_variant_info(shape.kind);
    trace_docks_->setLaunchLine(launch_line(info ? QString::fromStdString(info->name) : QString(), plan.grid, shape.block));
    trace_docks_->setGpuNote(info ? QString::fromStdString(gpu_counter_note(info->name)) : QString());
    trace_->setLaunch(session_->traceJob());
    showTracedWarp();
}

void ImagePage::showTracedWarp() {
    const AnimationFrame frame = session_->frame();
    const LaunchPlan& plan = session_->plan();
    const QPoint pixel = session_->selectedPixel();
    const GridCell cell = session_->hasPlan() && pixel.x() >= 0 ? grid_cell(plan, pixel.x(), pixel.y()) : GridCell{};
    std::int64_t lane = -1;
    if (frame.mode == AnimationMode::Warps && frame.block >= 0 && plan.warps_per_block > 0) {
        const std::uint64_t warp = std::min<std::uint64_t>(frame.warp_done_end, plan.warps_per_block - 1);
        trace_->pickWarp(std::uint64_t(frame.block), std::uint32_t(warp));
    } else if (cell.in_grid) {
        trace_->pickWarp(cell.thread.linear_block, std::uint32_t(cell.thread.warp));
        lane = cell.thread.lane;
    } else {
        trace_->clearWarp();
    }
    if (!trace_->hasWarp()) {
        trace_docks_->setWarpTitle(QString());
        trace_docks_->setStep({}, true);
        return;
    }
    const Dim3 block = block_of_linear(trace_->block(), plan.grid);
    const std::uint64_t first = std::uint64_t(trace_->warp()) * 32;
    const std::uint64_t last = std::min<std::uint64_t>(first + 32, plan.threads_per_block) - 1;
    QString title = plan.one_d ? tr("Block %1 · warp %2: threads %3–%4").arg(block.x).arg(trace_->warp()).arg(first).arg(last)
                               : tr("Block (%1, %2) · warp %3: threads %4–%5 (linear)").arg(block.x).arg(block.y).arg(trace_->warp()).arg(first).arg(last);
    if (lane >= 0) title += tr(" · pixel (%1, %2) is lane %3").arg(pixel.x()).arg(pixel.y()).arg(lane);
    trace_docks_->setWarpTitle(title);
    // Following a thread: the requests its lane takes part in are the current ones.
    std::vector<const MemoryRequest*> mine;
    if (lane >= 0)
        for (const MemoryRequest* r : trace_->warpRequests())
            for (const LaneAccess& l : r->lanes)
                if (std::int64_t(l.lane) == lane) {
                    mine.push_back(r);
                    break;
                }
    trace_docks_->setStep(mine, lane < 0);
}

void ImagePage::showShape() {
    showLayout();
    if (!isBound()) return;
    const QSignalBlocker block(docks().launch);
    docks().launch->setChoice(shownChoice());
    docks().occupancy->setBlock(grayscale_block_resources(session_->shape()));
}

void ImagePage::showPlan() {
    if (!isBound()) return;
    const PageDocks& d = docks();
    if (session_->hasPlan()) d.launch->showStats(launch_plan_html(session_->plan()));
    d.sms->setPlan(session_->waves());
    const AnimationMode mode = session_->animationMode();
    const std::uint64_t steps = session_->animationSteps();
    d.timeline->setSteps(int(std::min<std::uint64_t>(std::max<std::uint64_t>(1, steps), INT_MAX)),
                         mode == AnimationMode::Warps ? tr("warp") : tr("wave"));
    d.timeline->setEnabled(session_->hasPlan());
    refreshInspector();
    // The session follows every planChanged with frameChanged: the views update there.
}

void ImagePage::showFrame() {
    pushOverlay();
    showTracedWarp();
    if (!isBound()) return;
    const PageDocks& d = docks();
    const AnimationFrame frame = session_->frame();
    const WavePlan& waves = session_->waves();
    if (d.timeline->position() != int(session_->animationPosition())) d.timeline->setPosition(int(session_->animationPosition()));
    d.sms->setWave(frame.mode == AnimationMode::Off ? waves.waves : frame.wave);
    d.sms->setHighlightBlock(frame.mode == AnimationMode::Warps ? frame.block : session_->selectedBlock());
    QString label;
    switch (frame.mode) {
        case AnimationMode::Off: label = tr("Pick an animation, or press Space"); break;
        case AnimationMode::Waves:
            label = frame.wave >= waves.waves
                        ? tr("All %1 done, %2").arg(counted(waves.blocks, tr("block"), tr("blocks")), counted(waves.waves, tr("wave"), tr("waves")))
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
                        : tr("Block %1: warp %2 of %3 (index %4, threads %5\u2013%6)")
                              .arg(frame.block)
                              .arg(frame.warp_done_end + 1)  // counts start at 1, as the step field's
                              .arg(warps)
                              .arg(frame.warp_done_end)
                              .arg(frame.warp_done_end * 32)
                              .arg(std::min<std::uint64_t>((frame.warp_done_end + 1) * 32, session_->plan().threads_per_block) - 1);
            break;
        }
    }
    d.timeline->setLabel(label);
    d.sm_caption->setText(d.sms->caption());
}

void ImagePage::pushOverlay() {
    OverlayState state = overlay_;
    if (isBound()) docks().overlay->apply(&state);
    state.plan = session_->plan();
    state.animation = session_->frame();
    state.selected_block = session_->selectedBlock();
    state.selected_pixel = session_->selectedPixel();
    state.hovered_block = hoveredBlock();
    state.line_merge = OverlayState::lineMergeFor(state.plan, transform_->zoom() * devicePixelRatioF());
    const QSize image = session_->imageSize();
    const QSize old_extent = overlay_.decorates() ? overlay_.extent() : image;
    const QSize old_plan_image(int(overlay_.plan.width), int(overlay_.plan.height));
    overlay_ = state;
    for (ImageSurface* view : views_)
        if (view) view->setOverlay(overlay_);
    legend_->setState(overlay_);
    // Mid-animation most of the output pane shows the input's colour: say so, or it reads as a
    // conversion that failed.
    // At the animation's end every pixel is written: the plain title again.
    const AnimationFrame& f = overlay_.animation;
    const bool finished = f.mode == AnimationMode::Waves ? f.done_end >= overlay_.plan.blocks
                                                         : f.block < 0 || f.warp_done_end >= overlay_.plan.warps_per_block;
    captions_[1]->setText(overlay_.animating() && !finished ? tr("Output: pixels not yet written show the input")
                                                  : tr("Grayscale (kernel output)"));
    const QSize extent = overlay_.decorates() ? overlay_.extent() : image;
    // Refitted for a new image only: a block slider's drag changes the grid's extent past the image
    // at every step, and the zoom jumping with it (15%, 13%, 14%) read as the image changing.
    // Fit (Ctrl+0) and a resize still fit the whole grid.
    const QSize plan_image(int(overlay_.plan.width), int(overlay_.plan.height));
    if (extent != old_extent && !image.isEmpty() && transform_->fitting() && plan_image != old_plan_image) zoomToFit();
}

// One rule for hover and click: a click pins the inspector (and the yellow outline) to its pixel
// until Esc or a second click on it lets go, or a click elsewhere pins another pixel; the mouse
// meanwhile outlines the block under it lightly. With nothing pinned the inspector follows the mouse.
void ImagePage::inspectPixel(QPoint pixel, bool pin) {
    if (pin) {
        session_->select(pixel == session_->selectedPixel() ? QPoint(-1, -1) : pixel);
    } else {
        hovered_pixel_ = pixel;
        if (hoveredBlock() != overlay_.hovered_block) pushOverlay();
    }
    refreshInspector();
}

void ImagePage::clearSelection() {
    session_->select(QPoint(-1, -1));
    refreshInspector();  // back to the pixel under the mouse, if any
}

std::int64_t ImagePage::hoveredBlock() const {
    if (hovered_pixel_.x() < 0 || !session_->hasPlan()) return -1;
    const GridCell cell = grid_cell(session_->plan(), hovered_pixel_.x(), hovered_pixel_.y());
    return cell.in_grid ? std::int64_t(cell.thread.linear_block) : -1;
}

void ImagePage::refreshInspector() {
    if (!isBound()) return;
    InspectorPanel* inspector = docks().inspector;
    const QPoint pinned = session_->selectedPixel();
    const QPoint pixel = pinned.x() >= 0 ? pinned : hovered_pixel_;
    if (!session_->hasPlan() || pixel.x() < 0 || pixel.y() < 0) {
        inspector->showHint(tr("Hover over a pixel, or click one to keep it, to see which thread made it."));
        return;
    }
    const QImage original = session_->image();
    const QImage result = session_->result();
    const bool inside = QRect(QPoint(0, 0), original.size()).contains(pixel);
    std::uint8_t rgb[3] = {0, 0, 0};
    if (inside) {
        const QRgb c = original.pixel(pixel);
        rgb[0] = std::uint8_t(qRed(c));
        rgb[1] = std::uint8_t(qGreen(c));
        rgb[2] = std::uint8_t(qBlue(c));
    }
    const int output = inside && result.size() == original.size() ? qGray(result.pixel(pixel)) : -1;
    inspector->showPixel(inspect_pixel(session_->plan(), session_->layout(), pixel.x(), pixel.y(), rgb), session_->plan(),
                         session_->layout(), session_->waves(), output);
}

// ---- the sweep ----------------------------------------------------------------------------------

void ImagePage::offerToSweep(SweepDialog* sweep) const {
    sweep->setProblem(make_grayscale_problem(to_rgb_buffer(session_->image()), session_->layout()),
                      display_name(session_->file()));
}

std::unique_ptr<user::FamilyCall> ImagePage::userKernelCall() const {
    RgbBuffer rgb = to_rgb_buffer(session_->image());
    if (rgb.width == 0 || rgb.height == 0) return nullptr;
    return grayscale_user_call(std::move(rgb.bytes), rgb.width, rgb.height, session_->layout());
}

bool ImagePage::showOutputElement(std::uint64_t index) {
    const QSize size = session_->image().size();
    if (size.isEmpty() || index >= std::uint64_t(size.width()) * std::uint64_t(size.height())) return false;
    session_->select(QPoint(int(index % std::uint64_t(size.width())), int(index / std::uint64_t(size.width()))));
    return true;
}

void ImagePage::chooseInSweep(SweepDialog* sweep) const { sweep->setFamily(KernelFamily::Grayscale); }

void ImagePage::connectSweep(SweepDialog* sweep) {
    connect(sweep, &SweepDialog::launchChosen, session_, [session = session_](const LaunchChoice& c) {
        if (c.ref.family == KernelFamily::Grayscale) session->setShape(grayscale_shape(c));
    });
}

void ImagePage::offerToLadder(LadderDialog* ladder) const {
    ladder->setProblem(make_grayscale_problem(to_rgb_buffer(session_->image()), session_->layout()),
                       display_name(session_->file()));
}

void ImagePage::chooseInLadder(LadderDialog* ladder) const { ladder->setFamily(KernelFamily::Grayscale); }

void ImagePage::connectLadder(LadderDialog* ladder) {
    connect(ladder, &LadderDialog::launchChosen, session_, [session = session_](const LaunchChoice& c) {
        if (c.ref.family == KernelFamily::Grayscale) session->setShape(grayscale_shape(c));
    });
}

}  // namespace cvz

// ---- File > Save Result As, File > Export ---------------------------------------------------------

namespace cvz {

QString ImagePage::documentFile() const { return session_->file(); }

QString ImagePage::resultFileName() const {
    return QFileInfo(session_->file()).completeBaseName() + QStringLiteral("-gray.png");
}

QString ImagePage::resultFileFilter() const { return tr("PNG image (*.png);;NumPy array (*.npy)"); }

QString ImagePage::resultDescription() const { return tr("the grayscale result"); }

// The bytes `cudaviz-cli grayscale --out` writes, by the same writer.
std::function<QString()> ImagePage::resultWriter(const QString& path, QString* error) const {
    const QImage result = session_->result();
    const std::optional<GrayOutputKind> kind = gray_output_kind(path);
    if (!kind) {
        *error = tr("the name must end in .png or .npy (that picks the format)");
        return {};
    }
    if (result.isNull()) {
        *error = tr("there is no kernel output yet");
        return {};
    }
    return [path, kind, result] {
        return write_gray_output(path, *kind, gray_bytes(result), std::uint32_t(result.width()), std::uint32_t(result.height()));
    };
}

std::optional<RunTiming> ImagePage::lastRunTiming() const {
    if (session_->completedRuns() == 0) return std::nullopt;
    const GrayscaleResult& r = session_->lastResult();
    return RunTiming{QStringLiteral("grayscale"), r.shape_text,
                     tr("%1 x %2 image, %3").arg(r.width).arg(r.height).arg(QString::fromLatin1(layout_name(session_->resultLayout()))),
                     r.backend, r.kernel_ms, r.total_ms};
}

void ImagePage::describeAnimation(AnimationExportRequest* request) const {
    request->waves = session_->waves();
    request->mode = session_->animationMode();
    request->block = session_->selectedBlock();
    // The caption's start: the launch and the picture, as the status bar names them.
    request->title = tr("%1 over %2").arg(QString::fromStdString(to_string(session_->shape())), QFileInfo(session_->file()).fileName());
}

}  // namespace cvz
