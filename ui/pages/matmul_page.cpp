#include "ui/pages/matmul_page.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/job_runner.h"
#include "app/matrix_generator.h"
#include "app/matrix_io.h"
#include "ui/views/block_colors.h"
#include "kernels/core/index_math.h"
#include "ui/views/matrix_heatmap.h"

namespace cvz {

namespace {

// Counting every access through the traced emulator is a few times slower than running; above this
// many multiply-adds the page shows the closed forms alone.
constexpr double kMeasureLimit = 2e6;

// The default problem: odd enough that tiles are cut at the edges, small enough to run at once.
constexpr std::uint32_t kDefaultM = 45, kDefaultK = 60, kDefaultN = 38, kDefaultSeed = 1;

const QString kRunTag = QStringLiteral("matmul-page-run");
const QString kMatricesTag = QStringLiteral("matmul-page-matrices");

bool same_launch(const MatmulLaunch& a, const MatmulLaunch& b) {
    return a.kernel == b.kernel && a.block == b.block && a.tile == b.tile && a.second_barrier == b.second_barrier;
}

QString shape(const Matrix& m) { return QStringLiteral("%1 × %2").arg(m.rows).arg(m.cols); }

QString count(std::uint64_t n) { return QLocale(QLocale::English).toString(qulonglong(n)); }

QString operand_name(MatmulPage::Operand which) { return which == MatmulPage::Operand::A ? QStringLiteral("A") : QStringLiteral("B"); }

// Half-open element rectangles in the heatmap's (x = column, y = row) convention.
QRect to_rect(const MatrixRect& r) { return QRect(int(r.col), int(r.row), int(r.cols), int(r.rows)); }

}  // namespace

struct MatmulPage::RunOutcome {
    MatmulResult result;
    std::shared_ptr<const Matrix> c_normal;
    std::shared_ptr<const std::vector<std::uint8_t>> wrong;
    long long wrong_count = -1;
    std::optional<MatmulTraffic> measured;
    QString note;
};

QColor MatmulPage::selectionBandColor() { return QColor(255, 176, 0, 110); }
QColor MatmulPage::sharedTileColor() { return QColor(0, 150, 150, 120); }
QColor MatmulPage::consumedColor() { return QColor(0, 150, 150, 45); }

MatmulPage::MatmulPage(JobRunner* runner, QWidget* parent) : QWidget(parent), runner_(runner) {
    a_view_ = new MatrixHeatmap(this);
    b_view_ = new MatrixHeatmap(this);
    c_view_ = new MatrixHeatmap(this);
    a_view_->setName(QStringLiteral("A"));
    b_view_->setName(QStringLiteral("B"));
    c_view_->setName(QStringLiteral("C"));
    a_title_ = new QLabel(this);
    b_title_ = new QLabel(this);
    c_title_ = new QLabel(this);

    auto rich = [this] {
        auto* l = new QLabel(this);
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        return l;
    };
    step_label_ = rich();
    counters_label_ = rich();
    counters_label_->setWordWrap(false);
    totals_label_ = rich();
    inspector_ = new QLabel(this);
    inspector_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    inspector_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    inspector_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // Counters beside the inspector: the top-left cell is wide and short when K is large.
    auto* info = new QWidget(this);
    auto* info_layout = new QVBoxLayout(info);
    info_layout->setContentsMargins(4, 4, 4, 4);
    info_layout->addWidget(step_label_);
    auto* middle = new QHBoxLayout;
    middle->addWidget(counters_label_);
    middle->addSpacing(16);
    middle->addWidget(inspector_, 1);
    info_layout->addLayout(middle);
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
            [this](int row, int) { selectElement(row, std::max(0, sel_col_)); });
    connect(b_view_, &MatrixHeatmap::elementClicked, this,
            [this](int, int col) { selectElement(std::max(0, sel_row_), col); });

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
    presets_->addItem(tr("Lecture presets…"));
    for (const MatmulPreset& p : lecture_matmul_presets()) presets_->addItem(p.name);
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

