#include "ui/pages/convolution/convolution_page.h"

#include "kernels/convolution/convolution_user_call.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

#include "app/convolution/convolution_mask_file.h"
#include "app/convolution/convolution_app_problem.h"
#include "app/convolution/convolution_output.h"
#include "app/convolution/convolution_runner.h"
#include "app/convolution/convolution_session.h"
#include "app/tuning/prediction_session.h"
#include "app/models/overlay_geometry.h"
#include "app/trace/memory_trace_session.h"
#include "kernels/catalogue/gpu_counter_notes.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_problem.h"
#include "kernels/emulator/emulate.h"
#include "ui/pages/convolution/tile_overlay.h"
#include "ui/pages/trace_docks.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/launch_plan_html.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/overlay_panel.h"
#include "ui/panels/sm_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/image_surface.h"
#include "ui/views/image_view.h"
#include "ui/views/overlay_legend.h"
#include "ui/views/raster_image_view.h"
#include "ui/views/trace_presentation.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"
#include "ui/windows/animation_export.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"

namespace cvz {

namespace {

QString display_name(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    return path.startsWith(QLatin1Char(':')) ? QObject::tr("%1 (sample)").arg(name) : name;
}

const char* kMaskFileItem = "Open mask file (.npy)…";

}  // namespace

ConvolutionPage::ConvolutionPage(JobRunner* jobs, const DisplayPathChoice& display, QWidget* parent)
    : PicturePairPage(display, parent), session_(new ConvolutionSession(jobs, this)) {
    setObjectName(QStringLiteral("convolutionPage"));
    buildPictures(tr("Input: the photo's grayscale g"), tr("Output: g convolved with the mask"),
                  QStringLiteral("convolutionSplitter"));
    auto* clear = new QShortcut(QKeySequence(Qt::Key_Escape), this, this, [this] {
        session_->select(QPoint(-1, -1));
        refreshInspector();
    }, Qt::WidgetWithChildrenShortcut);
    clear->setObjectName(QStringLiteral("clearConvolutionSelection"));

    buildMaskBox();

    connect(session_, &ConvolutionSession::imageChanged, this, &ConvolutionPage::onImageChanged);
    connect(session_, &ConvolutionSession::loadFailed, this, [this](const QString& path, const QString& error) {
        setStatus(error, true);
        emit errorRaised(error);
        emit openFailed(path, error);
        if (session_->image().isNull() && path != QStringLiteral(":/samples/chelsea.png")) openFile(QStringLiteral(":/samples/chelsea.png"));
    });
    connect(session_, &ConvolutionSession::runStarted, this, &KernelPage::workStarted);
    connect(session_, &ConvolutionSession::runFinished, this, &ConvolutionPage::onRunFinished);
    connect(session_, &ConvolutionSession::runFailed, this,
            [this](const QString& error) { setStatus(tr("The kernel did not run: %1").arg(error), true); });
    connect(session_, &ConvolutionSession::launchChanged, this, [this] {
        if (settings_) {
            const KernelInfo* info = kernel_info(session_->launch().ref());
            settings_->setValue(QStringLiteral("convolution/kernel"), info ? QString::fromStdString(info->name) : QString());
            settings_->setValue(QStringLiteral("convolution/block"),
                                QStringLiteral("%1x%2").arg(session_->launch().block.x).arg(session_->launch().block.y));
        }
        showLaunch();
    });
    connect(session_, &ConvolutionSession::maskChanged, this, [this] {
        if (settings_ && mask_box_->findText(session_->maskName()) >= 0)
            settings_->setValue(QStringLiteral("convolution/mask"), session_->maskName());
        const QSignalBlocker block(mask_box_);
        int index = mask_box_->findText(session_->maskName());
        if (index < 0) {
            mask_box_->insertItem(mask_box_->count() - 1, session_->maskName());
            index = mask_box_->count() - 2;
        }
        mask_box_->setCurrentIndex(index);
        pushTiles();
        refreshInspector();
    });
    connect(session_, &ConvolutionSession::planChanged, this, &ConvolutionPage::showPlan);
    connect(session_, &ConvolutionSession::frameChanged, this, &ConvolutionPage::showFrame);

    trace_ = new MemoryTraceSession(jobs, this);
    trace_docks_ = new TraceDocks(trace_, this);
    connect(session_, &ConvolutionSession::runStarted, trace_, &MemoryTraceSession::cancel);
    connect(trace_, &MemoryTraceSession::traceChanged, this, &ConvolutionPage::showTracedWarp);

    prediction_ = new PredictionSession(this);
    connect(session_, &ConvolutionSession::planChanged, this, &ConvolutionPage::predict);
    connect(session_, &ConvolutionSession::imageChanged, this, &ConvolutionPage::predict);
    connect(prediction_, &PredictionSession::predictionChanged, this, &ConvolutionPage::showTimes);
}

ConvolutionPage::~ConvolutionPage() { delete extras_; }

// Each view carries the tiles and the mask window over it.
void ConvolutionPage::viewInstalled(int index, ImageSurface* view) { tiles_[index] = new TileOverlay(view); }

void ConvolutionPage::viewsInstalled() { pushTiles(); }

QSize ConvolutionPage::pictureSize() const { return session_->imageSize(); }
QImage ConvolutionPage::inputImage() const { return session_->grayImage(); }
QImage ConvolutionPage::outputImage() const { return session_->result(); }

void ConvolutionPage::buildMaskBox() {
    extras_ = new QWidget(this);
    extras_->hide();
    auto* row = new QHBoxLayout(extras_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Mask"), extras_));
    mask_box_ = new QComboBox(extras_);
    mask_box_->setObjectName(QStringLiteral("maskBox"));
    for (const std::string& name : named_mask_names()) mask_box_->addItem(QString::fromStdString(name));
    mask_box_->addItem(tr(kMaskFileItem));
    mask_box_->setToolTip(tr("The mask M the kernel convolves the grayscale with: a named one, or a square .npy "
                             "file of odd side 1 to 15 (float32 or float64)"));
    mask_box_->setCurrentText(session_->maskName());
    row->addWidget(mask_box_, 1);
    connect(mask_box_, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        if (index == mask_box_->count() - 1) {
            openMaskFile();
            return;
        }
        const QString name = mask_box_->itemText(index);
        if (!session_->setNamedMask(name)) {
            // A mask loaded from a file earlier: its values are gone with the choice; load it again.
            const QSignalBlocker block(mask_box_);
            mask_box_->setCurrentText(session_->maskName());
        }
    });
}

void ConvolutionPage::openMaskFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Mask"), QString(), tr("NumPy arrays (*.npy);;All files (*)"));
    if (path.isEmpty()) {
        const QSignalBlocker block(mask_box_);
        mask_box_->setCurrentText(session_->maskName());
        return;
    }
    const LoadedMask loaded = read_mask_npy(path);
    if (!loaded.ok()) {
        setStatus(loaded.error, true);
        emit errorRaised(loaded.error);
        const QSignalBlocker block(mask_box_);
        mask_box_->setCurrentText(session_->maskName());
        return;
    }
    session_->setMask(loaded.mask, loaded.name);
}

