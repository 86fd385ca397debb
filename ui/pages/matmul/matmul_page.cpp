#include "app/matmul/matmul_resources.h"
#include "app/jobs/counted.h"
#include "ui/pages/matmul/matmul_page.h"
#include "kernels/matmul/matmul_user_call.h"
#include "ui/windows/elided_label.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/jobs/job_runner.h"
#include "app/io/matrix_generator.h"
#include "app/io/matrix_io.h"
#include "app/matmul/matmul_choice.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/matmul/matmul_step_trace.h"
#include "app/trace/memory_trace_session.h"
#include "ui/pages/trace_docks.h"
#include "ui/views/trace_presentation.h"
#include "ui/views/block_colors.h"
#include "kernels/core/index_math.h"
#include "ui/pages/matmul/matrix_heatmap.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/sm_panel.h"
#include "ui/panels/timeline_bar.h"
#include "app/tuning/prediction_session.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"
#include "app/models/kernel_resources.h"
#include "app/models/launch_config.h"
#include "kernels/catalogue/gpu_counter_notes.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/matmul/matmul_variants.h"

namespace cvz {

namespace {

// The default problem: odd enough that tiles are cut at the edges, small enough to run at once.
constexpr std::uint32_t kDefaultM = 45, kDefaultK = 60, kDefaultN = 38, kDefaultSeed = 1;

QString shape(const Matrix& m) { return QStringLiteral("%1 × %2").arg(m.rows).arg(m.cols); }

QString count(std::uint64_t n) { return QLocale(QLocale::English).toString(qulonglong(n)); }

QString operand_name(MatmulPage::Operand which) { return which == MatmulPage::Operand::A ? QStringLiteral("A") : QStringLiteral("B"); }

// Half-open element rectangles in the heatmap's (x = column, y = row) convention.
QRect to_rect(const MatrixRect& r) { return QRect(int(r.col), int(r.row), int(r.cols), int(r.rows)); }

}  // namespace

QColor MatmulPage::selectionBandColor() { return QColor(255, 176, 0, 110); }
QColor MatmulPage::sharedTileColor() { return QColor(0, 150, 150, 120); }
QColor MatmulPage::consumedColor() { return QColor(0, 150, 150, 45); }
QColor MatmulPage::warpTileColor() { return QColor(140, 60, 220, 40); }
QColor MatmulPage::threadTileColor() { return QColor(255, 140, 0, 170); }

MatmulPage::MatmulPage(JobRunner* runner, QWidget* parent)
    : KernelPage(parent), session_(new MatmulSession(runner, this)) {
    setObjectName(QStringLiteral("matmulPage"));
    buildLaunchExtras();
    a_view_ = new MatrixHeatmap(this);
    b_view_ = new MatrixHeatmap(this);
    c_view_ = new MatrixHeatmap(this);
    a_view_->setName(QStringLiteral("A"));
    b_view_->setName(QStringLiteral("B"));
    c_view_->setName(QStringLiteral("C"));
    a_title_ = new ElidedLabel(this);  // cut with "…" on a narrow window; whole in the tooltip
    b_title_ = new ElidedLabel(this);
    c_title_ = new ElidedLabel(this);

    auto rich = [this] {
        auto* l = new QLabel(this);
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        return l;
    };
    step_label_ = rich();
    step_label_->setObjectName(QStringLiteral("matmulStep"));
    counters_label_ = rich();
    counters_label_->setObjectName(QStringLiteral("matmulCounters"));
    counters_label_->setWordWrap(false);
    totals_label_ = rich();
    totals_label_->setObjectName(QStringLiteral("matmulTotals"));
    // The selected element's thread is in the window's Inspector dock (inspectorText()), not here.
    auto* info = new QWidget(this);
    auto* info_layout = new QVBoxLayout(info);
    info_layout->setContentsMargins(4, 4, 4, 4);
    info_layout->addWidget(step_label_);
    info_layout->addWidget(counters_label_);
    info_layout->addWidget(totals_label_);
    info_layout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(info);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    grid_ = new QGridLayout;
    grid_->setSpacing(6);
    grid_->addWidget(scroll, 0, 0);
    grid_->addWidget(buildMatrixPanel(b_view_, b_title_), 0, 1);
    grid_->addWidget(buildMatrixPanel(a_view_, a_title_), 1, 0);
    grid_->addWidget(buildMatrixPanel(c_view_, c_title_), 1, 1);

    auto* page = new QVBoxLayout(this);
    page->setContentsMargins(6, 6, 6, 6);
    page->addWidget(buildControls());
    page->addLayout(grid_, 1);

    linkAxes();
    // Clicking A picks the row, clicking B the column, of the selected output element.
    connect(c_view_, &MatrixHeatmap::elementClicked, this, &MatmulPage::selectElement);
    connect(a_view_, &MatrixHeatmap::elementClicked, this,
            [this](int row, int) { selectElement(row, std::max(0, selectedCol())); });
    connect(b_view_, &MatrixHeatmap::elementClicked, this,
            [this](int, int col) { selectElement(std::max(0, selectedRow()), col); });

    connect(session_, &MatmulSession::operandsChanged, this, &MatmulPage::onOperandsChanged);
    connect(session_, &MatmulSession::planChanged, this, &MatmulPage::onPlanChanged);
    // The memory trace: the step captions come from it, so the page wants it even with the docks hidden.
    trace_ = new MemoryTraceSession(runner, this);
    trace_docks_ = new TraceDocks(trace_, this);
    trace_docks_->setNeededByPage(true);
    connect(trace_, &MemoryTraceSession::traceChanged, this, &MatmulPage::refreshAnimation);
    connect(session_, &MatmulSession::runStarted, trace_, &MemoryTraceSession::cancel);
    prediction_ = new PredictionSession(this);
    connect(session_, &MatmulSession::planChanged, this, &MatmulPage::predict);
    connect(prediction_, &PredictionSession::predictionChanged, this, &MatmulPage::showTimes);

    connect(session_, &MatmulSession::stepChanged, this, &MatmulPage::refreshAnimation);
    connect(session_, &MatmulSession::runStarted, this, &MatmulPage::onRunStarted);
    connect(session_, &MatmulSession::runStarted, this, &KernelPage::workStarted);
    connect(session_, &MatmulSession::runFinished, this, &MatmulPage::onRunFinished);
    connect(session_, &MatmulSession::failed, this, &MatmulPage::showError);
    connect(session_, &MatmulSession::generated, this, [this](const QString& summary) { say(summary); });
    connect(session_, &MatmulSession::launchChanged, this, [this](const MatmulLaunch& l) {
        if (!settings_) return;
        // The catalogue name ("matmul_blocktile_2d"), so every variant is remembered.
        if (const KernelInfo* info = matmul_variant_info(l.kernel))
            settings_->setValue(QStringLiteral("matmul/kernel"), QString::fromStdString(info->name));
        settings_->setValue(QStringLiteral("matmul/block"), QStringLiteral("%1x%2").arg(l.block.x).arg(l.block.y));
        settings_->setValue(QStringLiteral("matmul/tile"), l.tile);
    });
    connect(session_, &MatmulSession::operandsChanged, this, &KernelPage::documentChanged);
    connect(session_, &MatmulSession::operandLoaded, this, [this](Operand which, const QString& source) {
        const auto m = which == Operand::A ? session_->a() : session_->b();
        say(tr("Loaded %1 (%2) from %3").arg(operand_name(which), shape(*m), source));
    });
    connect(session_, &MatmulSession::resultSaved, this, [this](const QString& path) {
        say(tr("Saved C (%1 × %2) to %3")
                               .arg(session_->c()->rows)
                               .arg(session_->c()->cols)
                               .arg(QFileInfo(path).fileName()));
    });

    setMatrices(random_matrix(kDefaultM, kDefaultK, kDefaultSeed), random_matrix(kDefaultK, kDefaultN, kDefaultSeed + 1),
                tr("random, seed %1").arg(kDefaultSeed), tr("random, seed %1").arg(kDefaultSeed + 1));
}

QWidget* MatmulPage::buildMatrixPanel(MatrixHeatmap* view, QLabel* title) {
    auto* panel = new QWidget(this);
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    title->setTextFormat(Qt::PlainText);
    // One line, so the titles of A and C have one height and their rows stay aligned.
    title->setWordWrap(false);
    title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    v->addWidget(title);
    v->addWidget(view, 1);
    return panel;
}

QWidget* MatmulPage::buildControls() {
    auto* box = new QWidget(this);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(4);

    auto* files = new QHBoxLayout;
    auto* open_a = new QPushButton(tr("Open A…"), box);
    auto* open_b = new QPushButton(tr("Open B…"), box);
    auto* save_c = new QPushButton(tr("Save C…"), box);
    open_a->setToolTip(tr("Load A from a .npy or .csv file"));
    open_b->setToolTip(tr("Load B from a .npy or .csv file"));
    save_c->setToolTip(tr("Save C as .npy (float32) or .csv"));
    presets_ = new QComboBox(box);
    // As wide as a short name: the page must fit a 1024-pixel screen beside the docks; the list is wider.
    presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    presets_->setMinimumContentsLength(16);
    presets_->addItem(tr("Lecture presets…"));
    for (const MatmulPreset& p : lecture_matmul_presets()) presets_->addItem(p.name);
    presets_->view()->setMinimumWidth(presets_->view()->sizeHintForColumn(0) + 24);
    cells_ = new QComboBox(box);
    cells_->addItem(tr("Cells: mean"));
    cells_->addItem(tr("Cells: max |v|"));
    cells_->setToolTip(tr("What a screen cell shows when it covers several elements"));
    files->addWidget(open_a);
    files->addWidget(open_b);
    files->addWidget(save_c);
    files->addSpacing(12);
    files->addWidget(presets_);
    files->addWidget(cells_);
    files->addStretch(1);

    // Sized for five digits rather than the eight of the largest side, so that the page fits a
    // 1024-pixel screen beside the docks; a larger number still fits where there is room.
    auto narrow = [](QSpinBox* s) {
        s->setMinimumWidth(s->fontMetrics().horizontalAdvance(QStringLiteral("000000")) + 2 * s->fontMetrics().height());
    };
    auto spin = [box, narrow](int value) {
        auto* s = new QSpinBox(box);
        s->setRange(1, int(MatrixLimits::kMaxSide));
        s->setValue(value);
        s->setAccelerated(true);
        narrow(s);
        return s;
    };
    a_rows_ = spin(int(kDefaultM));
    a_cols_ = spin(int(kDefaultK));
    b_rows_ = spin(int(kDefaultK));
    b_cols_ = spin(int(kDefaultN));
    seed_ = new QSpinBox(box);
    seed_->setRange(0, 1 << 30);
    seed_->setValue(int(kDefaultSeed));
    narrow(seed_);
    auto* gen = new QPushButton(tr("Generate"), box);
    gen->setToolTip(tr("Uniform values in [-1, 1): A from the seed, B from seed + 1"));
    auto* g = new QHBoxLayout;
    g->addWidget(new QLabel(tr("A"), box));
    g->addWidget(a_rows_);
    g->addWidget(new QLabel(QStringLiteral("×"), box));
    g->addWidget(a_cols_);
    g->addSpacing(8);
    g->addWidget(new QLabel(tr("B"), box));
    g->addWidget(b_rows_);
    g->addWidget(new QLabel(QStringLiteral("×"), box));
    g->addWidget(b_cols_);
    g->addSpacing(8);
    g->addWidget(new QLabel(tr("seed"), box));
    g->addWidget(seed_);
    g->addWidget(gen);
    g->addStretch(1);

    v->addLayout(files);
    v->addLayout(g);

    connect(open_a, &QPushButton::clicked, this, [this] { onOpen(Operand::A); });
    connect(open_b, &QPushButton::clicked, this, [this] { onOpen(Operand::B); });
    connect(save_c, &QPushButton::clicked, this, &MatmulPage::onSave);
    connect(gen, &QPushButton::clicked, this, [this] {
        generate(std::uint32_t(a_rows_->value()), std::uint32_t(a_cols_->value()), std::uint32_t(b_rows_->value()),
                 std::uint32_t(b_cols_->value()), std::uint32_t(seed_->value()));
    });
    connect(presets_, &QComboBox::activated, this, [this](int index) {
        if (index > 0) applyPreset(index - 1);
    });
    connect(cells_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const HeatmapReduction r = index == 0 ? HeatmapReduction::Mean : HeatmapReduction::MaxAbs;
        for (MatrixHeatmap* v : {a_view_, b_view_, c_view_}) v->setReduction(r);
    });
    return box;
}