    auto spin = [box](int value) {
        auto* s = new QSpinBox(box);
        s->setRange(1, int(MatrixLimits::kMaxSide));
        s->setValue(value);
        s->setAccelerated(true);
        return s;
    };
    a_rows_ = spin(int(kDefaultM));
    a_cols_ = spin(int(kDefaultK));
    b_rows_ = spin(int(kDefaultK));
    b_cols_ = spin(int(kDefaultN));
    seed_ = new QSpinBox(box);
    seed_->setRange(0, 1 << 30);
    seed_->setValue(int(kDefaultSeed));
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
    connect(a_view_, &MatrixHeatmap::rowAxisChanged, this, [this] { c_view_->setRowAxis(a_view_->rowAxis()); });
    connect(c_view_, &MatrixHeatmap::rowAxisChanged, this, [this] { a_view_->setRowAxis(c_view_->rowAxis()); });
    connect(b_view_, &MatrixHeatmap::colAxisChanged, this, [this] { c_view_->setColAxis(b_view_->colAxis()); });
    connect(c_view_, &MatrixHeatmap::colAxisChanged, this, [this] { b_view_->setColAxis(c_view_->colAxis()); });
}

// ---- launch and backend -------------------------------------------------------------------------

void MatmulPage::setLaunch(const MatmulLaunch& launch) {
    if (same_launch(launch, launch_)) return;
    launch_ = launch;
    rebuildModel();
    startRun();
}

void MatmulPage::setBackend(BackendChoice backend) {
    if (backend == backend_) return;
    backend_ = backend;
    startRun();
}

// ---- matrices -----------------------------------------------------------------------------------

void MatmulPage::setMatrices(Matrix a, Matrix b, const QString& a_source, const QString& b_source) {
    for (const Matrix* m : {&a, &b})
        if (m->data.size() != m->size()) {
            showError(tr("A matrix of %1 holds %2 values; nothing was replaced.").arg(shape(*m)).arg(m->data.size()));
            return;
        }
    a_source_ = a_source;
    b_source_ = b_source;
    setOperands(std::make_shared<const Matrix>(std::move(a)), std::make_shared<const Matrix>(std::move(b)));
}

void MatmulPage::setOperands(std::shared_ptr<const Matrix> a, std::shared_ptr<const Matrix> b) {
    const bool same_c_shape = c_ && a && b && c_->rows == a->rows && c_->cols == b->cols;
    if (!same_c_shape) {
        // Cleared before A and B are shown, so the linked axes never take a stale C's fit.
        c_.reset();
        c_view_->setMatrix(nullptr);
    }
    a_ = std::move(a);
    b_ = std::move(b);
    a_view_->setMatrix(a_);
    b_view_->setMatrix(b_);
    // The generator's boxes show the shapes in use, whichever way they came.
    const std::pair<QSpinBox*, std::uint32_t> shapes[] = {{a_rows_, a_->rows}, {a_cols_, a_->cols}, {b_rows_, b_->rows}, {b_cols_, b_->cols}};
    for (auto [box, value] : shapes) {
        const QSignalBlocker block(box);
        box->setValue(int(value));
    }
    if (sel_row_ >= 0 && (!shapesMatch() || sel_row_ >= int(a_->rows) || sel_col_ >= int(b_->cols))) sel_row_ = sel_col_ = -1;
    updateStretch();
    rebuildModel();
    startRun();
}

void MatmulPage::openMatrix(Operand which, const QString& path) {
    emit statusMessage(tr("Loading %1 from %2…").arg(operand_name(which), QFileInfo(path).fileName()));
    runner_->submit(QStringLiteral("matmul-page-open-") + operand_name(which), this, [this, which, path] {
        auto loaded = std::make_shared<LoadedMatrix>(load_matrix(path));
        return JobRunner::Continuation([this, which, path, loaded] {
            if (!loaded->ok()) {
                showError(loaded->error);
                return;
            }
            auto m = std::make_shared<const Matrix>(std::move(loaded->matrix));
            const QString source = QFileInfo(path).fileName();
            if (which == Operand::A) {
                a_source_ = source;
                setOperands(m, b_);
            } else {
                b_source_ = source;
                setOperands(a_, m);
            }
            emit statusMessage(tr("Loaded %1 (%2) from %3").arg(operand_name(which), shape(*m), source));
        });
    });
}