bool ConvolutionPage::resultShown() const { return session_->completedRuns() >= 1 && !session_->running(); }

QString ConvolutionPage::title() const { return tr("&Convolution"); }

PageDocks::Docks ConvolutionPage::docksUsed() const {
    return PageDocks::Launch | PageDocks::Overlay | PageDocks::Inspector | PageDocks::Occupancy | PageDocks::Sms |
           PageDocks::Timeline | PageDocks::Source | PageDocks::Memory;
}

QString ConvolutionPage::documentText() const {
    const QImage image = session_->image();
    const double zoom = transform_->zoom();
    return tr("%1  %2\u00D7%3  mask %4 (%5\u00D7%5)   Zoom %6%")
        .arg(display_name(session_->file()))
        .arg(image.width())
        .arg(image.height())
        .arg(session_->maskName())
        .arg(session_->mask().side)
        .arg(zoom * 100, 0, 'f', zoom < 0.1 ? 1 : 0);
}

QString ConvolutionPage::documentToolTip() const { return QDir::toNativeSeparators(session_->file()); }

void ConvolutionPage::setBackend(BackendChoice backend) { session_->setBackend(backend); }

void ConvolutionPage::setDevice(const DeviceProfile& device) { session_->setDevice(device); }

void ConvolutionPage::runAgain() { session_->requestRun(); }