// A's rows follow C's rows and B's columns follow C's columns, whichever view is zoomed or panned.
void MatmulPage::linkAxes() {
    MatrixHeatmap::shareCellShape({a_view_, b_view_, c_view_});  // square cells at one scale, or all filling
    connect(a_view_, &MatrixHeatmap::rowAxisChanged, this, [this] { c_view_->setRowAxis(a_view_->rowAxis()); });
    connect(c_view_, &MatrixHeatmap::rowAxisChanged, this, [this] { a_view_->setRowAxis(c_view_->rowAxis()); });
    connect(b_view_, &MatrixHeatmap::colAxisChanged, this, [this] { c_view_->setColAxis(b_view_->colAxis()); });
    connect(c_view_, &MatrixHeatmap::colAxisChanged, this, [this] { b_view_->setColAxis(c_view_->colAxis()); });
}

// ---- launch, backend, matrices: the session's --------------------------------------------------

void MatmulPage::setLaunch(const MatmulLaunch& launch) { session_->setLaunch(launch); }

void MatmulPage::setBackend(BackendChoice backend) { session_->setBackend(backend); }

void MatmulPage::setMatrices(Matrix a, Matrix b, const QString& a_source, const QString& b_source) {
    session_->setMatrices(std::move(a), std::move(b), a_source, b_source);
}