void MatmulPage::generate(std::uint32_t a_rows, std::uint32_t a_cols, std::uint32_t b_rows, std::uint32_t b_cols,
                          std::uint32_t seed) {
    for (const QString& e : {check_matrix_dimensions(a_rows, a_cols), check_matrix_dimensions(b_rows, b_cols)})
        if (!e.isEmpty()) {
            showError(e);
            return;
        }
    emit statusMessage(tr("Generating %1×%2 @ %3×%4…").arg(a_rows).arg(a_cols).arg(b_rows).arg(b_cols));
    // The MNIST-sized preset is 39 million values: generated on the worker so the page stays live.
    runner_->submit(kMatricesTag, this, [this, a_rows, a_cols, b_rows, b_cols, seed] {
        auto a = std::make_shared<Matrix>(random_matrix(a_rows, a_cols, seed));
        auto b = std::make_shared<Matrix>(random_matrix(b_rows, b_cols, seed + 1));
        return JobRunner::Continuation([this, a, b, seed] {
            a_source_ = tr("random, seed %1").arg(seed);
            b_source_ = tr("random, seed %1").arg(seed + 1);
            setOperands(a, b);
        });
    });
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

void MatmulPage::saveResult(const QString& path) {
    if (!c_) {
        showError(tr("There is no result C to save yet."));
        return;
    }
    runner_->submit(QStringLiteral("matmul-page-save"), this, [this, c = c_, path] {
        const QString error = save_matrix(path, *c);
        return JobRunner::Continuation([this, error, path, rows = c->rows, cols = c->cols] {
            if (!error.isEmpty()) showError(error);
            else emit statusMessage(tr("Saved C (%1 × %2) to %3").arg(rows).arg(cols).arg(QFileInfo(path).fileName()));
        });
    });
}

void MatmulPage::onOpen(Operand which) {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open matrix %1").arg(operand_name(which)), QString(),
                                                      tr("Matrices (*.npy *.csv);;All files (*)"));
    if (!path.isEmpty()) openMatrix(which, path);
}

void MatmulPage::onSave() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save C"), QStringLiteral("C.npy"), tr("NumPy (*.npy);;CSV (*.csv)"));
    if (!path.isEmpty()) saveResult(path);
}