void ConvolutionPage::togglePlay() {
    if (!isBound()) return;
    if (session_->animationMode() == AnimationMode::Off) {
        QComboBox* mode = docks().animation_mode;
        mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
    }
    docks().timeline->togglePlay();
}

void ConvolutionPage::restoreSettings(QSettings* settings) {
    settings_ = nullptr;  // restoring writes nothing back
    session_->setNamedMask(settings->value(QStringLiteral("convolution/mask"), QStringLiteral("gauss5")).toString());
    const KernelInfo* info = find_kernel(session_->launch().ref().family,
                                         settings->value(QStringLiteral("convolution/kernel")).toString().toStdString());
    const QStringList block = settings->value(QStringLiteral("convolution/block"), QStringLiteral("16x16")).toString().split('x');
    ConvolutionLaunch launch = session_->launch();
    if (info) launch.kernel = ConvolutionVariant(info->variant);
    bool ok_x = false, ok_y = false;
    if (block.size() == 2) {
        const unsigned x = block[0].toUInt(&ok_x), y = block[1].toUInt(&ok_y);
        if (ok_x && ok_y && x >= 1 && y >= 1 && x * y <= 1024) launch.block = Dim3{x, y, 1};
    }
    session_->setLaunch(launch);
    if (session_->image().isNull()) openFile(QStringLiteral(":/samples/chelsea.png"));
    settings_ = settings;
}

void ConvolutionPage::openFile(const QString& path) {
    setStatus(tr("Opening %1...").arg(display_name(path)));
    session_->openFile(path);
    emit workStarted();
}

void ConvolutionPage::onImageChanged() {
    views_[0]->setImage(session_->grayImage());
    views_[1]->setImage(QImage());
    views_[1]->setSourceImage(session_->grayImage());
    transform_->setImageSize(session_->imageSize());
    hovered_pixel_ = QPoint(-1, -1);
    zoomToFit();
    pushTiles();
    emit documentChanged();
    emit fileOpened(session_->file());
}

void ConvolutionPage::onRunFinished(const ConvolutionResult& result) {
    views_[1]->setImage(session_->result());
    traceLaunch();
    refreshInspector();
    run_summary_ = result.summary();
    run_status_ = with_prediction(run_summary_, prediction_->prediction());
    setStatus(run_status_);
    showTimes();
}

// ---- views --------------------------------------------------------------------------------------

QPoint ConvolutionPage::inspectedPixel() const {
    const QPoint pinned = session_->selectedPixel();
    return pinned.x() >= 0 ? pinned : hovered_pixel_;
}

std::int64_t ConvolutionPage::hoveredBlock() const {
    if (hovered_pixel_.x() < 0 || !session_->hasPlan()) return -1;
    const GridCell cell = grid_cell(session_->plan(), hovered_pixel_.x(), hovered_pixel_.y());
    return cell.in_grid ? std::int64_t(cell.thread.linear_block) : -1;
}

void ConvolutionPage::inspectPixel(QPoint pixel, bool pin) {
    if (pin) {
        session_->select(pixel == session_->selectedPixel() ? QPoint(-1, -1) : pixel);
    } else {
        hovered_pixel_ = pixel;
        pushOverlay();
    }
    pushTiles();
    refreshInspector();
}

void ConvolutionPage::pushOverlay() {
    OverlayState state = overlay_;
    if (isBound()) docks().overlay->apply(&state);
    state.plan = session_->plan();
    state.animation = session_->frame();
    state.selected_block = session_->selectedBlock();
    state.selected_pixel = session_->selectedPixel();
    state.hovered_block = hoveredBlock();
    state.line_merge = OverlayState::lineMergeFor(state.plan, transform_->zoom() * devicePixelRatioF());
    overlay_ = state;
    for (ImageSurface* view : views_) view->setOverlay(overlay_);
    legend_->setState(overlay_);
    captions_[1]->setText(overlay_.animating() ? tr("Output: pixels not yet written show the input")
                                                  : tr("Output: g convolved with the mask"));
}

