#include "ui/windows/ladder_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTextDocument>

#include <cmath>
#include <QVBoxLayout>

#include "app/family/app_family.h"
#include "app/jobs/backend_choice.h"
#include "app/tuning/ladder_runner.h"
#include "app/tuning/prediction_session.h"
#include "ui/windows/family_box.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/workload_texts.h"

namespace cvz {

namespace {

constexpr int kIndexRole = Qt::UserRole;
const QString kGeometryKey = QStringLiteral("ladder/geometry");

QString dash() { return QStringLiteral("—"); }

QString us_text(double ms) {
    const double us = ms * 1e3;
    return QString::number(us, 'f', us < 100 ? 1 : 0);
}

QTableWidgetItem* number_item(const QString& text, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!tip.isEmpty()) item->setToolTip(tip);
    return item;
}

// In the family's ladder unit (its ceiling's: GB/s, TFLOP/s): one decimal below 100, else none.
QString throughput_text(KernelFamily family, double value) {
    const double v = value * app_family(family).ladder_unit_scale;
    return QString::number(v, 'f', v < 10 ? 2 : v < 100 ? 1 : 0);
}

QString throughput_unit(KernelFamily family) { return app_family(family).ladder_unit; }

QString bytes_text(int bytes) {
    if (bytes == 0) return QStringLiteral("0");
    if (bytes % 1024 == 0) return QStringLiteral("%1 KiB").arg(bytes / 1024);
    if (bytes < 1024) return QStringLiteral("%1 B").arg(bytes);
    return QStringLiteral("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);  // 33280 -> "32.5 KiB", as the others read
}

}  // namespace

LadderDialog::LadderDialog(JobRunner* jobs, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Optimisation ladder"));
    setModal(false);
    setSizeGripEnabled(true);
    resize(1280, 520);  // cut to the screen when shown
    runner_ = new LadderRunner(jobs, this);
    buildUi();
    fillProfiles();
    showModel();

    connect(runner_, &LadderRunner::started, this, &LadderDialog::onStarted);
    connect(runner_, &LadderRunner::rowUpdated, this, &LadderDialog::onRowUpdated);
    connect(runner_, &LadderRunner::progress, this, &LadderDialog::onProgress);
    connect(runner_, &LadderRunner::finished, this, &LadderDialog::onFinished);
}

LadderDialog::~LadderDialog() = default;

void LadderDialog::showEvent(QShowEvent* event) {
    if (!restored_) {
        restored_ = true;
        QSettings settings;
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
    }
    QDialog::showEvent(event);
    fit_to_screen(this, frameGeometry().size() - size());
}

bool LadderDialog::eventFilter(QObject* watched, QEvent* event) {
    if (watched == note_ && event->type() == QEvent::Resize) fitNoteHeight();
    return QDialog::eventFilter(watched, event);
}

// A word-wrapped label in a dialog's layout keeps the height of its first text when a longer one
// comes: its height is set from its width whenever either the text or the width changes (the
// layout gives the width; the height follows, which changes no width, so this settles at once).
void LadderDialog::fitNoteHeight() {
    // Laid out as the label lays out rich text (a QTextDocument at the label's width); QLabel's own
    // heightForWidth never answers less than its minimum height and was a line short here.
    const int width = note_->contentsRect().width();
    if (width <= 0) return;
    QTextDocument doc;
    doc.setDefaultFont(note_->font());
    doc.setDocumentMargin(0);
    doc.setHtml(note_->text());
    doc.setTextWidth(width);
    const QMargins m = note_->contentsMargins();
    const int h = int(std::ceil(doc.size().height())) + m.top() + m.bottom() + 2;
    if (h != note_->minimumHeight()) note_->setFixedHeight(h);
}

void LadderDialog::done(int r) {
    saveSettings();
    QDialog::done(r);
}

void LadderDialog::saveSettings() const {
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
}

void LadderDialog::buildUi() {
    auto* v = new QVBoxLayout(this);

    auto* controls = new QHBoxLayout;
    family_box_ = new FamilyBox(tr("%1 variants on %2"), QString(), this);
    profile_box_ = new QComboBox(this);
    profile_box_->setToolTip(tr("The GPU whose limits the occupancy model uses"));
    run_ = new QPushButton(tr("Run"), this);
    run_->setDefault(true);
    controls->addWidget(new QLabel(tr("Kernels:"), this));
    controls->addWidget(family_box_, 1);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Occupancy model:"), this));
    controls->addWidget(profile_box_);
    controls->addStretch();
    controls->addWidget(run_);
    v->addLayout(controls);

    auto* bar = new QHBoxLayout;
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    progress_->setFormat(tr("not run"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    bar->addWidget(progress_, 1);
    bar->addWidget(cancel_);
    v->addLayout(bar);

    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_->installEventFilter(this);
    v->addWidget(note_);

    table_ = new QTableWidget(0, kColumns, this);
    const QList<QPair<QString, QString>> headers = {
        {tr("Variant"), tr("The catalogue's variant, in ladder order")},
        {tr("Block"), tr("The block it is launched with here")},
        {tr("Predicted µs"), tr("GPU time predicted on the chosen profile by the performance model; its terms in each "
                                "cell's tooltip")},
        {tr("GPU µs"), tr("GPU time: median of the timed launches after a warm-up (CUDA events)")},
        {tr("GB/s"), tr("Throughput at the measured time")},
        {tr("% of ceiling"), tr("The ceiling's time over this time, both measured in the same run")},
        {tr("Sectors/req"), tr("Global 32-byte sectors per warp request (loads and stores), the ideal in brackets: "
                               "above the ideal is uncoalesced traffic (l1tex__t_sectors / l1tex__t_requests)")},
        {tr("Wavefronts/req"), tr("Shared-memory wavefronts per warp request: 1 is conflict-free for 4-byte "
                                  "accesses")},
        {tr("Bank conflicts"), tr("Shared-memory wavefronts beyond the ideal, loads and stores, whole traced launch")},
        {tr("Load B/FMA"), tr("Global load bytes moved (sectors x 32) per multiply-add: the lower, the higher the "
                              "arithmetic intensity")},
        {tr("Occupancy"), tr("Modeled occupancy on the chosen profile, and what limits it")},
        {tr("Regs"), tr("Registers per thread (the compiled kernel's)")},
        {tr("Shared/block"), tr("Static + dynamic shared memory per block")},
    };
    for (int c = 0; c < kColumns; ++c) {
        auto* h = new QTableWidgetItem(headers[c].first);
        h->setToolTip(headers[c].second);
        table_->setHorizontalHeaderItem(c, h);
    }
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    table_->setToolTip(tr("Double-click a row to use that variant's launch"));
    v->addWidget(table_, 1);

    auto* bottom = new QHBoxLayout;
    reference_ = new QLabel(this);
    reference_->setWordWrap(true);
    reference_->setTextFormat(Qt::RichText);
    reference_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    bottom->addWidget(reference_, 1);
    bottom->addWidget(buttons);
    v->addLayout(bottom);

    connect(run_, &QPushButton::clicked, this, &LadderDialog::startLadder);
    connect(cancel_, &QPushButton::clicked, this, &LadderDialog::cancelLadder);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(family_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        family_box_->setToolTip(family_box_->currentText());
        showModel();
    });
    connect(profile_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (!isRunning()) showModel();
    });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int r, int) {
        if (QTableWidgetItem* item = table_->item(r, kVariant)) choose(item->data(kIndexRole).toInt());
    });
}