// Not modal: a message never blocks the page (or a test), and whatever was open stays.
void MatmulPage::showError(const QString& text) {
    last_error_ = text;
    emit statusMessage(text);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Matrices"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MatmulPage::shapesMatch() const { return a_ && b_ && check_matmul_shapes(*a_, *b_).isEmpty(); }

// ---- runs ---------------------------------------------------------------------------------------

std::shared_ptr<MatmulPage::RunOutcome> MatmulPage::runOnWorker(std::shared_ptr<const Matrix> a,
                                                                std::shared_ptr<const Matrix> b, MatmulLaunch launch,
                                                                BackendChoice backend) {
    auto out = std::make_shared<RunOutcome>();
    if (!launch.second_barrier && backend != BackendChoice::Cpu) {
        // The GPU always runs both barriers; say so only where the GPU would have run.
        if (backend == BackendChoice::Cuda || cuda_device_available())
            out->note = tr("the missing-barrier lesson runs on the CPU emulator");
        backend = BackendChoice::Cpu;
    }
    out->result = run_matmul(MatmulRequest{*a, *b, launch, backend});
    if (!out->result.status) return out;
    if (!launch.second_barrier) {
        // The same problem with both barriers: elements that differ in any bit came out wrong.
        MatmulLaunch safe = launch;
        safe.second_barrier = true;
        MatmulResult normal = run_matmul(MatmulRequest{*a, *b, safe, BackendChoice::Cpu});
        if (normal.status) {
            const Matrix& got = out->result.c;
            auto wrong = std::make_shared<std::vector<std::uint8_t>>(got.data.size());
            long long n = 0;
            for (std::size_t i = 0; i < got.data.size(); ++i) {
                (*wrong)[i] = std::memcmp(&got.data[i], &normal.c.data[i], sizeof(float)) != 0;
                n += (*wrong)[i];
            }
            out->wrong = std::move(wrong);
            out->wrong_count = n;
            out->c_normal = std::make_shared<const Matrix>(std::move(normal.c));
        }
    }
    if (double(a->rows) * double(a->cols) * double(b->cols) <= kMeasureLimit)
        out->measured = measured_matmul_traffic(launch, a->rows, a->cols, b->cols);
    return out;
}

void MatmulPage::startRun() {
    const std::uint64_t serial = ++run_serial_;
    wrong_.reset();
    c_normal_.reset();
    wrong_count_ = -1;
    measured_.reset();
    c_view_->setWrongMask(nullptr);
    if (!a_ || !b_) return;
    if (QString e = check_matmul_shapes(*a_, *b_); !e.isEmpty()) {
        running_ = false;
        c_.reset();
        c_view_->setMatrix(nullptr);
        c_view_->setPlaceholder(e);
        refreshTitles();
        refreshAnimation();
        emit statusMessage(e);
        return;
    }
    running_ = true;
    c_view_->setPlaceholder(tr("computing…"));
    refreshTitles();
    refreshAnimation();
    emit statusMessage(tr("Running %1 on %2 @ %3…").arg(QString::fromStdString(to_string(launch_)), shape(*a_), shape(*b_)));
    runner_->submit(kRunTag, this, [this, a = a_, b = b_, launch = launch_, backend = backend_, serial] {
        auto outcome = runOnWorker(a, b, launch, backend);
        return JobRunner::Continuation([this, serial, outcome] { finishRun(serial, outcome); });
    });
}

void MatmulPage::finishRun(std::uint64_t serial, const std::shared_ptr<RunOutcome>& out) {
    if (serial != run_serial_) return;  // a newer run or newer matrices superseded this one
    running_ = false;
    result_ = out->result;
    result_launch_ = launch_;
    if (!out->result.status) {
        c_.reset();
        c_view_->setMatrix(nullptr);
        c_view_->setPlaceholder(out->result.summary());
        refreshTitles();
        refreshAnimation();
        emit statusMessage(out->result.summary());
        emit resultReady(result_);
        return;
    }
    c_ = std::make_shared<const Matrix>(std::move(out->result.c));
    c_normal_ = out->c_normal;
    wrong_ = out->wrong;
    wrong_count_ = out->wrong_count;
    measured_ = out->measured;
    c_view_->setMatrix(c_);
    c_view_->setWrongMask(wrong_);
    refreshTitles();
    refreshAnimation();
    QString message = result_.summary();
    if (!out->note.isEmpty()) message += QStringLiteral(" · ") + out->note;
    if (wrong_count_ >= 0) message += tr(" · %1 of %2 outputs wrong without the second __syncthreads()").arg(count(std::uint64_t(wrong_count_)), count(c_->size()));
    emit statusMessage(message);
    emit resultReady(result_);
}

MatmulTraffic MatmulPage::predictedTraffic() const {
    if (!model_.valid()) return {};
    return predicted_matmul_traffic(launch_, model_.m(), model_.k(), model_.n());
}

// ---- animation ----------------------------------------------------------------------------------

void MatmulPage::rebuildModel() {
    model_ = shapesMatch() ? MatmulPhaseModel(launch_, a_->rows, a_->cols, b_->cols) : MatmulPhaseModel();
    // The block follows the selected element (the block shape may have changed), else stays in the grid.
    if (sel_row_ >= 0) sel_block_ = matmul_thread_of_element(launch_, std::uint32_t(sel_row_), std::uint32_t(sel_col_)).block;
    sel_block_.x = std::min(sel_block_.x, std::max(1u, model_.grid().x) - 1);
    sel_block_.y = std::min(sel_block_.y, std::max(1u, model_.grid().y) - 1);
    position_ = std::clamp(position_, 0, std::max(0, animationSteps()));
    const Dim3 b = launch_.block_shape();
    const bool tiled = launch_.kernel == MatmulKernel::Tiled;
    c_view_->setTileGrid(int(b.y), int(b.x));
    a_view_->setTileGrid(int(b.y), tiled ? int(launch_.tile) : 0);
    b_view_->setTileGrid(tiled ? int(launch_.tile) : 0, int(b.x));
    refreshAnimation();
    if (animationSteps() != announced_steps_ || animationUnit() != announced_unit_) {
        announced_steps_ = animationSteps();
        announced_unit_ = animationUnit();
        emit animationChanged();
    }
}

int MatmulPage::animationSteps() const { return model_.valid() ? model_.steps() : 0; }

QString MatmulPage::animationUnit() const {
    return launch_.kernel == MatmulKernel::Tiled ? tr("step") : tr("chunk");
}

void MatmulPage::setAnimationPosition(int position) {
    position = std::clamp(position, 0, std::max(0, animationSteps()));
    if (position == position_) return;
    position_ = position;
    refreshAnimation();
}

Dim3 MatmulPage::selectedThread() const {
    if (sel_row_ < 0) return Dim3{0, 0, 0};
    const MatmulThread t = matmul_thread_of_element(launch_, std::uint32_t(sel_row_), std::uint32_t(sel_col_));
    return t.block == sel_block_ ? t.thread : Dim3{0, 0, 0};
}

QString MatmulPage::animationCaption() const {
    if (!model_.valid()) return tr("no valid problem");
    const MatmulStep& s = step_;
    QString what;
    switch (s.stage) {
        case MatmulStage::NaiveChunk:
            what = (s.k_end - s.k_begin == 1 ? tr("k = %1").arg(s.k_begin) : tr("k = %1…%2").arg(s.k_begin).arg(s.k_end - 1)) +
                   tr(" of %1: multiply-adds from global memory").arg(model_.k());
            break;
        case MatmulStage::Load:
            what = tr("phase %1/%2: load tiles of A and B into shared memory").arg(s.phase + 1).arg(s.phases);
            break;
        case MatmulStage::Multiply:
            what = tr("phase %1/%2: __syncthreads(), multiply the tiles").arg(s.phase + 1).arg(s.phases);
            break;
        case MatmulStage::Barrier:
            what = launch_.second_barrier
                       ? tr("phase %1/%2: __syncthreads() → next phase").arg(s.phase + 1).arg(s.phases)
                       : tr("phase %1/%2: no __syncthreads() → next phase (race)").arg(s.phase + 1).arg(s.phases);
            break;
        case MatmulStage::Done: what = tr("done: each thread stores C[r, c]"); break;
    }
    QString caption = tr("Block (%1, %2) · %3").arg(sel_block_.x).arg(sel_block_.y).arg(what);
    if (wrong_count_ >= 0) caption += tr(" · %1 outputs wrong").arg(count(std::uint64_t(wrong_count_)));
    return caption;
}

void MatmulPage::refreshAnimation() {
    step_ = model_.valid() ? model_.step(position_, sel_block_, selectedThread()) : MatmulStep{};
    const QColor block_color = color_for_id(linear_block_id(sel_block_, model_.grid()));
    QColor tile_fill = block_color;
    tile_fill.setAlpha(60);

    QList<HeatmapHighlight> a, b, c;
    if (model_.valid()) {
        a.append({to_rect(step_.a_done), consumedColor(), false});
        b.append({to_rect(step_.b_done), consumedColor(), false});
        a.append({to_rect(step_.a_current), sharedTileColor(), true});
        b.append({to_rect(step_.b_current), sharedTileColor(), true});
        c.append({to_rect(step_.c_tile), tile_fill, true});
        if (sel_row_ >= 0) {
            a.append({QRect(0, sel_row_, int(model_.k()), 1), selectionBandColor(), true});
            b.append({QRect(sel_col_, 0, 1, int(model_.k())), selectionBandColor(), true});
        }
    }
    a_view_->setHighlights(a);
    b_view_->setHighlights(b);
    c_view_->setHighlights(c);
    c_view_->setSelectedElement(sel_row_, sel_col_);
    refreshInfo();
    emit captionChanged(animationCaption());
}

// ---- selection ----------------------------------------------------------------------------------

void MatmulPage::selectElement(int row, int col) {
    if (!model_.valid() || row < 0 || col < 0 || row >= int(model_.m()) || col >= int(model_.n())) return;
    sel_row_ = row;
    sel_col_ = col;
    sel_block_ = matmul_thread_of_element(launch_, std::uint32_t(row), std::uint32_t(col)).block;
    refreshAnimation();
}

void MatmulPage::selectThread(Dim3 block, Dim3 thread) {
    if (!model_.valid() || block.x >= model_.grid().x || block.y >= model_.grid().y) return;
    const Dim3 bdim = launch_.block_shape();
    const std::uint64_t r = global_row(block, thread, bdim), c = global_col(block, thread, bdim);
    sel_block_ = Dim3{block.x, block.y, 0};
    // A guarded-off thread selects its block only: it computes no element.
    if (r < model_.m() && c < model_.n()) {
        sel_row_ = int(r);
        sel_col_ = int(c);
    } else {
        sel_row_ = sel_col_ = -1;
    }
    refreshAnimation();
}

QString MatmulPage::inspectorText() const {
    if (sel_row_ < 0 || !model_.valid()) return tr("Click an element of C (or a row of A, a column of B)\nto see the thread that computes it.");
    const std::uint32_t r = std::uint32_t(sel_row_), col = std::uint32_t(sel_col_);
    const MatmulThread t = matmul_thread_of_element(launch_, r, col);
    const Dim3 bd = launch_.block_shape();
    QStringList lines;
    lines << tr("C[%1, %2]").arg(r).arg(col);
    lines << tr("blockIdx = (%1, %2)   threadIdx = (%3, %4)").arg(t.block.x).arg(t.block.y).arg(t.thread.x).arg(t.thread.y);
    lines << tr("  row    = blockIdx.y·blockDim.y + threadIdx.y = %1·%2 + %3").arg(t.block.y).arg(bd.y).arg(t.thread.y);
    lines << tr("  column = blockIdx.x·blockDim.x + threadIdx.x = %1·%2 + %3").arg(t.block.x).arg(bd.x).arg(t.thread.x);
    lines << tr("dot product of A row %1 and B column %2: K = %3 terms").arg(r).arg(col).arg(model_.k());
    // The float64 reference of this one element, on the fly: K multiply-adds.
    double ref = 0;
    for (std::uint32_t k = 0; k < model_.k(); ++k) ref += double(a_->at(r, k)) * double(b_->at(k, col));
    lines << tr("reference (float64) = %1").arg(QString::number(ref, 'g', 15));
    if (c_ && c_->rows == model_.m() && c_->cols == model_.n()) {
        const float got = c_->at(r, col);
        const double diff = double(got) - ref;
        lines << tr("kernel (float32)    = %1").arg(QString::number(double(got), 'g', 9));
        lines << tr("difference          = %1 (relative %2)")
                     .arg(QString::number(diff, 'g', 3), QString::number(std::fabs(diff) / std::max(1.0, std::fabs(ref)), 'g', 3));
        if (wrong_ && (*wrong_)[std::size_t(r) * c_->cols + col])
            lines << tr("WRONG: with both barriers it is %1 — a thread overwrote a shared tile\n"
                        "       before this one had read it (the removed __syncthreads())")
                         .arg(QString::number(double(c_normal_->at(r, col)), 'g', 9));
    } else {
        lines << tr("kernel (float32)    = %1").arg(running_ ? tr("computing…") : tr("—"));
    }
    return lines.join(QLatin1Char('\n'));
}

// ---- text ---------------------------------------------------------------------------------------

void MatmulPage::refreshTitles() {
    auto title = [](const QString& name, const std::shared_ptr<const Matrix>& m, const QString& source) {
        if (!m) return name;
        return QStringLiteral("%1 · %2 · %3").arg(name, shape(*m), source);
    };
    a_title_->setText(title(tr("A (M × K)"), a_, a_source_));
    b_title_->setText(title(tr("B (K × N)"), b_, b_source_));
    QString c = tr("C = A @ B");
    if (a_ && b_ && shapesMatch()) c += QStringLiteral(" · %1 × %2").arg(a_->rows).arg(b_->cols);
    if (model_.valid())
        c += tr(" · %1 · grid %2×%3").arg(QString::fromStdString(to_string(launch_))).arg(model_.grid().x).arg(model_.grid().y);
    if (running_) c += tr(" · running…");
    else if (wrong_count_ >= 0) c += tr(" · %1 wrong (red)").arg(count(std::uint64_t(wrong_count_)));
    c_title_->setText(c);
}

void MatmulPage::refreshInfo() {
    inspector_->setText(inspectorText());
    if (!model_.valid()) {
        step_label_->setText(a_ && b_ ? check_matmul_shapes(*a_, *b_).toHtmlEscaped() : QString());
        counters_label_->clear();
        totals_label_->clear();
        return;
    }
    const MatmulStep& s = step_;
    const MatmulStepCounters& n = s.counters;
    const bool tiled = launch_.kernel == MatmulKernel::Tiled;
    const Dim3 th = selectedThread();
    QString detail;
    const unsigned T = launch_.tile;
    switch (s.stage) {
        case MatmulStage::NaiveChunk:
            detail = tr("each thread adds A[r, k]·B[k, c] for k = %1, reading both straight from global memory")
                         .arg(s.k_end - s.k_begin == 1 ? QString::number(s.k_begin)
                                                       : QStringLiteral("%1…%2").arg(s.k_begin).arg(s.k_end - 1));
            break;
        case MatmulStage::Load:
            detail = tr("each thread copies one element of A (A[r, %1 + tx]) and one of B (B[%1 + ty, c]) into shared memory")
                         .arg(s.phase * T);
            break;
        case MatmulStage::Multiply:
            detail = tr("__syncthreads(): the tiles are complete; each thread does %1 multiply-adds from shared memory").arg(T);
            break;
        case MatmulStage::Barrier:
            detail = launch_.second_barrier
                         ? tr("__syncthreads(): no thread loads the next tiles until every thread has used these")
                         : tr("second __syncthreads() removed: a thread that finished early overwrites the tiles "
                              "while others still read them");
            break;
        case MatmulStage::Done: detail = tr("each thread with r &lt; M and c &lt; N stores its sum into C[r, c]"); break;
    }
    step_label_->setText(QStringLiteral("<b>%1</b><br>%2").arg(animationCaption().toHtmlEscaped(), detail));
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='2'>"
                           "<tr><th align='left'>so far</th><th align='right'>&nbsp;block (%1, %2)</th>"
                           "<th align='right'>&nbsp;thread (%3, %4)</th></tr>")
                .arg(sel_block_.x).arg(sel_block_.y).arg(th.x).arg(th.y);
    auto row = [&html](const QString& name, std::uint64_t block, std::uint64_t thread) {
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td></tr>")
                    .arg(name, count(block), count(thread));
    };
    row(tr("global loads"), n.block_global_loads, n.thread_global_loads);
    if (tiled) row(tr("shared loads"), n.block_shared_loads, n.thread_shared_loads);
    row(tr("global stores"), n.block_global_stores, n.thread_global_stores);
    html += QStringLiteral("</table>");
    counters_label_->setText(html);
    const MatmulTraffic p = predictedTraffic();
    html = tr("<p>Whole kernel: <b>%1</b> global loads (at most %2 per thread)")
                .arg(count(p.global_loads), count(p.max_global_loads_per_thread));
    if (tiled) html += tr(", %1 shared loads, %2 barriers").arg(count(p.shared_loads), count(p.barriers));
    html += tr(" — predicted");
    if (measured_) {
        const bool match = measured_->global_loads == p.global_loads && measured_->shared_loads == p.shared_loads &&
                           measured_->global_stores == p.global_stores && measured_->barriers == p.barriers;
        html += match ? tr("; counted by the traced emulator: <b>match</b>")
                      : tr("; counted by the traced emulator: <b>differ</b> (%1 global loads)").arg(count(measured_->global_loads));
    } else if (!running_) {
        html += tr(" (too large to count access by access)");
    }
    html += QStringLiteral(".</p>");
    if (wrong_count_ >= 0 && c_)
        html += tr("<p><b style='color:#c00000'>%1 of %2 outputs wrong</b> without the second __syncthreads() (outlined red in C).</p>")
                    .arg(count(std::uint64_t(wrong_count_)), count(c_->size()));
    totals_label_->setText(html);
}

// The classic diagram's proportions (A's width and B's height follow K, C's follow N and M), clamped
// so that no view shrinks to a sliver for 784-wide or 50000-tall matrices.
void MatmulPage::updateStretch() {
    if (!a_ || !b_) return;
    auto ratio = [](double x, double y) { return int(std::lround(100 * std::clamp(x / std::max(1.0, y), 0.6, 1.6))); };
    grid_->setColumnStretch(0, ratio(a_->cols, b_->cols));
    grid_->setColumnStretch(1, 100);
    grid_->setRowStretch(0, ratio(b_->rows, a_->rows));
    grid_->setRowStretch(1, 100);
}

}  // namespace cvz
