#include "ui/windows/sweep_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <limits>

#include "app/family/app_family.h"
#include "ui/windows/family_box.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/workload_texts.h"
#include "app/jobs/backend_choice.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "app/tuning/prediction_session.h"
#include "ui/views/sweep_heatmap.h"

namespace cvz {

namespace {

enum Column { kShape, kPredicted, kMs, kThroughput, kOccupancy, kBlocks, kLimit, kStatus, kColumns };
constexpr int kIndexRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;

// Sorts by a number kept beside the text, so that "0.5" sorts before "12" and empty cells go last.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double key) : QTableWidgetItem(text) {
        setData(kSortRole, key);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(kSortRole).toDouble() < other.data(kSortRole).toDouble();
    }
};

QString ms_text(double ms) { return QString::number(ms, 'f', ms < 0.1 ? 4 : 3); }

}  // namespace

SweepDialog::SweepDialog(JobRunner* jobs, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Block-size sweep"));
    setModal(false);
    setSizeGripEnabled(true);
    resize(1340, 800);  // cut to the screen when shown (fitToScreen)
    runner_ = new SweepRunner(jobs, this);
    buildUi();
    fillProfiles();
    fillVariants();
    showModel();

    connect(runner_, &SweepRunner::started, this, &SweepDialog::onStarted);
    connect(runner_, &SweepRunner::rowUpdated, this, &SweepDialog::onRowUpdated);
    connect(runner_, &SweepRunner::progress, this, &SweepDialog::onProgress);
    connect(runner_, &SweepRunner::finished, this, &SweepDialog::onFinished);
}

void SweepDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    fitToScreen();
}

// Never larger than the screen's free area, and on it: a dialog that starts above the top edge
// opens its Kernel drop-down there too.
void SweepDialog::fitToScreen() { fit_to_screen(this, frameGeometry().size() - size()); }

void SweepDialog::buildUi() {
    auto* v = new QVBoxLayout(this);

    auto* controls = new QHBoxLayout;
    kernel_box_ = new FamilyBox(tr("%1 on %2"), tr(" (model only)"), this);
    // As wide as its longest text ("Grayscale on chelsea.png (sample), 451 × 300" was cut at 28
    // characters), up to 72 characters; a longer name is whole in the tooltip.
    kernel_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    kernel_box_->setMaximumWidth(kernel_box_->fontMetrics().averageCharWidth() * 72);
    profile_box_ = new QComboBox(this);
    profile_box_->setToolTip(tr("The GPU whose limits the occupancy model uses (the times come from the real GPU)"));
    start_ = new QPushButton(tr("Start"), this);
    start_->setDefault(true);
    variant_box_ = new QComboBox(this);
    variant_box_->setToolTip(tr("Sweep one variant of the kernel, or every one"));
    controls->addWidget(new QLabel(tr("Kernel:"), this));
    controls->addWidget(kernel_box_);
    controls->addWidget(variant_box_);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Occupancy model:"), this));
    controls->addWidget(profile_box_);
    controls->addStretch();
    controls->addWidget(start_);
    v->addLayout(controls);

    auto* run = new QHBoxLayout;
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setValue(0);
    progress_->setFormat(tr("not started"));
    progress_->setTextVisible(true);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    run->addWidget(progress_, 1);
    run->addWidget(cancel_);
    v->addLayout(run);

    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(note_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* map_box = new QGroupBox(tr("2-D blocks"), split);
    auto* mv = new QVBoxLayout(map_box);
    mv->setContentsMargins(4, 4, 4, 4);
    heatmap_ = new SweepHeatmap(map_box);
    mv->addWidget(heatmap_);
    auto* table_box = new QGroupBox(tr("Every shape"), split);
    auto* tv = new QVBoxLayout(table_box);
    tv->setContentsMargins(4, 4, 4, 4);
    table_title_ = new QLabel(table_box);
    table_title_->setWordWrap(true);
    tv->addWidget(table_title_);
    table_ = new QTableWidget(0, kColumns, table_box);
    table_->setHorizontalHeaderLabels(
        {tr("Shape"), tr("Predicted ms"), tr("Median ms"), tr("GB/s"), tr("Occupancy"), tr("Blocks/SM"), tr("Limited by"), tr("Status")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // the result's order until a header is clicked
    table_->setSortingEnabled(true);
    table_->setToolTip(tr("Double-click a row to use its block"));
    tv->addWidget(table_);
    split->addWidget(map_box);
    split->addWidget(table_box);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({heatmap_->sizeHint().width() + 16, 540});
    v->addWidget(split, 1);

    auto* bottom = new QHBoxLayout;
    best_ = new QLabel(this);
    best_->setTextFormat(Qt::RichText);
    best_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    export_ = new QPushButton(tr("Export CSV…"), this);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    bottom->addWidget(best_, 1);
    bottom->addWidget(export_);
    bottom->addWidget(buttons);
    v->addLayout(bottom);

    connect(start_, &QPushButton::clicked, this, &SweepDialog::startSweep);
    connect(cancel_, &QPushButton::clicked, this, &SweepDialog::cancelSweep);
    connect(export_, &QPushButton::clicked, this, &SweepDialog::onExportClicked);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(kernel_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        fillVariants();
        showModel();
    });
    connect(variant_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (!isRunning()) showModel();
    });
    connect(profile_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, &SweepDialog::onProfileChanged);
    connect(heatmap_, &SweepHeatmap::cellClicked, this, &SweepDialog::choose);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int r, int) {
        if (QTableWidgetItem* item = table_->item(r, kShape)) choose(item->data(kIndexRole).toInt());
    });
}