void LadderDialog::fillProfiles() { profiles_ = fill_profile_box(profile_box_); }

// ---- inputs ----

void LadderDialog::setProblem(FamilyProblemPtr problem, const QString& name) {
    if (family_box_->setProblem(std::move(problem), name) && !isRunning()) showModel();
}

void LadderDialog::setFamily(KernelFamily family) { family_box_->setFamily(family); }

KernelFamily LadderDialog::family() const { return family_box_->family(); }

QComboBox* LadderDialog::familyBox() const { return family_box_; }

bool LadderDialog::selectProfile(const QString& name) { return select_profile(profile_box_, profiles_, name); }

DeviceProfile LadderDialog::profile() const { return chosen_profile(profile_box_, profiles_); }

void LadderDialog::setTimers(LadderTimers timers) {
    runner_->setTimers(std::move(timers));
    if (!isRunning()) showModel();
}

SweepRequest LadderDialog::request() const {
    SweepRequest r;
    r.problem = family_box_->problem();
    r.family = family();
    r.profile = profile();
    return r;
}

// ---- running ----

void LadderDialog::startLadder() {
    if (isRunning()) return;
    runner_->start(request());
}

void LadderDialog::cancelLadder() {
    if (!isRunning()) return;
    runner_->cancel();
    cancel_->setEnabled(false);
    cancel_->setText(tr("Cancelling…"));
}

bool LadderDialog::isRunning() const { return runner_->isRunning(); }