void MatmulPage::openMatrix(Operand which, const QString& path) {
    say(tr("Loading %1 from %2…").arg(operand_name(which), QFileInfo(path).fileName()));
    session_->openMatrix(which, path);
}

void MatmulPage::generate(std::uint32_t a_rows, std::uint32_t a_cols, std::uint32_t b_rows, std::uint32_t b_cols,
                          std::uint32_t seed) {
    if (check_matrix_dimensions(a_rows, a_cols).isEmpty() && check_matrix_dimensions(b_rows, b_cols).isEmpty())
        say(tr("Generating %1×%2 @ %3×%4…").arg(a_rows).arg(a_cols).arg(b_rows).arg(b_cols));
    session_->generate(a_rows, a_cols, b_rows, b_cols, seed);
}

void MatmulPage::applyPreset(int index) {
    const QList<MatmulPreset> presets = lecture_matmul_presets();
    if (index < 0 || index >= presets.size()) return;
    const MatmulPreset& p = presets[index];
    a_rows_->setValue(int(p.m));
    a_cols_->setValue(int(p.k));
    b_rows_->setValue(int(p.k));
    b_cols_->setValue(int(p.n));
    generate(p.m, p.k, p.k, p.n, std::uint32_t(seed_->value()));
}

void MatmulPage::saveResult(const QString& path) { session_->saveResult(path); }

// The file dialogs start next to the last matrix opened or saved (not in whatever folder the
// process started in).
QString MatmulPage::matrixFolder() const {
    return QSettings().value(QStringLiteral("files/lastMatrixDir"), QDir::homePath()).toString();
}

void MatmulPage::rememberMatrixFolder(const QString& path) {
    QSettings().setValue(QStringLiteral("files/lastMatrixDir"), QFileInfo(path).absolutePath());
}

void MatmulPage::onOpen(Operand which) {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open matrix %1").arg(operand_name(which)), matrixFolder(),
                                                      tr("Matrices (*.npy *.csv);;All files (*)"));
    if (path.isEmpty()) return;
    rememberMatrixFolder(path);
    openMatrix(which, path);
}

void MatmulPage::onSave() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save C"), QDir(matrixFolder()).filePath(QStringLiteral("C.npy")),
                                                      tr("NumPy (*.npy);;CSV (*.csv)"));
    if (path.isEmpty()) return;
    rememberMatrixFolder(path);
    saveResult(path);
}