void SweepDialog::fillVariants() {
    const QSignalBlocker block(variant_box_);
    variant_box_->clear();
    variant_box_->addItem(tr("All variants"), -1);
    for (const KernelInfo& k : family_catalogue(family()))
        variant_box_->addItem(QString::fromStdString(k.name), int(k.variant));
}

bool SweepDialog::selectVariant(const QString& name) {
    const int i = name.isEmpty() ? 0 : variant_box_->findText(name);
    if (i < 0) return false;
    variant_box_->setCurrentIndex(i);
    return true;
}

void SweepDialog::fillProfiles() { profiles_ = fill_profile_box(profile_box_); }

// ---- inputs ----

void SweepDialog::setProblem(FamilyProblemPtr problem, const QString& name) {
    if (kernel_box_->setProblem(std::move(problem), name) && !isRunning()) showModel();
}

void SweepDialog::setFamily(KernelFamily family) { kernel_box_->setFamily(family); }

KernelFamily SweepDialog::family() const { return kernel_box_->family(); }

QComboBox* SweepDialog::kernelBox() const { return kernel_box_; }

bool SweepDialog::selectProfile(const QString& name) { return select_profile(profile_box_, profiles_, name); }

DeviceProfile SweepDialog::profile() const { return chosen_profile(profile_box_, profiles_); }

void SweepDialog::setTimer(SweepTimer timer) {
    runner_->setTimer(std::move(timer));
    if (!isRunning()) showModel();
}

SweepRequest SweepDialog::request() const {
    SweepRequest r;
    r.problem = kernel_box_->problem();
    r.family = family();
    r.profile = profile();
    r.variant = variant_box_->currentData().isValid() ? variant_box_->currentData().toInt() : -1;
    return r;
}

// ---- running ----

// With a GPU: predicts and times every shape; without one: predicts every shape.
void SweepDialog::startSweep() {
    if (isRunning()) return;
    runner_->start(request());
}

void SweepDialog::cancelSweep() {
    if (!isRunning()) return;
    runner_->cancel();
    cancel_->setEnabled(false);
    cancel_->setText(tr("Cancelling…"));
}

bool SweepDialog::isRunning() const { return runner_->isRunning(); }

void SweepDialog::showModel() {
    finished_once_ = false;
    progress_->setValue(0);
    showTimerState();
    setResult(model_sweep(request()));
}

// Without a GPU there is nothing to time: Start stays off, the time columns are hidden, and the bar
// says so, instead of "timing" every shape and filling the bar over empty columns.
void SweepDialog::showTimerState() {
    const bool timed = runner_->hasTimer();
    start_->setEnabled(!isRunning());
    start_->setText(timed ? tr("Start") : tr("Predict"));
    start_->setToolTip(timed ? tr("Predict every block shape's GPU time on the chosen profile, then time each on the GPU")
                             : tr("No CUDA device here: predicts every block shape's GPU time on the chosen profile "
                                  "(the performance model); measured times need a GPU."));
    table_->setColumnHidden(kMs, !timed);
    table_->setColumnHidden(kThroughput, !timed);
    if (!isRunning()) progress_->setFormat(timed ? tr("not started") : tr("no GPU: predictions only"));
}

void SweepDialog::onStarted(const SweepResult& modeled) {
    setResult(modeled);
    start_->setEnabled(false);
    kernel_box_->setEnabled(false);
    variant_box_->setEnabled(false);
    cancel_->setText(tr("Cancel"));
    cancel_->setEnabled(true);
    progress_->setValue(0);
    progress_->setFormat(tr("0 of %1 shapes").arg(modeled.rows.size()));
    refreshLabels();
}