// The picked (else hovered) pixel's block: its output tile and the input tile it reads; the pixel's
// mask window.
void ConvolutionPage::pushTiles() {
    TileOverlay::State state;
    state.image = session_->imageSize();
    const QPoint pixel = inspectedPixel();
    const int r = int(session_->mask().radius());
    if (session_->hasPlan() && pixel.x() >= 0 && pixel.y() >= 0) {
        const GridCell cell = grid_cell(session_->plan(), pixel.x(), pixel.y());
        if (cell.in_grid) {
            const ConvolutionLaunch launch = session_->launch();
            const Dim3 tile = convolution_output_tile(launch);
            const QRect out(int(cell.thread.block.x * tile.x), int(cell.thread.block.y * tile.y), int(tile.x), int(tile.y));
            state.output_tile = out;
            state.input_tile = out.adjusted(-r, -r, r, r);
            state.halo_in_shared = convolution_input_tile(launch, session_->mask().side).x > tile.x;
        }
        state.window = QRect(pixel.x() - r, pixel.y() - r, 2 * r + 1, 2 * r + 1);
    }
    for (TileOverlay* t : tiles_) t->setState(state);
}

QString ConvolutionPage::inspection(QPoint pixel) const {
    const QSize size = session_->imageSize();
    if (!session_->hasPlan() || pixel.x() < 0 || pixel.y() < 0) return {};
    const GridCell cell = grid_cell(session_->plan(), pixel.x(), pixel.y());
    if (!cell.in_grid) return {};
    const ThreadOfPixel& t = cell.thread;
    QString text = tr("Pixel (%1, %2): thread (%3, %4) of block (%5, %6), warp %7, lane %8\n")
                       .arg(pixel.x()).arg(pixel.y()).arg(t.thread.x).arg(t.thread.y).arg(t.block.x).arg(t.block.y)
                       .arg(t.warp).arg(t.lane);
    if (!QRect(QPoint(0, 0), size).contains(pixel)) return text + tr("Past the image: the guard switches this thread off.");
    const ConvolutionMask& mask = session_->mask();
    const int r = int(mask.radius());
    const QImage gray = session_->grayImage();
    int ghosts = 0;
    QString reads;
    float acc = 0.0f;
    for (int i = 0; i < int(mask.side); ++i) {
        for (int j = 0; j < int(mask.side); ++j) {
            const int y = pixel.y() + i - r, x = pixel.x() + j - r;
            const bool inside = x >= 0 && y >= 0 && x < size.width() && y < size.height();
            const int g = inside ? qGray(gray.pixel(x, y)) : 0;
            ghosts += !inside;
            // The kernels' arithmetic: one fmaf per mask entry, i outer, j inner, ghosts as 0.
            acc = std::fma(mask.values[std::size_t(i) * mask.side + std::size_t(j)], float(g), acc);
            reads += inside ? QStringLiteral("%1").arg(g, 4) : QStringLiteral("   ·");
        }
        reads += QLatin1Char('\n');
    }
    text += tr("Reads g[%1..%2][%3..%4] (%5\u00D7%5 window%6):\n")
                .arg(pixel.y() - r).arg(pixel.y() + r).arg(pixel.x() - r).arg(pixel.x() + r).arg(mask.side)
                .arg(ghosts ? tr(", %1 outside the image read as 0, shown ·").arg(ghosts) : QString());
    text += reads;
    text += tr("Sum of M[i][j]\u00B7g: %1").arg(double(acc), 0, 'g', 9);
    const std::vector<float>& out = session_->output();
    const std::size_t index = std::size_t(pixel.y()) * std::size_t(size.width()) + std::size_t(pixel.x());
    if (index < out.size()) {
        text += tr("\nThe kernel wrote out[%1] = %2").arg(index).arg(double(out[index]), 0, 'g', 9);
        if (out[index] != acc) text += tr(" (differs from the sum above)");
    }
    return text;
}