// Not modal: a message never blocks the page (or a test), and whatever was open stays.
void MatmulPage::showError(const QString& text) {
    last_error_ = text;
    say(text, true);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Matrices"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

// ---- what the session reports -------------------------------------------------------------------

void MatmulPage::onOperandsChanged() {
    const auto a = session_->a(), b = session_->b();
    if (!session_->c()) c_view_->setMatrix(nullptr);  // cleared before A and B, so linked axes never take a stale C's fit
    a_view_->setMatrix(a);
    b_view_->setMatrix(b);
    // The generator's boxes show the shapes in use, whichever way they came.
    const std::pair<QSpinBox*, std::uint32_t> shapes[] = {{a_rows_, a->rows}, {a_cols_, a->cols}, {b_rows_, b->rows}, {b_cols_, b->cols}};
    for (auto [box, value] : shapes) {
        const QSignalBlocker block(box);
        box->setValue(int(value));
    }
    updateStretch();
    // The presets box names a preset only while the matrices have its sizes.
    const QList<MatmulPreset> presets = lecture_matmul_presets();
    const int preset = presets_->currentIndex() - 1;
    if (preset >= 0 && preset < presets.size() &&
        !(a->rows == presets[preset].m && a->cols == presets[preset].k && b->rows == presets[preset].k &&
          b->cols == presets[preset].n))
        presets_->setCurrentIndex(0);
    if (!session_->shapesMatch()) {
        c_view_->setMatrix(nullptr);
        c_view_->setWrongMask(nullptr);
        c_view_->setPlaceholder(session_->shapeError());
    }
    refreshTitles();
}

void MatmulPage::onPlanChanged() {
    const MatmulLaunch launch = session_->launch();
    // The blocks' output tiles in C (blockDim for the lecture's kernels, the block tile for the
    // register-tiled ones), and the K-slices a phase stages from A and B.
    const Dim3 per = matmul_output_tile(launch);
    const int slice = int(matmul_k_slice(launch));
    c_view_->setTileGrid(int(per.y), int(per.x));
    a_view_->setTileGrid(int(per.y), slice);
    b_view_->setTileGrid(slice, int(per.x));
    refreshTitles();
    if (animationSteps() != announced_steps_ || animationUnit() != announced_unit_) {
        announced_steps_ = animationSteps();
        announced_unit_ = animationUnit();
        emit animationChanged();
    }
}

void MatmulPage::onRunStarted() {
    c_view_->setWrongMask(nullptr);
    c_view_->setPlaceholder(tr("computing…"));
    refreshTitles();
    say(tr("Running %1 on %2 @ %3…")
                           .arg(QString::fromStdString(to_string(session_->launch())), shape(*session_->a()),
                                shape(*session_->b())));
}

void MatmulPage::onRunFinished(const MatmulResult& result) {
    if (result.status) traceLaunch();
    else trace_->clearLaunch(result.summary());
    if (!result.status) {
        c_view_->setMatrix(nullptr);
        c_view_->setPlaceholder(result.summary());
        refreshTitles();
        refreshInfo();
        say(result.summary(), true);
        emit resultReady(result);
        return;
    }
    c_view_->setMatrix(session_->c());
    c_view_->setWrongMask(session_->wrongMask());
    refreshTitles();
    refreshInfo();
    QString message = result.summary();
    if (!session_->runNote().isEmpty()) message += QStringLiteral(" · ") + session_->runNote();
    if (session_->wrongCount() >= 0)
        message += tr(" · %1 of %2 outputs wrong without the second __syncthreads()")
                       .arg(count(std::uint64_t(session_->wrongCount())), count(session_->c()->size()));
    run_summary_ = message;
    run_status_ = with_prediction(run_summary_, prediction_->prediction());
    say(run_status_);
    showTimes();
    emit resultReady(result);
}

void MatmulPage::predict() {
    const auto a = session_->a(), b = session_->b();
    if (!a || !b || !session_->shapeError().isEmpty()) {
        prediction_->clear(a && b ? session_->shapeError() : tr("no matrices"));
        return;
    }
    prediction_->predict(session_->device(), std::make_shared<const MatmulAppProblem>(a->rows, a->cols, b->cols),
                         matmul_choice(session_->launch()));
    if (prediction_->pending()) showTimes();
}

void MatmulPage::showTimes() {
    const MatmulResult& last = session_->lastResult();
    const GpuPrediction& p = prediction_->prediction();
    if (isBound())
        docks().launch->showTimes(launch_times_html(p, prediction_->pending(), last.status ? &last.times : nullptr),
                                  prediction_details(p));
    if (!run_summary_.isEmpty() && !prediction_->pending() && statusText() == run_status_) {
        run_status_ = with_prediction(run_summary_, p);
        say(run_status_);
    }
}

// ---- animation ----------------------------------------------------------------------------------

int MatmulPage::animationSteps() const { return session_->animationSteps(); }

QString MatmulPage::animationUnit() const {
    return session_->model().staged() ? tr("step") : tr("chunk");
}

void MatmulPage::setAnimationPosition(int position) { session_->setAnimationPosition(position); }

QString MatmulPage::animationCaption() const {
    if (!session_->model().valid()) return tr("no valid problem");
    // What the step does, read from the trace of the selected thread's warp (app/matmul_step_trace).
    const QString what = matmul_step_caption(trace_->trace(), step_requests_, session_->step(), trace_->warpTraced());
    QString caption = tr("Block (%1, %2) · %3").arg(session_->selectedBlock().x).arg(session_->selectedBlock().y).arg(what);
    if (session_->wrongCount() >= 0)
        caption += tr(" · %1 wrong").arg(counted(qulonglong(session_->wrongCount()), tr("output"), tr("outputs")));
    return caption;
}

void MatmulPage::traceLaunch() {
    const MatmulLaunch l = session_->resultLaunch();
    const KernelInfo* info = matmul_variant_info(l.kernel);
    QString name = info ? QString::fromStdString(info->name) : QString();
    if (info && !info->tiles.empty()) name += QStringLiteral("<%1>").arg(l.tile);  // the TILE it was compiled for
    const MatmulPhaseModel& model = session_->model();
    trace_docks_->setLaunchLine(launch_line(name, model.grid(), l.block_shape(), l.shared_bytes()));
    trace_docks_->setGpuNote(info ? QString::fromStdString(gpu_counter_note(info->name)) : QString());
    trace_->setLaunch(session_->traceJob());
}

void MatmulPage::refreshThreadTiles(std::uint64_t block) {
    std::shared_ptr<const MemoryTrace> trace = trace_->warpTraced() && trace_->block() == block ? trace_->traceShared() : nullptr;
    if (!trace) {
        if (!thread_tiles_.empty() && thread_tiles_.block() != block) thread_tiles_ = {};
        return;
    }
    // Held, not just compared by address: a newer launch's trace can never be taken for this one.
    if (trace == tiles_trace_ && thread_tiles_.block() == block && !thread_tiles_.empty()) return;
    tiles_trace_ = trace;
    thread_tiles_ = MatmulThreadTiles::of_block(*trace, block, session_->model().n());
}

void MatmulPage::showTracedStep() {
    const MatmulPhaseModel& model = session_->model();
    if (!model.valid()) {
        trace_->clearWarp();
        step_requests_.clear();
        thread_tiles_ = {};
        thread_id_.reset();
        trace_docks_->setWarpTitle(QString());
        trace_docks_->setStep({}, true);
        return;
    }
    const Dim3 block = session_->selectedBlock();
    const Dim3 shape = session_->launch().block_shape();
    const std::uint64_t block_id = linear_block_id(block, model.grid());
    // The selected element's thread: the kernels' index formula for the lecture's kernels; for the
    // register-tiled ones, the thread whose traced store wrote it (known once the block is traced).
    thread_id_.reset();
    if (session_->selectedRow() >= 0) {
        const std::uint32_t r = std::uint32_t(session_->selectedRow()), c = std::uint32_t(session_->selectedCol());
        const MatmulThread t = matmul_thread_of_element(session_->launch(), r, c);
        if (t.one_output_per_thread) thread_id_ = t.thread.x + t.thread.y * shape.x;
        else {
            // Pick the block first, so that its trace is what the session keeps.
            if (!(trace_->hasWarp() && trace_->block() == block_id)) trace_->pickWarp(block_id, 0);
            refreshThreadTiles(block_id);
            thread_id_ = thread_tiles_.thread_of(r, c);
        }
    }
    const std::uint32_t linear_thread = thread_id_.value_or(0);
    const std::uint32_t warp = linear_thread / 32;
    trace_->pickWarp(block_id, warp);
    refreshThreadTiles(block_id);
    step_requests_ = matmul_step_requests(trace_->warpRequests(), session_->step(), model.k());
    const std::uint64_t threads = std::uint64_t(shape.x) * shape.y;
    trace_docks_->setWarpTitle(tr("Block (%1, %2) · warp %3: threads %4–%5 · thread (%6, %7) is lane %8")
                                   .arg(block.x).arg(block.y).arg(warp)
                                   .arg(std::uint64_t(warp) * 32)
                                   .arg(std::min<std::uint64_t>(std::uint64_t(warp) * 32 + 32, threads) - 1)
                                   .arg(linear_thread % shape.x).arg(linear_thread / shape.x).arg(linear_thread % 32));
    trace_docks_->setStep(step_requests_, false);
}

MatmulStepCounters MatmulPage::animationCounters() const {
    const MatmulPhaseModel& model = session_->model();
    if (!model.valid() || model.closed_form_counters()) return session_->step().counters;
    const MemoryTrace* trace = trace_->warpTraced() ? trace_->trace() : nullptr;
    if (!trace) {
        MatmulStepCounters c;
        c.k_done = session_->step().counters.k_done;
        return c;
    }
    return matmul_traced_counters(*trace, trace_->block(), thread_id_.value_or(0), session_->step(), model.k());
}

void MatmulPage::refreshAnimation() {
    showTracedStep();
    const QColor block_color = color_for_id(linear_block_id(session_->selectedBlock(), session_->model().grid()));
    QColor tile_fill = block_color;
    tile_fill.setAlpha(60);

    QList<HeatmapHighlight> a, b, c;
    if (session_->model().valid()) {
        a.append({to_rect(session_->step().a_done), consumedColor(), false});
        b.append({to_rect(session_->step().b_done), consumedColor(), false});
        a.append({to_rect(session_->step().a_current), sharedTileColor(), true});
        b.append({to_rect(session_->step().b_current), sharedTileColor(), true});
        c.append({to_rect(session_->step().c_tile), tile_fill, true});
        if (session_->selectedRow() >= 0) {
            // The selected thread's outputs, and its warp's: read off the block's traced stores.
            const std::vector<MatrixRect> own = thread_id_ && !thread_tiles_.empty() ? thread_tiles_.thread_tile(*thread_id_)
                                                                                     : std::vector<MatrixRect>{};
            if (thread_id_ && !thread_tiles_.empty())
                for (const MatrixRect& r : thread_tiles_.warp_tile(*thread_id_ / 32)) c.append({to_rect(r), warpTileColor(), true});
            for (const MatrixRect& r : own) c.append({to_rect(r), threadTileColor(), true});
            // The rows of A and columns of B the thread reads: its tile's, or the selected element's.
            const int k = int(session_->model().k());
            if (own.empty()) {
                a.append({QRect(0, session_->selectedRow(), k, 1), selectionBandColor(), true});
                b.append({QRect(session_->selectedCol(), 0, 1, k), selectionBandColor(), true});
            }
            for (const MatrixRect& r : own) {
                a.append({QRect(0, int(r.row), k, int(r.rows)), selectionBandColor(), true});
                b.append({QRect(int(r.col), 0, int(r.cols), k), selectionBandColor(), true});
            }
        }
    }
    a_view_->setHighlights(a);
    b_view_->setHighlights(b);
    c_view_->setHighlights(c);
    c_view_->setSelectedElement(session_->selectedRow(), session_->selectedCol());
    refreshInfo();
    emit captionChanged(animationCaption());
}

// ---- selection ----------------------------------------------------------------------------------

void MatmulPage::selectElement(int row, int col) { session_->selectElement(row, col); }

void MatmulPage::selectThread(Dim3 block, Dim3 thread) { session_->selectThread(block, thread); }

QString MatmulPage::inspectorText() const {
    if (session_->selectedRow() < 0 || !session_->model().valid()) return tr("Click an element of C (or a row of A, a column of B) to see the thread that computes it.");
    const std::uint32_t r = std::uint32_t(session_->selectedRow()), col = std::uint32_t(session_->selectedCol());
    const MatmulThread t = matmul_thread_of_element(session_->launch(), r, col);
    const Dim3 bd = session_->launch().block_shape();
    QStringList lines;
    lines << tr("C[%1, %2]").arg(r).arg(col);
    if (t.one_output_per_thread) {
        lines << tr("blockIdx = (%1, %2)   threadIdx = (%3, %4)").arg(t.block.x).arg(t.block.y).arg(t.thread.x).arg(t.thread.y);
        lines << tr("  row    = blockIdx.y·blockDim.y + threadIdx.y = %1·%2 + %3").arg(t.block.y).arg(bd.y).arg(t.thread.y);
        lines << tr("  column = blockIdx.x·blockDim.x + threadIdx.x = %1·%2 + %3").arg(t.block.x).arg(bd.x).arg(t.thread.x);
    } else {
        // A register-tiled block: its output tile is larger than the block; which thread computes
        // which outputs is the variant's own pattern, read off the block's traced stores.
        const Dim3 per = matmul_output_tile(session_->launch());
        if (thread_id_)
            lines << tr("blockIdx = (%1, %2)   threadIdx = (%3, %4)").arg(t.block.x).arg(t.block.y)
                         .arg(*thread_id_ % bd.x).arg(*thread_id_ / bd.x);
        else
            lines << tr("blockIdx = (%1, %2)   threadIdx: reading the block's trace…").arg(t.block.x).arg(t.block.y);
        lines << tr("  the block's %1 threads compute a %2×%3 tile of C: rows %4–%5, columns %6–%7")
                     .arg(bd.x * bd.y * bd.z).arg(per.y).arg(per.x)
                     .arg(t.block.y * per.y).arg(t.block.y * per.y + per.y - 1)
                     .arg(t.block.x * per.x).arg(t.block.x * per.x + per.x - 1);
    }
    lines << threadTileLines();
    lines << tr("dot product of A row %1 and B column %2: K = %3 terms").arg(r).arg(col).arg(session_->model().k());
    // The float64 reference of this one element, on the fly: K multiply-adds.
    double ref = 0;
    for (std::uint32_t k = 0; k < session_->model().k(); ++k) ref += double(session_->a()->at(r, k)) * double(session_->b()->at(k, col));
    lines << tr("reference (float64) = %1").arg(QString::number(ref, 'g', 15));
    if (session_->c() && session_->c()->rows == session_->model().m() && session_->c()->cols == session_->model().n()) {
        const float got = session_->c()->at(r, col);
        const double diff = double(got) - ref;
        lines << tr("kernel (float32)    = %1").arg(QString::number(double(got), 'g', 9));
        lines << tr("difference          = %1 (relative %2)")
                     .arg(QString::number(diff, 'g', 3), QString::number(std::fabs(diff) / std::max(1.0, std::fabs(ref)), 'g', 3));
        if (session_->wrongMask() && (*session_->wrongMask())[std::size_t(r) * session_->c()->cols + col])
            lines << tr("WRONG: with both barriers it is %1 — a thread overwrote a shared tile\n"
                        "       before this one had read it (the removed __syncthreads())")
                         .arg(QString::number(double(session_->safeC()->at(r, col)), 'g', 9));
    } else {
        lines << tr("kernel (float32)    = %1").arg(session_->running() ? tr("computing…") : tr("—"));
    }
    return lines.join(QLatin1Char('\n'));
}

namespace {

// "rows 8–15 × columns 0–7", or for several rectangles "4 rectangles of 8×4 (rows 0–71, columns 0–67)".
QString rects_text(const std::vector<MatrixRect>& rects) {
    if (rects.empty()) return {};
    std::uint32_t r0 = rects[0].row, r1 = 0, c0 = rects[0].col, c1 = 0;
    bool same = true;
    for (const MatrixRect& r : rects) {
        r0 = std::min(r0, r.row), c0 = std::min(c0, r.col);
        r1 = std::max(r1, r.row + r.rows - 1), c1 = std::max(c1, r.col + r.cols - 1);
        same &= r.rows == rects[0].rows && r.cols == rects[0].cols;
    }
    const QString span = MatmulPage::tr("rows %1–%2 × columns %3–%4").arg(r0).arg(r1).arg(c0).arg(c1);
    if (rects.size() == 1) return span;
    if (same) return MatmulPage::tr("%1 tiles of %2×%3 within %4").arg(rects.size()).arg(rects[0].rows).arg(rects[0].cols).arg(span);
    return MatmulPage::tr("%1 rectangles within %2").arg(rects.size()).arg(span);
}

}  // namespace

QStringList MatmulPage::threadTileLines() const {
    if (!thread_id_ || thread_tiles_.empty()) return {};
    const std::uint32_t t = *thread_id_, warp = t / 32;
    const std::vector<MatrixRect> own = thread_tiles_.thread_tile(t), lanes = thread_tiles_.warp_tile(warp);
    std::size_t warp_outputs = 0;
    for (const MatrixRect& r : lanes) warp_outputs += std::size_t(r.rows) * r.cols;
    QStringList lines;
    lines << tr("thread %1 of the block = warp %2, lane %3 (orange: its outputs; violet: its warp's)").arg(t).arg(warp).arg(t % 32);
    lines << tr("  it computes %1: %2").arg(counted(qulonglong(thread_tiles_.outputs_of_thread(t)), tr("output"), tr("outputs")), rects_text(own));
    lines << tr("  warp %1 computes %2: %3").arg(warp).arg(counted(qulonglong(warp_outputs), tr("output"), tr("outputs")), rects_text(lanes));
    return lines;
}

// ---- text ---------------------------------------------------------------------------------------

void MatmulPage::refreshTitles() {
    auto title = [](const QString& name, const std::shared_ptr<const Matrix>& m, const QString& source) {
        if (!m) return name;
        return QStringLiteral("%1 · %2 · %3").arg(name, shape(*m), source);
    };
    a_title_->setText(title(tr("A (M × K)"), session_->a(), session_->aSource()));
    b_title_->setText(title(tr("B (K × N)"), session_->b(), session_->bSource()));
    // C's caption: what C is, its shape, the launch, the run's state. Where it does not fit, the launch
    // goes first (the launch panel shows it), then the shape: what is wrong or running stays.
    QString what = tr("C = A @ B");
    QString shape_text, launch_text, state;
    if (session_->a() && session_->b() && session_->shapesMatch())
        shape_text = QStringLiteral(" · %1 × %2").arg(session_->a()->rows).arg(session_->b()->cols);
    if (session_->model().valid())
        launch_text = tr(" · %1 · grid %2×%3").arg(QString::fromStdString(to_string(session_->launch()))).arg(session_->model().grid().x).arg(session_->model().grid().y);
    if (session_->running()) state = tr(" · running…");
    else if (session_->wrongCount() >= 0) state = tr(" · %1 wrong (red)").arg(count(std::uint64_t(session_->wrongCount())));
    c_title_->setText(what + shape_text + launch_text + state);
    c_title_->setShortTexts({what + shape_text + state, what + state});
    // One line each (A's and C's rows stay aligned), shortened on a narrow window: whole in the tooltip.
    for (QLabel* t : {static_cast<QLabel*>(a_title_), static_cast<QLabel*>(b_title_), static_cast<QLabel*>(c_title_)})
        t->setToolTip(t->text());
}

void MatmulPage::refreshInfo() {
    if (!session_->model().valid()) {
        step_label_->setText(session_->a() && session_->b() ? check_matmul_shapes(*session_->a(), *session_->b()).toHtmlEscaped() : QString());
        counters_label_->clear();
        totals_label_->clear();
        return;
    }
    const MatmulStepCounters n = animationCounters();
    const bool tiled = session_->model().staged();
    const Dim3 bd = session_->launch().block_shape();
    const Dim3 th = thread_id_ ? Dim3{*thread_id_ % bd.x, *thread_id_ / bd.x, 0} : session_->selectedThread();
    // One line per request of the selected thread's warp in this step, from the trace.
    const QString detail = matmul_step_details(trace_->trace(), step_requests_).join(QStringLiteral("<br>"));
    step_label_->setText(QStringLiteral("<b>%1</b><br>%2").arg(animationCaption().toHtmlEscaped(), detail));
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='2'>"
                           "<tr><th align='left'>so far</th><th align='right'>&nbsp;block (%1, %2)</th>"
                           "<th align='right'>&nbsp;thread (%3, %4)</th></tr>")
                .arg(session_->selectedBlock().x).arg(session_->selectedBlock().y).arg(th.x).arg(th.y);
    auto row = [&html](const QString& name, std::uint64_t block, std::uint64_t thread) {
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td></tr>")
                    .arg(name, count(block), count(thread));
    };
    row(tr("global loads"), n.block_global_loads, n.thread_global_loads);
    if (tiled) row(tr("shared loads"), n.block_shared_loads, n.thread_shared_loads);
    row(tr("global stores"), n.block_global_stores, n.thread_global_stores);
    html += QStringLiteral("</table>");
    counters_label_->setText(html);
    if (!session_->model().closed_form_counters()) {
        // Register-tiled: no closed form here; the step's counts come from the selected block's trace.
        if (!trace_->warpTraced()) counters_label_->setText(tr("<i>Counting the block's accesses off its trace…</i>"));
        html = tr("<p>Whole kernel");
        if (const std::optional<MatmulTraffic> m = session_->measuredTraffic()) {
            html += tr(", counted by the traced emulator: <b>%1</b> global loads (at most %2 per thread), %3 shared loads, "
                       "%4 barriers")
                        .arg(count(m->global_loads), count(m->max_global_loads_per_thread), count(m->shared_loads), count(m->barriers));
        } else {
            html += session_->running() ? tr(": counting…") : tr(": too large to count access by access (the Memory dock has the figures)");
        }
        totals_label_->setText(html + QStringLiteral(".</p>"));
        return;
    }
    const MatmulTraffic p = predictedTraffic();
    html = tr("<p>Whole kernel: <b>%1</b> global loads (at most %2 per thread)")
                .arg(count(p.global_loads), count(p.max_global_loads_per_thread));
    if (tiled) html += tr(", %1 shared loads, %2 barriers").arg(count(p.shared_loads), count(p.barriers));
    html += tr(" — predicted");
    if (session_->measuredTraffic()) {
        const bool match = session_->measuredTraffic()->global_loads == p.global_loads && session_->measuredTraffic()->shared_loads == p.shared_loads &&
                           session_->measuredTraffic()->global_stores == p.global_stores && session_->measuredTraffic()->barriers == p.barriers;
        html += match ? tr("; counted by the traced emulator: <b>match</b>")
                      : tr("; counted by the traced emulator: <b>differ</b> (%1 global loads)").arg(count(session_->measuredTraffic()->global_loads));
    } else if (!session_->running()) {
        html += tr(" (too large to count access by access)");
    }
    html += QStringLiteral(".</p>");
    if (session_->wrongCount() >= 0 && session_->c())
        html += tr("<p><b style='color:#c00000'>%1 of %2 outputs wrong</b> without the second __syncthreads() (outlined red in C).</p>")
                    .arg(count(std::uint64_t(session_->wrongCount())), count(session_->c()->size()));
    totals_label_->setText(html);
}