void SweepDialog::onRowUpdated(int index, const SweepRow& row) {
    if (index < 0 || std::size_t(index) >= result_.rows.size()) return;
    result_.rows[std::size_t(index)] = row;
    const int old_best = result_.best;
    result_.best = mark_best(&result_.rows);
    heatmap_->updateRow(index, result_.rows[std::size_t(index)]);
    table_->setSortingEnabled(false);
    for (int r = 0; r < table_->rowCount(); ++r) {
        const int idx = table_->item(r, kShape)->data(kIndexRole).toInt();
        if (idx == index || idx == old_best || idx == result_.best) setTableRow(r, idx);
    }
    table_->setSortingEnabled(true);
    refreshLabels();
}

void SweepDialog::onProgress(int done, int total) {
    if (total <= 0) return;
    progress_->setValue(int(qint64(done) * 100 / total));
    progress_->setFormat(tr("%1 of %2 shapes · %p%").arg(done).arg(total));
}

void SweepDialog::onFinished(const SweepResult& result) {
    SweepResult r = result;
    const DeviceProfile p = profile();
    if (r.profile != p.name) {  // the profile was changed while the sweep ran
        remodel_occupancy(&r.rows, p);
        r.profile = p.name;
    }
    finished_once_ = true;
    setResult(r);
    start_->setEnabled(true);
    kernel_box_->setEnabled(true);
    variant_box_->setEnabled(true);
    cancel_->setEnabled(false);
    cancel_->setText(tr("Cancel"));
    if (r.cancelled) {
        progress_->setFormat(tr("cancelled · %p%"));
    } else if (!r.status) {
        progress_->setFormat(tr("failed"));
    } else {
        progress_->setValue(100);
        progress_->setFormat(tr("%1 of %1 shapes · %p%").arg(r.rows.size()));
    }
    emit sweepFinished(result_);
}

void SweepDialog::onProfileChanged() {
    // Before anything was timed the rows are the new profile's own (a GPU other than 9.0 runs no wgmma rung).
    if (!isRunning() && !result_.anyTimed()) {
        showModel();
        return;
    }
    const DeviceProfile p = profile();
    remodel_occupancy(&result_.rows, p);
    result_.profile = p.name;
    if (finished_once_ && !result_.anyTimed() && result_.status) result_.note = modeled_only_note(p.name);
    setResult(result_);
}

void SweepDialog::setResult(const SweepResult& result) {
    result_ = result;
    heatmap_->setResult(result_);
    refreshTable();
    refreshLabels();
    export_->setEnabled(!result_.rows.empty());
}

// ---- table and labels ----

void SweepDialog::refreshTable() {
    table_->setSortingEnabled(false);
    table_->clearContents();
    table_->setRowCount(int(result_.rows.size()));
    table_->horizontalHeaderItem(kThroughput)->setText(result_.throughputUnit());
    // The shapes the heatmap cannot show (1-D blocks, tiled TILEs) first.
    int t = 0;
    for (bool heat : {false, true})
        for (std::size_t i = 0; i < result_.rows.size(); ++i)
            if (result_.rows[i].in_heatmap() == heat) setTableRow(t++, int(i));
    table_->setSortingEnabled(true);
    table_->resizeColumnsToContents();
    table_title_->setText(tr("Every variant: the blocks the heatmap cannot show (1-D, TILE, fixed) first, then the "
                             "2-D blocks of the heatmap. Click a header to sort."));
}