// The rows before anything ran: registers and modeled occupancy of each variant.
void LadderDialog::showModel() {
    const LadderResult r = model_ladder(request());
    progress_->setValue(0);
    progress_->setFormat(tr("not run"));
    setResult(r);
}

void LadderDialog::onStarted(const LadderResult& modeled) {
    setResult(modeled);
    run_->setEnabled(false);
    family_box_->setEnabled(false);
    profile_box_->setEnabled(false);
    cancel_->setText(tr("Cancel"));
    cancel_->setEnabled(true);
    progress_->setValue(0);
    progress_->setFormat(runner_->hasTimer() ? tr("tracing, then timing…") : tr("tracing…"));
}

void LadderDialog::onRowUpdated(int index, const LadderRow& row) {
    if (index < 0 || std::size_t(index) >= result_.rows.size()) return;
    result_.rows[std::size_t(index)] = row;
    setTableRow(index);
}

void LadderDialog::onProgress(int done, int total) {
    if (total <= 0) return;
    progress_->setValue(int(qint64(done) * 100 / total));
    progress_->setFormat(tr("%1 of %2 steps · %p%").arg(done).arg(total));
}

void LadderDialog::onFinished(const LadderResult& result) {
    setResult(result);
    run_->setEnabled(true);
    family_box_->setEnabled(true);
    profile_box_->setEnabled(true);
    cancel_->setEnabled(false);
    cancel_->setText(tr("Cancel"));
    if (result.cancelled) progress_->setFormat(tr("cancelled · %p%"));
    else if (!result.status) progress_->setFormat(tr("failed"));
    else {
        progress_->setValue(100);
        progress_->setFormat(tr("done · %p%"));
    }
    emit ladderFinished(result_);
}

void LadderDialog::setResult(const LadderResult& result) {
    result_ = result;
    const bool timed = runner_->hasTimer();
    table_->setColumnHidden(kGpuUs, !timed);
    table_->setColumnHidden(kThroughput, !timed);
    table_->setColumnHidden(kOfReference, !timed);
    table_->horizontalHeaderItem(kThroughput)->setText(throughput_unit(result_.family));
    table_->horizontalHeaderItem(kOfReference)
        ->setText(tr("% of %1").arg(result_.reference_short));
    table_->setRowCount(int(result_.rows.size()));
    for (std::size_t i = 0; i < result_.rows.size(); ++i) setTableRow(int(i));
    table_->resizeColumnsToContents();
    refreshLabels();
}

void LadderDialog::setTableRow(int index) {
    const LadderRow& r = result_.rows[std::size_t(index)];
    const SweepRow& l = r.launch;
    auto* variant = new QTableWidgetItem(r.name);
    variant->setData(kIndexRole, index);
    variant->setToolTip(r.title);
    table_->setItem(index, kVariant, variant);
    const Dim3& b = l.block();
    const QString block = l.ref().tile ? QStringLiteral("TILE=%1").arg(l.ref().tile)
                          : b.y == 1 && b.z == 1 ? QString::number(b.x)
                                                 : QStringLiteral("%1x%2").arg(b.x).arg(b.y);
    table_->setItem(index, kBlock, new QTableWidgetItem(block));

    const GpuPrediction& p = l.prediction;
    const bool predicted = p.ok() && p.total_us > 0;
    table_->setItem(index, kPredictedUs,
                    number_item(predicted ? us_text(p.total_us / 1e3) : dash(),
                                predicted ? prediction_details(p) : p.error.isEmpty() ? tr("not predicted yet: Run") : p.error));
    const bool timed = l.state == SweepRowState::Timed;
    QString time = timed ? us_text(l.median_ms) : l.state == SweepRowState::Failed ? tr("error") : dash();
    table_->setItem(index, kGpuUs,
                    number_item(time, timed ? tr("median of %1 launches").arg(l.launches) : l.error));
    table_->setItem(index, kThroughput,
                    number_item(timed ? throughput_text(result_.family, l.throughput) : dash()));
    table_->setItem(index, kOfReference,
                    number_item(r.fraction_of_reference > 0 ? QStringLiteral("%1%").arg(100 * r.fraction_of_reference, 0, 'f', 1)
                                                           : dash()));

    const LadderFigures& f = r.figures;
    const QString untraced = f.error.isEmpty() ? tr("not traced yet: Run") : f.error;
    if (f.traced) {
        table_->setItem(index, kSectors,
                        number_item(QStringLiteral("%1 (%2)").arg(f.sectorsPerRequest(), 0, 'f', 2)
                                        .arg(f.idealSectorsPerRequest(), 0, 'f', 2),
                                    tr("%1 global requests, %2 sectors, traced on %3")
                                        .arg(f.metrics.global_ld.requests + f.metrics.global_st.requests)
                                        .arg(f.metrics.global_ld.sectors + f.metrics.global_st.sectors)
                                        .arg(f.traced_problem)));
        const bool shared = f.sharedRequests() > 0;
        table_->setItem(index, kWavefronts,
                        number_item(shared ? QString::number(f.wavefrontsPerRequest(), 'f', 2) : dash(),
                                    shared ? tr("%1 shared requests").arg(f.sharedRequests()) : tr("no shared memory")));
        table_->setItem(index, kConflicts, number_item(shared ? QString::number(f.bankConflicts()) : dash()));
        table_->setItem(index, kLoadBytes,
                        number_item(QString::number(f.loadBytesPerFma(), 'f', f.loadBytesPerFma() < 1 ? 3 : 2),
                                    tr("%1 multiply-adds traced").arg(f.fmas)));
    } else {
        for (int c : {kSectors, kWavefronts, kConflicts, kLoadBytes}) table_->setItem(index, c, number_item(dash(), untraced));
    }
    const Occupancy& o = l.occupancy;
    table_->setItem(index, kOccupancy,
                    o.blocks_per_sm > 0 ? new QTableWidgetItem(QStringLiteral("%1% (%2)")
                                                                   .arg(qRound(100 * o.occupancy))
                                                                   .arg(to_string(o.limit)))
                                        : new QTableWidgetItem(o.error));
    table_->setItem(index, kRegisters, number_item(QString::number(r.resources.registers)));
    table_->setItem(index, kShared, number_item(bytes_text(r.block_shared_bytes)));
}