// The classic diagram's proportions (A's width and B's height follow K, C's follow N and M), clamped
// so that no view shrinks to a sliver for 784-wide or 50000-tall matrices.
void MatmulPage::updateStretch() {
    if (!session_->a() || !session_->b()) return;
    auto ratio = [](double x, double y) { return int(std::lround(100 * std::clamp(x / std::max(1.0, y), 0.6, 1.6))); };
    grid_->setColumnStretch(0, ratio(session_->a()->cols, session_->b()->cols));
    grid_->setColumnStretch(1, 100);
    grid_->setRowStretch(0, ratio(session_->b()->rows, session_->a()->rows));
    grid_->setRowStretch(1, 100);
}

// ---- KernelPage ---------------------------------------------------------------------------------

bool MatmulPage::resultShown() const { return session_->completedRuns() >= 1 && !session_->running(); }

QString MatmulPage::title() const { return tr("&Matrices: matmul"); }

// No grid overlay: the matrices draw their own tiles and highlights.
PageDocks::Docks MatmulPage::docksUsed() const {
    return PageDocks::Launch | PageDocks::Inspector | PageDocks::Occupancy | PageDocks::Sms | PageDocks::Timeline |
           PageDocks::Source | PageDocks::Memory;
}

QString MatmulPage::documentText() const {
    const auto a = session_->a(), b = session_->b();
    if (!a || !b) return {};
    return tr("A %1  B %2").arg(shape(*a), shape(*b));
}