void ConvolutionPage::refreshInspector() {
    if (!isBound()) return;
    const QString text = inspection(inspectedPixel());
    if (text.isEmpty()) docks().inspector->showHint(tr("Hover over a pixel, or click one to keep it, to see its thread and the mask window it reads."));
    else docks().inspector->showText(text);
}

// ---- the docks ----------------------------------------------------------------------------------

void ConvolutionPage::onBind(const PageDocks& d) {
    d.launch->setFamily(session_->launch().ref().family);
    {
        const QSignalBlocker block(d.launch);
        d.launch->setChoice(shownChoice());
    }
    d.launch->setExtraControls(extras_);
    keep(connect(d.launch, &LaunchPanel::choiceChanged, this, [this](const LaunchChoice& choice) {
        if (choice.ref.family != session_->launch().ref().family) return;
        // A kernel of the user's: the session runs it, with the block of the built-in standing in for it.
        session_->setUserKernel(choice.ref, builtinStandIn(choice));
    }));
    keep(connect(d.launch, &LaunchPanel::invalidShape, this,
                 [this](const QString& error) { setStatus(tr("Block shape not run: %1").arg(error), true); }));
    keep(connect(d.overlay, &OverlayPanel::changed, this, &ConvolutionPage::pushOverlay));
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
    showLaunch();
    showPlan();
    showFrame();
    showTimes();
}

void ConvolutionPage::onUnbind() {
    docks().launch->setExtraControls(nullptr);
    trace_docks_->unbind();
}

void ConvolutionPage::showLaunch() {
    if (!isBound()) return;
    {
        const QSignalBlocker block(docks().launch);
        docks().launch->setChoice(shownChoice());
    }
    docks().occupancy->setBlock(session_->blockResources());
    pushTiles();
}

void ConvolutionPage::showPlan() {
    if (!isBound()) return;
    const PageDocks& d = docks();
    QString stats = session_->hasPlan() ? launch_plan_html(session_->plan()) : QString();
    if (!session_->launchError().isEmpty()) stats = session_->launchError().toHtmlEscaped();
    else {
        const Dim3 staged = convolution_input_tile(session_->launch(), session_->mask().side);
        if (staged.x > 0)
            stats += tr("<p>Shared memory per block: a %1\u00D7%2 tile of g (%3 bytes)</p>")
                         .arg(staged.x).arg(staged.y).arg(convolution_shared_bytes(session_->launch(), session_->mask().side));
    }
    d.launch->showStats(stats);
    d.sms->setPlan(session_->waves());
    const std::uint64_t steps = session_->animationSteps();
    d.timeline->setSteps(int(std::min<std::uint64_t>(std::max<std::uint64_t>(1, steps), INT_MAX)),
                         session_->animationMode() == AnimationMode::Warps ? tr("warp") : tr("wave"));
    d.timeline->setEnabled(session_->hasPlan());
    refreshInspector();
}

void ConvolutionPage::showFrame() {
    pushOverlay();
    pushTiles();
    showTracedWarp();
    if (!isBound()) return;
    const PageDocks& d = docks();
    const AnimationFrame frame = session_->frame();
    const WavePlan& waves = session_->waves();
    if (d.timeline->position() != int(session_->animationPosition())) d.timeline->setPosition(int(session_->animationPosition()));
    d.sms->setWave(frame.mode == AnimationMode::Off ? waves.waves : frame.wave);
    d.sms->setHighlightBlock(frame.mode == AnimationMode::Warps ? frame.block : session_->selectedBlock());
    QString label;
    const std::uint64_t warps = session_->plan().warps_per_block;
    switch (frame.mode) {
        case AnimationMode::Off: label = tr("Pick an animation, or press Space"); break;
        case AnimationMode::Waves:
            label = frame.wave >= waves.waves ? tr("All %1 blocks done in %2 waves").arg(waves.blocks).arg(waves.waves)
                                              : tr("Wave %1 of %2: blocks %3\u2013%4 run, %5 done")
                                                    .arg(frame.wave + 1).arg(waves.waves).arg(frame.done_end)
                                                    .arg(frame.run_end - 1).arg(frame.done_end);
            break;
        case AnimationMode::Warps:
            label = frame.warp_done_end >= warps ? tr("Block %1: all %2 warps done").arg(frame.block).arg(warps)
                                                 : tr("Block %1: warp %2 of %3").arg(frame.block).arg(frame.warp_done_end + 1).arg(warps);
            break;
    }
    d.timeline->setLabel(label);
    d.sm_caption->setText(d.sms->caption());
}