void LadderDialog::refreshLabels() {
    const QString what = app_family(result_.family).title;
    QString note = result_.note;
    if (isRunning()) {
        note = runner_->hasTimer() ? tr("tracing each variant on the emulator, then timing each on the GPU…")
                                   : tr("tracing each variant on the emulator…");
    } else if (note.isEmpty()) {
        note = runner_->hasTimer()
                   ? tr("Run traces each variant and times it on the GPU beside the ceiling; registers and occupancy "
                        "(modeled for %1) are shown already.")
                         .arg(result_.profile)
                   : tr("modeled: no CUDA device here, so nothing is timed. Run traces each variant on the emulator; "
                        "registers and occupancy (modeled for %1) are shown already.")
                         .arg(result_.profile);
    }
    QString text = QStringLiteral("<b>%1</b> on %2 — %3").arg(what, result_.problem.toHtmlEscaped(), note.toHtmlEscaped());
    if (!result_.trace_note.isEmpty()) text += QStringLiteral("<br>") + result_.trace_note.toHtmlEscaped();
    if (!result_.choice_note.isEmpty()) text += QStringLiteral("<br>") + result_.choice_note.toHtmlEscaped();
    note_->setText(text);
    fitNoteHeight();

    const LadderReference& ref = result_.reference;
    if (ref.timing.timed) {
        reference_->setText(tr("Ceiling, same run: <b>%1</b> — %2 µs · %3 %4")
                                .arg(ref.label.toHtmlEscaped(), us_text(ref.timing.median_ms),
                                     throughput_text(result_.family, ref.throughput), throughput_unit(result_.family)));
    } else if (!cuda_device_available()) {
        // No GPU here: no ceiling exists to compare with, so none is named as if it did.
        reference_->setText(tr("Ceiling: none on this machine (no CUDA device), so nothing is compared with one; "
                               "on a GPU it is %1, timed with the kernels.")
                                .arg(result_.family == KernelFamily::Grayscale ? tr("a device-to-device copy")
                                                                                : tr("cuBLAS SGEMM fp32")));
    } else if (!ref.label.isEmpty()) {
        reference_->setText(tr("Ceiling: %1 not timed: %2")
                                .arg(ref.label.toHtmlEscaped(), QString::fromStdString(ref.timing.status.message()).toHtmlEscaped()));
    } else {
        reference_->setText(tr("Ceiling: %1, timed with the kernels on a GPU.").arg(app_family(result_.family).reference_long));
    }
}

QString LadderDialog::noteText() const { return note_->text(); }
QString LadderDialog::referenceText() const { return reference_->text(); }

void LadderDialog::choose(int index) {
    if (index < 0 || std::size_t(index) >= result_.rows.size()) return;
    const SweepRow& r = result_.rows[std::size_t(index)].launch;
    emit launchChosen(r.choice);
}

}  // namespace cvz