void MatmulPage::setDevice(const DeviceProfile& device) { session_->setDevice(device); }

void MatmulPage::runAgain() { session_->requestRun(); }

void MatmulPage::togglePlay() {
    if (isBound()) docks().timeline->togglePlay();
}

void MatmulPage::say(const QString& text, bool error) {
    setStatus(text, error);
    emit statusMessage(text);
}

void MatmulPage::restoreSettings(QSettings* settings) {
    settings_ = nullptr;  // restoring writes nothing back
    MatmulLaunch l = MatmulLaunch::naive(16, 16);
    const LaunchConfigParse block = parse_launch_config(settings->value(QStringLiteral("matmul/block"), "16x16").toString());
    if (block.ok() && !is_one_d(block.shape)) l.block = block.shape.block;
    // A catalogue name, or the spellings written before the catalogue ("naive", "tiled").
    const QString name = settings->value(QStringLiteral("matmul/kernel"), QStringLiteral("naive")).toString();
    const KernelInfo* info = find_kernel(KernelFamily::Matmul, name.toStdString());
    if (!info) info = find_kernel(KernelFamily::Matmul, "matmul_" + name.toStdString());
    if (info) l.kernel = MatmulVariant(info->variant);
    const unsigned tile = settings->value(QStringLiteral("matmul/tile"), 16).toUInt();
    const std::vector<unsigned>& tiles = info ? info->tiles : std::vector<unsigned>{};
    l.tile = std::find(tiles.begin(), tiles.end(), tile) != tiles.end() ? tile : 16;
    if (info && info->block == BlockRule::Tile) l.block = Dim3{l.tile, l.tile, 1};
    if (info && info->block == BlockRule::Fixed) l.block = info->fixed_block;
    session_->setLaunch(l);
    settings_ = settings;
}