void ConvolutionPage::traceLaunch() {
    const ConvolutionLaunch launch = session_->resultLaunch();
    const KernelInfo* info = kernel_info(launch.ref());
    trace_docks_->setLaunchLine(launch_line(info ? QString::fromStdString(info->name) : QString(), session_->plan().grid,
                                            launch.block, convolution_shared_bytes(launch, session_->mask().side)));
    trace_docks_->setGpuNote(info ? QString::fromStdString(gpu_counter_note(info->name)) : QString());
    trace_->setLaunch(session_->traceJob());
    showTracedWarp();
}

void ConvolutionPage::showTracedWarp() {
    const LaunchPlan& plan = session_->plan();
    const AnimationFrame frame = session_->frame();
    const QPoint pixel = session_->selectedPixel();
    const GridCell cell = session_->hasPlan() && pixel.x() >= 0 ? grid_cell(plan, pixel.x(), pixel.y()) : GridCell{};
    if (frame.mode == AnimationMode::Warps && frame.block >= 0 && plan.warps_per_block > 0)
        trace_->pickWarp(std::uint64_t(frame.block), std::uint32_t(std::min<std::uint64_t>(frame.warp_done_end, plan.warps_per_block - 1)));
    else if (cell.in_grid) trace_->pickWarp(cell.thread.linear_block, std::uint32_t(cell.thread.warp));
    else trace_->clearWarp();
    if (!trace_->hasWarp()) {
        trace_docks_->setWarpTitle(QString());
        trace_docks_->setStep({}, true);
        return;
    }
    const Dim3 block = block_of_linear(trace_->block(), plan.grid);
    trace_docks_->setWarpTitle(tr("Block (%1, %2) · warp %3").arg(block.x).arg(block.y).arg(trace_->warp()));
    trace_docks_->setStep({}, true);
}

// ---- the sweep and the ladder -------------------------------------------------------------------

FamilyProblemPtr ConvolutionPage::problem(bool with_pixels) const {
    const QSize size = session_->imageSize();
    return make_convolution_problem(with_pixels ? session_->grayBytes() : std::vector<std::uint8_t>{}, std::uint32_t(size.width()),
                                    std::uint32_t(size.height()), session_->mask(), session_->maskName());
}

void ConvolutionPage::offerToSweep(SweepDialog* sweep) const { sweep->setProblem(problem(true), display_name(session_->file())); }

std::unique_ptr<user::FamilyCall> ConvolutionPage::userKernelCall() const {
    const QSize size = session_->imageSize();
    if (size.isEmpty()) return nullptr;
    return convolution_user_call(session_->grayBytes(), std::uint32_t(size.width()), std::uint32_t(size.height()),
                                 session_->mask());
}

// The session's launch as the launch panel lists it: the user's kernel while it runs one.
LaunchChoice ConvolutionPage::shownChoice() const {
    const LaunchChoice built_in = session_->choice();
    return session_->runsUserKernel() ? LaunchChoice{session_->userKernel(), built_in.block} : built_in;
}

std::function<ScheduleRun()> ConvolutionPage::scheduleJob() const { return session_->scheduleJob(); }

bool ConvolutionPage::showOutputElement(std::uint64_t index) {
    const QSize size = session_->imageSize();
    if (size.isEmpty() || index >= std::uint64_t(size.width()) * std::uint64_t(size.height())) return false;
    session_->select(QPoint(int(index % std::uint64_t(size.width())), int(index / std::uint64_t(size.width()))));
    return true;
}