void SweepDialog::setTableRow(int t, int index) {
    const SweepRow& r = result_.rows[std::size_t(index)];
    const double inf = std::numeric_limits<double>::infinity();
    const bool timed = r.state == SweepRowState::Timed;
    auto* shape = new QTableWidgetItem(r.label());
    shape->setData(kIndexRole, index);
    table_->setItem(t, kShape, shape);
    const GpuPrediction& p = r.prediction;
    const bool predicted = p.ok() && p.total_us > 0;
    auto* pred = new NumberItem(predicted ? ms_text(p.total_us / 1e3) : QString(), predicted ? p.total_us : inf);
    pred->setToolTip(predicted ? prediction_details(p) : p.error);
    table_->setItem(t, kPredicted, pred);
    table_->setItem(t, kMs, new NumberItem(timed ? ms_text(r.median_ms) : QString(), timed ? r.median_ms : inf));
    table_->setItem(t, kThroughput,
                    new NumberItem(timed ? QString::number(r.throughput, 'f', 1) : QString(), timed ? -r.throughput : inf));
    const bool fits = r.occupancy.blocks_per_sm > 0;
    table_->setItem(t, kOccupancy, new NumberItem(fits ? QStringLiteral("%1%").arg(qRound(100 * r.occupancy.occupancy))
                                                       : tr("none"),
                                                  -r.occupancy.occupancy));
    table_->setItem(t, kBlocks, new NumberItem(QString::number(r.occupancy.blocks_per_sm), -r.occupancy.blocks_per_sm));
    table_->setItem(t, kLimit, new QTableWidgetItem(fits ? to_string(r.occupancy.limit) : r.occupancy.error));
    QString status = timed ? tr("timed") : r.state == SweepRowState::Failed ? tr("error") : QString();
    if (r.best) status = tr("fastest");
    auto* st = new QTableWidgetItem(status);
    if (r.state == SweepRowState::Failed) st->setToolTip(r.error);
    if (r.best) {
        QFont f = st->font();
        f.setBold(true);
        st->setFont(f);
        st->setForeground(SweepHeatmap::bestOutlineColor());
        shape->setFont(f);
    }
    table_->setItem(t, kStatus, st);
}

void SweepDialog::refreshLabels() {
    const QString what = app_family(result_.family).title;
    QString note = result_.note;
    if (!runner_->hasTimer()) {
        note = tr("no CUDA device here, so nothing is timed: Predict fills in and colours each shape's GPU time "
                  "predicted on %1 (the performance model, not a measurement); until then the colours are the "
                  "modeled occupancy.")
                   .arg(result_.profile);
    } else if (note.isEmpty() && !isRunning()) {
        note = tr("Start predicts every shape's GPU time on %1, then times each on the GPU (median of several runs); "
                  "occupancy is modeled for %1.").arg(result_.profile);
    } else if (isRunning()) {
        note = runner_->hasTimer() ? tr("predicting, then timing every shape… the heatmap fills in as the shapes are done.")
                                   : tr("predicting every shape's GPU time…");
    }
    note_->setText(QStringLiteral("<b>%1</b> on %2 — %3")
                       .arg(what, result_.problem.toHtmlEscaped(), note.toHtmlEscaped()));
    if (result_.best >= 0) {
        const SweepRow& b = result_.rows[std::size_t(result_.best)];
        best_->setText(tr("Fastest: <b>%1</b> — %2 ms · %3 %4 · modeled occupancy %5%")
                           .arg(b.label(), ms_text(b.median_ms), QString::number(b.throughput, 'f', 1),
                                result_.throughputUnit())
                           .arg(qRound(100 * b.occupancy.occupancy)) +
                       (b.prediction.ok() ? tr(" · predicted %1 ms").arg(ms_text(b.prediction.total_us / 1e3)) : QString()));
    } else if (const int f = fastest_predicted(result_.rows); f >= 0) {
        const SweepRow& b = result_.rows[std::size_t(f)];
        best_->setText(tr("Fastest predicted on %1: <b>%2</b> — %3 ms, bound by %4 · modeled occupancy %5%")
                           .arg(b.prediction.profile.toHtmlEscaped(), b.label(), ms_text(b.prediction.total_us / 1e3),
                                b.prediction.bound)
                           .arg(qRound(100 * b.occupancy.occupancy)));
    } else {
        best_->setText(result_.anyTimed() ? QString()
                       : runner_->hasTimer() ? tr("Colours show modeled occupancy until the shapes are timed.")
                                             : tr("Colours show modeled occupancy."));
    }
}

QString SweepDialog::noteText() const { return note_->text(); }
QString SweepDialog::bestText() const { return best_->text(); }

void SweepDialog::choose(int index) {
    if (index < 0 || std::size_t(index) >= result_.rows.size()) return;
    const SweepRow& r = result_.rows[std::size_t(index)];
    emit launchChosen(r.choice);
}

// ---- export ----

QString SweepDialog::exportCsv(const QString& path) {
    const QString error = write_sweep_csv(result_, path);
    if (error.isEmpty()) note_->setText(note_->text() + tr("<br>Saved %1").arg(path.toHtmlEscaped()));
    else note_->setText(note_->text() + QStringLiteral("<br><span style='color:#b00020'>%1</span>").arg(error.toHtmlEscaped()));
    return error;
}

void SweepDialog::onExportClicked() {
    const QString suggested = QDir::home().filePath(QStringLiteral("sweep-%1.csv").arg(result_.family_name));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export sweep as CSV"), suggested,
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    if (const QString error = exportCsv(path); !error.isEmpty()) QMessageBox::warning(this, tr("Export CSV"), error);
}

}  // namespace cvz