void MatmulPage::onBind(const PageDocks& d) {
    d.launch->setFamily(KernelFamily::Matmul);
    {
        const QSignalBlocker block(d.launch);
        d.launch->setChoice(shownChoice());
    }
    d.launch->setExtraControls(launch_extras_);
    keep(connect(d.launch, &LaunchPanel::choiceChanged, this, &MatmulPage::onLaunchChosen));
    keep(connect(d.timeline, &TimelineBar::positionChanged, this,
                 [this](int position) { session_->setAnimationPosition(std::max(0, position)); }));
    d.animation_mode->setEnabled(false);  // the matrices have one animation: the kernel's own steps
    keep(connect(session_, &MatmulSession::planChanged, this, &MatmulPage::showDocks));
    keep(connect(session_, &MatmulSession::stepChanged, this, &MatmulPage::showDocks));
    keep(connect(session_, &MatmulSession::runFinished, this, &MatmulPage::showDocks));
    keep(connect(trace_, &MemoryTraceSession::traceChanged, this, &MatmulPage::showDocks));
    trace_docks_->bind(d.source, d.memory);
    showDocks();
    showTimes();
}

void MatmulPage::onUnbind() {
    docks().launch->setExtraControls(nullptr);
    trace_docks_->unbind();
}

MatmulPage::~MatmulPage() { delete launch_extras_; }

void MatmulPage::onLaunchChosen(const LaunchChoice& choice) {
    if (choice.ref.family != KernelFamily::Matmul) return;
    // A kernel of the user's: the session runs it, with the block of the built-in standing in for it.
    session_->setUserKernel(choice.ref, matmul_launch(builtinStandIn(choice), session_->launch()));
}

// The session's launch as the launch panel lists it: the user's kernel while it runs one.
LaunchChoice MatmulPage::shownChoice() const {
    const LaunchChoice built_in = matmul_choice(session_->launch());
    return session_->runsUserKernel() ? LaunchChoice{session_->userKernel(), built_in.block} : built_in;
}