void ConvolutionPage::chooseInSweep(SweepDialog* sweep) const { sweep->setFamily(session_->launch().ref().family); }

void ConvolutionPage::connectSweep(SweepDialog* sweep) {
    connect(sweep, &SweepDialog::launchChosen, session_, &ConvolutionSession::setChoice);
}

void ConvolutionPage::offerToLadder(LadderDialog* ladder) const { ladder->setProblem(problem(true), display_name(session_->file())); }

void ConvolutionPage::chooseInLadder(LadderDialog* ladder) const { ladder->setFamily(session_->launch().ref().family); }

void ConvolutionPage::connectLadder(LadderDialog* ladder) {
    connect(ladder, &LadderDialog::launchChosen, session_, &ConvolutionSession::setChoice);
}

// The predicted GPU time of the current launch (asked on every change) beside the measured or
// emulated one, in the launch panel and the status line.
void ConvolutionPage::predict() {
    if (session_->imageSize().isEmpty()) {
        prediction_->clear(tr("no image"));
        return;
    }
    prediction_->predict(session_->device(), problem(false), session_->choice());
    if (prediction_->pending()) showTimes();
}

void ConvolutionPage::showTimes() {
    const ConvolutionResult& last = session_->lastResult();
    const GpuPrediction& p = prediction_->prediction();
    if (isBound())
        docks().launch->showTimes(launch_times_html(p, prediction_->pending(), last.status ? &last.times : nullptr),
                                  prediction_details(p));
    if (!run_summary_.isEmpty() && !prediction_->pending() && statusText() == run_status_) {
        run_status_ = with_prediction(run_summary_, p);
        setStatus(run_status_);
    }
}

}  // namespace cvz

// ---- File > Save Result As, File > Export ---------------------------------------------------------

namespace cvz {

QString ConvolutionPage::documentFile() const { return session_->file(); }

QString ConvolutionPage::resultFileName() const {
    return QFileInfo(session_->file()).completeBaseName() + QStringLiteral("-%1.npy").arg(session_->maskName());
}

QString ConvolutionPage::resultFileFilter() const {
    return tr("NumPy float32 array (*.npy);;PNG image, clamped to 0..255 (*.png)");
}

QString ConvolutionPage::resultDescription() const { return tr("the convolved result"); }

// What `cudaviz-cli convolution IN OUT` writes, by the same writer: the float32 output, or its bytes.
std::function<QString()> ConvolutionPage::resultWriter(const QString& path, QString* error) const {
    const std::optional<ConvolutionOutputKind> kind = convolution_output_kind(path);
    if (!kind) {
        *error = tr("the name must end in .npy (float32) or .png (clamped to 0..255): that picks the format");
        return {};
    }
    const QImage shown = session_->result();
    const std::vector<float>& out = session_->output();
    if (shown.isNull() || out.size() != std::size_t(shown.width()) * std::size_t(shown.height())) {
        *error = tr("there is no kernel output yet");
        return {};
    }
    return [path, kind, out, w = std::uint32_t(shown.width()), h = std::uint32_t(shown.height())] {
        return write_convolution_output(path, *kind, out, w, h);
    };
}

std::optional<RunTiming> ConvolutionPage::lastRunTiming() const {
    if (session_->completedRuns() == 0) return std::nullopt;
    const ConvolutionResult& r = session_->lastResult();
    const QSize size = session_->result().size();
    return RunTiming{QStringLiteral("convolution"), r.shape_text,
                     tr("%1 x %2 image, mask %3").arg(size.width()).arg(size.height()).arg(session_->maskName()), r.backend,
                     r.kernel_ms, r.total_ms};
}

void ConvolutionPage::describeAnimation(AnimationExportRequest* request) const {
    request->waves = session_->waves();
    request->mode = session_->animationMode();
    request->block = session_->selectedBlock();
    request->title = tr("%1 with %2 over %3")
                         .arg(QString::fromStdString(to_string(session_->launch())), session_->maskName(),
                              QFileInfo(session_->file()).fileName());
}

}  // namespace cvz