void MatmulPage::buildLaunchExtras() {
    launch_extras_ = new QWidget(this);
    launch_extras_->setObjectName(QStringLiteral("matmulLaunchExtras"));
    launch_extras_->hide();
    auto* v = new QVBoxLayout(launch_extras_);
    v->setContentsMargins(0, 0, 0, 0);
    barrier_box_ = new QCheckBox(tr("Remove the second __syncthreads() (emulator)"), launch_extras_);
    barrier_box_->setObjectName(QStringLiteral("barrierBox"));
    barrier_box_->setToolTip(tr("Runs the kernel on the emulator without the barrier after the multiply: "
                                "a fast thread overwrites the tiles its neighbours still read"));
    v->addWidget(barrier_box_);
    showBarrier();
    connect(barrier_box_, &QCheckBox::toggled, this, [this](bool removed) {
        const KernelInfo* info = matmul_variant_info(session_->launch().kernel);
        if (!info || !info->barriers) return;
        MatmulLaunch l = session_->launch();
        l.second_barrier = !removed;
        session_->setLaunch(l);
    });
}

void MatmulPage::showBarrier() {
    const MatmulLaunch l = session_->launch();
    const KernelInfo* info = matmul_variant_info(l.kernel);
    const QSignalBlocker block(barrier_box_);
    barrier_box_->setEnabled(info && info->barriers);
    barrier_box_->setChecked(!l.second_barrier);
}

// The launch's numbers, occupancy, the SMs (the model's waves: the matrices have no wave animation,
// so every wave is shown done and the selected block outlined), the timeline and the inspector.
void MatmulPage::showDocks() {
    if (!isBound()) return;
    const PageDocks& d = docks();
    const MatmulLaunch l = session_->launch();
    const MatmulPhaseModel& model = session_->model();
    {
        const QSignalBlocker block(d.launch);
        d.launch->setChoice(shownChoice());
    }
    showBarrier();
    if (model.valid()) {
        d.launch->showStats(tr("<table><tr><td>Kernel</td><td align=right><b>%1</b></td></tr>"
                                     "<tr><td>Grid</td><td align=right><b>%2 × %3</b> blocks of %4 × %5</td></tr>"
                                     "<tr><td>Output</td><td align=right>%6 × %7, K = %8</td></tr></table>")
                                      .arg(QString::fromStdString(to_string(l)))
                                      .arg(model.grid().x)
                                      .arg(model.grid().y)
                                      .arg(l.block_shape().x)
                                      .arg(l.block_shape().y)
                                      .arg(model.m())
                                      .arg(model.n())
                                      .arg(model.k()));
    } else {
        d.launch->showStats(session_->shapeError().toHtmlEscaped());
    }
    d.occupancy->setBlock(matmul_block_resources(l));
    const WavePlan& waves = session_->waves();
    d.sms->setPlan(waves);
    d.sms->setWave(waves.waves);
    d.sms->setHighlightBlock(model.valid() ? std::int64_t(linear_block_id(session_->selectedBlock(), model.grid())) : -1);
    d.sm_caption->setText(d.sms->caption());
    d.timeline->setSteps(animationSteps(), animationUnit());
    d.timeline->setEnabled(true);
    if (d.timeline->position() != animationPosition()) d.timeline->setPosition(animationPosition());
    d.timeline->setLabel(animationCaption());
    d.inspector->showText(inspectorText());
}

void MatmulPage::offerToSweep(SweepDialog* sweep) const {
    if (session_->a() && session_->b())
        sweep->setProblem(make_matmul_problem(*session_->a(), *session_->b()), tr("current matrices"));
}

std::unique_ptr<user::FamilyCall> MatmulPage::userKernelCall() const {
    const std::shared_ptr<const Matrix> a = session_->a(), b = session_->b();
    if (!a || !b || a->cols != b->rows) return nullptr;
    return matmul_user_call(a->data, b->data, a->rows, a->cols, b->cols);
}

bool MatmulPage::showOutputElement(std::uint64_t index) {
    const std::shared_ptr<const Matrix> a = session_->a(), b = session_->b();
    if (!a || !b || b->cols == 0 || index >= std::uint64_t(a->rows) * b->cols) return false;
    session_->selectElement(int(index / b->cols), int(index % b->cols));
    return true;
}

void MatmulPage::chooseInSweep(SweepDialog* sweep) const { sweep->setFamily(KernelFamily::Matmul); }

void MatmulPage::connectSweep(SweepDialog* sweep) {
    connect(sweep, &SweepDialog::launchChosen, session_, [session = session_](const LaunchChoice& c) {
        if (c.ref.family == KernelFamily::Matmul) session->setLaunch(matmul_launch_of(c));
    });
}

void MatmulPage::offerToLadder(LadderDialog* ladder) const {
    if (session_->a() && session_->b())
        ladder->setProblem(make_matmul_problem(*session_->a(), *session_->b()), tr("current matrices"));
}

void MatmulPage::chooseInLadder(LadderDialog* ladder) const { ladder->setFamily(KernelFamily::Matmul); }

void MatmulPage::connectLadder(LadderDialog* ladder) {
    connect(ladder, &LadderDialog::launchChosen, session_, [session = session_](const LaunchChoice& c) {
        if (c.ref.family == KernelFamily::Matmul) session->setLaunch(matmul_launch_of(c));
    });
}

}  // namespace cvz

// ---- File > Save Result As, File > Export ---------------------------------------------------------

namespace cvz {

QString MatmulPage::resultFileFilter() const { return tr("NumPy (*.npy);;CSV (*.csv)"); }

QString MatmulPage::resultDescription() const { return tr("C"); }

std::function<QString()> MatmulPage::resultWriter(const QString& path, QString* error) const {
    const std::shared_ptr<const Matrix> c = session_->c();
    if (!c) {
        *error = tr("there is no result C to save yet");
        return {};
    }
    return [path, c] { return save_matrix(path, *c); };
}

std::optional<RunTiming> MatmulPage::lastRunTiming() const {
    const MatmulResult& r = session_->lastResult();
    if (!r.status.ok() || r.total_ms <= 0) return std::nullopt;
    const auto a = session_->a(), b = session_->b();
    const QString problem = a && b ? tr("A %1 x %2 @ B %3 x %4").arg(a->rows).arg(a->cols).arg(b->rows).arg(b->cols) : QString();
    return RunTiming{QStringLiteral("matmul"), r.launch_text, problem, r.backend, r.kernel_ms, r.total_ms};
}

}  // namespace cvz
