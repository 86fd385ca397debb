#include "ui/panels/launch_panel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "ui/panels/launch_shape_box.h"

namespace cvz {

namespace {

constexpr int kMaxThreads = 1024;

struct Preset {
    const char* label;
    LaunchShape shape;
};

const Preset kPresets[] = {
    {"1-D 256 (lecture)", LaunchShape::one_d(256)},   {"2-D 16×16 (lecture)", LaunchShape::two_d(16, 16)},
    {"2-D 32×32", LaunchShape::two_d(32, 32)},        {"2-D 32×8", LaunchShape::two_d(32, 8)},
    {"2-D 8×32", LaunchShape::two_d(8, 32)},          {"1-D 1024", LaunchShape::one_d(1024)},
    {"1-D 33 (partial warps)", LaunchShape::one_d(33)},
};

// A slider and a spin box kept equal, in one row.
QWidget* slider_row(QSlider** slider, QSpinBox** spin, int max, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    *slider = new QSlider(Qt::Horizontal, row);
    (*slider)->setRange(1, max);
    (*slider)->setPageStep(32);
    *spin = new QSpinBox(row);
    (*spin)->setRange(1, max);
    (*spin)->setAccelerated(true);
    h->addWidget(*slider, 1);
    h->addWidget(*spin);
    QObject::connect(*slider, &QSlider::valueChanged, *spin, &QSpinBox::setValue);
    QObject::connect(*spin, qOverload<int>(&QSpinBox::valueChanged), *slider, &QSlider::setValue);
    return row;
}

QString number(std::uint64_t v) { return QLocale().toString(qulonglong(v)); }

// The TILE kept when switching to a variant that takes one: the current one if it has it, else its
// middle one (16 of {8, 16, 32}).
unsigned pick_tile(const KernelInfo& info, unsigned current) {
    if (info.tiles.empty()) return current;
    for (unsigned t : info.tiles)
        if (t == current) return t;
    return info.tiles[info.tiles.size() / 2];
}

// The block a variant starts from when chosen, by its rule, keeping what it can of the current one:
// the thread count for a 1-D block (256 <-> 16x16), a 2-D block as it was.
Dim3 block_for(const KernelInfo& info, Dim3 from, unsigned tile) {
    switch (info.block) {
    case BlockRule::OneD:
        return Dim3{std::clamp<unsigned>(from.x * from.y * from.z, 1u, unsigned(kMaxThreads)), 1, 1};
    case BlockRule::TwoD:
        return from.y > 1 ? Dim3{from.x, from.y, 1} : Dim3{16, 16, 1};
    case BlockRule::Tile:
        return Dim3{tile, tile, 1};
    case BlockRule::Fixed:
        return info.fixed_block;
    }
    return from;
}

}  // namespace

LaunchPanel::LaunchPanel(QWidget* parent) : QWidget(parent) {
    buildUi();
    syncControls();
}

void LaunchPanel::syncNow() {
    if (sync_pending_) syncControls();
}

void LaunchPanel::buildUi() {
    auto* v = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    // The family's variants, from the catalogue: name in the list, title as tooltip.
    kernel_box_ = new QComboBox(this);
    kernel_box_->setObjectName(QStringLiteral("kernelBox"));
    kernel_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(new QLabel(tr("Kernel"), this));
    top->addWidget(kernel_box_, 1);
    // Grayscale: the pixel layout the kernel reads, beside the kernel (one row, not two).
    layout_box_ = new QComboBox(this);
    layout_box_->setObjectName(QStringLiteral("layoutBox"));
    layout_box_->addItem(tr("Interleaved RGB"), QStringLiteral("interleaved"));
    layout_box_->addItem(tr("Planar C\u00D7H\u00D7W"), QStringLiteral("planar"));
    layout_box_->setItemData(0, tr("As image files store pixels: pixel i reads x[3i], x[3i+1], x[3i+2]"), Qt::ToolTipRole);
    layout_box_->setItemData(1, tr("As the lecture's tensor: pixel i reads x[i], x[i+n], x[i+2n]"), Qt::ToolTipRole);
    top->addWidget(layout_box_);
    v->addLayout(top);

    pages_ = new QStackedWidget(this);
    auto* page1 = new QWidget(pages_);
    auto* f1 = new QFormLayout(page1);
    f1->addRow(tr("Threads per block"), slider_row(&threads_slider_, &threads_spin_, kMaxThreads, page1));
    threads_slider_->setToolTip(tr("Threads per block (blockDim.x of a 1-D launch): the grid has cdiv(n, this) blocks"));
    auto* page2 = new QWidget(pages_);
    auto* f2 = new QFormLayout(page2);
    f2->addRow(tr("blockDim.x"), slider_row(&x_slider_, &x_spin_, kMaxThreads, page2));
    f2->addRow(tr("blockDim.y"), slider_row(&y_slider_, &y_spin_, kMaxThreads, page2));
    x_slider_->setToolTip(tr("blockDim.x: threads across a block (columns); x × y may be at most 1024"));
    y_slider_->setToolTip(tr("blockDim.y: threads down a block (rows); x × y may be at most 1024"));
    pages_->addWidget(page1);
    pages_->addWidget(page2);
    v->addWidget(pages_);

    // A variant that takes a TILE: the tiles it is compiled for.
    tile_row_ = new QWidget(this);
    auto* tr_layout = new QFormLayout(tile_row_);
    tr_layout->setContentsMargins(0, 0, 0, 0);
    tile_box_ = new QComboBox(tile_row_);
    tile_box_->setObjectName(QStringLiteral("tileBox"));
    tr_layout->addRow(tr("TILE"), tile_box_);
    v->addWidget(tile_row_);
    // Why the block cannot be edited (a TILE or a fixed-block variant).
    block_note_ = new QLabel(this);
    block_note_->setObjectName(QStringLiteral("blockNote"));
    block_note_->setWordWrap(true);
    v->addWidget(block_note_);
    limit_note_ = new QLabel(this);
    limit_note_->setObjectName(QStringLiteral("blockLimitNote"));
    limit_note_->setWordWrap(true);
    limit_note_->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    limit_note_->hide();
    v->addWidget(limit_note_);

    barrier_box_ = new QCheckBox(tr("Remove the second __syncthreads() (emulator)"), this);
    barrier_box_->setToolTip(tr("Runs the kernel on the emulator without the barrier after the multiply: "
                                "a fast thread overwrites the tiles its neighbours still read"));
    v->addWidget(barrier_box_);
    barrier_box_->hide();

    presets_ = new QComboBox(this);
    presets_->addItem(tr("Presets…"));
    for (const Preset& p : kPresets) presets_->addItem(QString::fromUtf8(p.label));
    v->addWidget(presets_);
    // Grayscale: the shape as text in the presets' place: the lecture's presets, or any "N" / "XxY".
    shape_box_ = new LaunchShapeBox(this);
    shape_box_->setObjectName(QStringLiteral("launchShapeBox"));
    shape_box_->setToolTip(tr("A preset, or type N for a 1-D block of N threads, XxY for a 2-D block"));
    v->addWidget(shape_box_);
    presets_->hide();

    stats_ = new QLabel(this);
    stats_->setObjectName(QStringLiteral("launchStats"));
    stats_->setToolTip(tr("The launch this block gives: the grid, every thread, the idle ones the guard switches off, "
                          "and warps of 32 threads (partial: fewer than 32 threads; divergent: some idle)"));
    stats_->setTextFormat(Qt::RichText);
    stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stats_->setWordWrap(true);
    v->addWidget(stats_);
    times_ = new QLabel(this);
    times_->setObjectName(QStringLiteral("launchTimes"));
    times_->setTextFormat(Qt::RichText);
    times_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    times_->setWordWrap(true);
    v->addWidget(times_);
    v->addStretch();

    fillKernels();

    connect(kernel_box_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onKernelChosen);
    connect(threads_slider_, &QSlider::valueChanged, this, &LaunchPanel::onThreadsChanged);
    connect(x_slider_, &QSlider::valueChanged, this, &LaunchPanel::onXChanged);
    connect(y_slider_, &QSlider::valueChanged, this, &LaunchPanel::onYChanged);
    connect(presets_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onPreset);
    connect(tile_box_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onMatmulControls);
    connect(barrier_box_, &QCheckBox::toggled, this, &LaunchPanel::onMatmulControls);
    connect(shape_box_, &LaunchShapeBox::shapeChosen, this, [this](LaunchShape s) {
        // "N" or "XxY" typed for a variant of the same rule keeps the variant (gray_1d_x4 stays x4).
        const BlockRule now = grayscale_rule(shape_);
        if ((now == BlockRule::OneD || now == BlockRule::TwoD) && grayscale_rule(s) == now) s.kind = shape_.kind;
        forgetWantedBlock();
        commit(s);
    });
    connect(shape_box_, &LaunchShapeBox::invalidShape, this, &LaunchPanel::invalidShape);
    connect(layout_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { emit layoutChanged(layout()); });
}

void LaunchPanel::fillKernels() {
    const QSignalBlocker block(kernel_box_);
    kernel_box_->clear();
    for (const KernelInfo& k : family_catalogue(family_)) {
        kernel_box_->addItem(QString::fromStdString(k.name), int(k.variant));
        kernel_box_->setItemData(kernel_box_->count() - 1, QString::fromStdString(k.title), Qt::ToolTipRole);
    }
}

const KernelInfo* LaunchPanel::variantInfo() const {
    const std::uint8_t v = family_ == KernelFamily::Grayscale ? std::uint8_t(shape_.kind) : std::uint8_t(matmul_.kernel);
    return kernel_info(family_, v);
}

bool LaunchPanel::blockEditable() const {
    const KernelInfo* info = variantInfo();
    return info && (info->block == BlockRule::OneD || info->block == BlockRule::TwoD);
}

bool LaunchPanel::chooseKernel(const QString& name) {
    const KernelInfo* info = find_kernel(family_, name.toStdString());
    if (!info) return false;
    const int index = kernel_box_->findData(int(info->variant));
    if (index < 0) return false;
    kernel_box_->setCurrentIndex(index);
    onKernelChosen(index);
    return true;
}

void LaunchPanel::onKernelChosen(int index) {
    if (syncing_ || index < 0) return;
    const KernelInfo* info = kernel_info(family_, std::uint8_t(kernel_box_->itemData(index).toInt()));
    if (!info) return;
    forgetWantedBlock();
    if (family_ == KernelFamily::Grayscale) {
        // A layout the variant does not read gives way to the first it does.
        const std::string now = layout() == PixelLayout::Planar ? "planar" : "interleaved";
        if (!info->layouts.empty() && std::find(info->layouts.begin(), info->layouts.end(), now) == info->layouts.end())
            setLayout(info->layouts.front() == "planar" ? PixelLayout::Planar : PixelLayout::Interleaved);
        const unsigned tile = pick_tile(*info, shape_.block.x);
        commit(LaunchShape::of(GrayscaleVariant(info->variant), block_for(*info, shape_.block, tile)));
        return;
    }
    const unsigned tile = pick_tile(*info, matmul_.tile);
    commitMatmul(MatmulLaunch::of(MatmulVariant(info->variant), block_for(*info, matmul_.block_shape(), tile), tile));
}

PixelLayout LaunchPanel::layout() const {
    return layout_box_->currentData().toString() == QLatin1String("planar") ? PixelLayout::Planar : PixelLayout::Interleaved;
}

void LaunchPanel::setLayout(PixelLayout layout) {
    layout_box_->setCurrentIndex(layout == PixelLayout::Planar ? 1 : 0);  // emits layoutChanged on a change
}

void LaunchPanel::setFamily(KernelFamily family) {
    if (family == family_) return;
    family_ = family;
    forgetWantedBlock();
    fillKernels();
    // The two launch types the panel edits: a grayscale shape (with a pixel layout, typed in the
    // shape field) or a matmul launch (with the lecture's 2-D presets).
    const bool gray = family == KernelFamily::Grayscale;
    layout_box_->setVisible(gray);
    shape_box_->setVisible(gray);
    presets_->setVisible(!gray);
    stats_->setText(gray ? grayscale_stats_ : matmul_stats_);
    times_->setText(times_html_[int(family)]);
    times_->setToolTip(times_details_[int(family)]);
    syncControls();
}

// A block set from outside (a page, the sweep, settings) is what the user has set from then on.
void LaunchPanel::setMatmulLaunch(const MatmulLaunch& launch) {
    if (!(launch.block == matmul_.block)) forgetWantedBlock();
    commitMatmul(launch);
}

void LaunchPanel::commitMatmul(const MatmulLaunch& l) {
    const bool changed = l.kernel != matmul_.kernel || !(l.block == matmul_.block) || l.tile != matmul_.tile ||
                         l.second_barrier != matmul_.second_barrier;
    matmul_ = l;
    if (!sync_pending_) {
        sync_pending_ = true;
        QTimer::singleShot(0, this, &LaunchPanel::syncControls);
    }
    if (changed) emit matmulLaunchChanged(matmul_);
}

// The TILE chooser (either family) and the barrier lesson (matmul).
void LaunchPanel::onMatmulControls() {
    if (syncing_) return;
    const KernelInfo* info = variantInfo();
    if (!info) return;
    const unsigned tile = unsigned(tile_box_->currentData().toInt());
    if (family_ == KernelFamily::Grayscale) {
        if (info->block == BlockRule::Tile) commit(LaunchShape::of(shape_.kind, Dim3{tile, tile, 1}));
        return;
    }
    MatmulLaunch l = matmul_;
    if (info->block == BlockRule::Tile) {
        l.tile = tile;
        l.block = Dim3{tile, tile, 1};
    }
    l.second_barrier = !info->barriers || !barrier_box_->isChecked();
    commitMatmul(l);
}

void LaunchPanel::showMatmulStats(const QString& html) {
    matmul_stats_ = html;
    if (family_ == KernelFamily::Matmul) stats_->setText(html);
}

void LaunchPanel::showTimes(KernelFamily family, const QString& html, const QString& details) {
    times_html_[int(family)] = html;
    times_details_[int(family)] = details;
    if (family_ != family) return;
    times_->setText(html);
    times_->setToolTip(details);
}

void LaunchPanel::setShape(const LaunchShape& s) {
    if (!(s.block == shape_.block)) forgetWantedBlock();
    commit(s);
}

void LaunchPanel::forgetWantedBlock() {
    wanted_x_ = 0;
    wanted_y_ = 0;
}

void LaunchPanel::commit(const LaunchShape& s) {
    const bool changed = s.kind != shape_.kind || !(s.block == shape_.block);
    shape_ = s;
    if (changed || shape_box_->shapeText() != QString::fromStdString(to_string(s))) {
        // The text field shows the shape at once (it is what settings and tests read back).
        const QSignalBlocker block(shape_box_);
        shape_box_->setShapeText(QString::fromStdString(to_string(s)));
    }
    // The controls follow on the next turn of the event loop, once for any number of changes:
    // switching the 1-D/2-D page costs milliseconds, and shapes may arrive in bursts.
    if (!sync_pending_) {
        sync_pending_ = true;
        QTimer::singleShot(0, this, &LaunchPanel::syncControls);
    }
    if (changed) emit shapeChanged(shape_);
}

void LaunchPanel::syncControls() {
    sync_pending_ = false;
    syncing_ = true;
    const QSignalBlocker b1(kernel_box_), b2(tile_box_), b3(barrier_box_);
    const bool gray = family_ == KernelFamily::Grayscale;
    const KernelInfo* info = variantInfo();
    const int index = info ? kernel_box_->findData(int(info->variant)) : -1;
    kernel_box_->setCurrentIndex(index);
    kernel_box_->setToolTip(info ? QString::fromStdString(info->title) : QString());
    const BlockRule rule = info ? info->block : BlockRule::OneD;
    const Dim3 b = gray ? shape_.block : matmul_.block_shape();

    pages_->setCurrentIndex(rule == BlockRule::OneD ? 0 : 1);
    if (rule == BlockRule::OneD) {
        threads_slider_->setValue(int(b.x));
    } else {
        x_slider_->setValue(int(b.x));
        y_slider_->setValue(int(b.y));
    }
    const bool editable = rule == BlockRule::OneD || rule == BlockRule::TwoD;
    for (QWidget* w : {static_cast<QWidget*>(threads_slider_), static_cast<QWidget*>(threads_spin_),
                       static_cast<QWidget*>(x_slider_), static_cast<QWidget*>(y_slider_),
                       static_cast<QWidget*>(x_spin_), static_cast<QWidget*>(y_spin_)})
        w->setEnabled(editable);
    shape_box_->setEnabled(editable);

    tile_row_->setVisible(rule == BlockRule::Tile);
    tile_box_->clear();
    if (info)
        for (unsigned t : info->tiles) tile_box_->addItem(QStringLiteral("%1 × %1").arg(t), int(t));
    const unsigned tile = gray ? b.x : matmul_.tile;
    tile_box_->setCurrentIndex(std::max(0, tile_box_->findData(int(tile))));

    QString note;
    if (info && rule == BlockRule::Tile)
        note = tr("The block is TILE × TILE (%1 threads): the TILE chooses it.").arg(b.x * b.y);
    else if (info && rule == BlockRule::Fixed)
        note = tr("%1 runs with a fixed %2 × %3 block: its body is written for exactly these %4 threads, "
                  "so the block cannot be edited.")
                   .arg(QString::fromStdString(info->name))
                   .arg(info->fixed_block.x)
                   .arg(info->fixed_block.y)
                   .arg(info->fixed_block.volume());
    block_note_->setText(note);
    block_note_->setVisible(!note.isEmpty());
    const QString limit = rule == BlockRule::TwoD ? limitText() : QString();
    limit_note_->setText(limit);
    limit_note_->setVisible(!limit.isEmpty());

    if (gray && info) {
        // Only the layouts the variant reads can be chosen.
        if (auto* model = qobject_cast<QStandardItemModel*>(layout_box_->model()))
            for (int i = 0; i < layout_box_->count(); ++i) {
                const std::string l = layout_box_->itemData(i).toString().toStdString();
                model->item(i)->setEnabled(std::find(info->layouts.begin(), info->layouts.end(), l) != info->layouts.end());
            }
    }
    barrier_box_->setVisible(!gray);
    barrier_box_->setEnabled(!gray && info && info->barriers);
    barrier_box_->setChecked(!gray && !matmul_.second_barrier);
    syncing_ = false;
}

void LaunchPanel::onThreadsChanged(int value) {
    if (syncing_) return;
    if (family_ == KernelFamily::Matmul) {
        commitMatmul(MatmulLaunch::of(matmul_.kernel, Dim3{unsigned(value), 1, 1}, matmul_.tile));
        return;
    }
    commit(LaunchShape::of(shape_.kind, Dim3{unsigned(value), 1, 1}));
}

// Keep x*y <= 1024: the dimension being moved wins, the other gives way, but only as far as it must:
// it returns to the value the user set for it as soon as that fits again (and limitText says why).
void LaunchPanel::onXChanged(int x) {
    if (syncing_) return;
    const Dim3 now = family_ == KernelFamily::Matmul ? matmul_.block : shape_.block;
    wanted_x_ = unsigned(x);
    if (!wanted_y_) wanted_y_ = now.y;
    commitBlock(Dim3{unsigned(x), std::max(1u, std::min<unsigned>(wanted_y_, unsigned(kMaxThreads / x))), 1});
}

void LaunchPanel::onYChanged(int y) {
    if (syncing_) return;
    const Dim3 now = family_ == KernelFamily::Matmul ? matmul_.block : shape_.block;
    wanted_y_ = unsigned(y);
    if (!wanted_x_) wanted_x_ = now.x;
    commitBlock(Dim3{std::max(1u, std::min<unsigned>(wanted_x_, unsigned(kMaxThreads / y))), unsigned(y), 1});
}

void LaunchPanel::commitBlock(Dim3 block) {
    if (family_ == KernelFamily::Matmul) commitMatmul(MatmulLaunch::of(matmul_.kernel, block, matmul_.tile));
    else commit(LaunchShape::of(shape_.kind, block));
    // The note may change with the block even when the sliders already show it.
    if (!sync_pending_) {
        sync_pending_ = true;
        QTimer::singleShot(0, this, &LaunchPanel::syncControls);
    }
}

QString LaunchPanel::limitText() const {
    const Dim3 b = family_ == KernelFamily::Matmul ? matmul_.block : shape_.block;
    auto why = [](const char* dim, unsigned shown, unsigned wanted, const char* other, unsigned other_value) {
        return tr("blockDim.%1 is %2, not the %3 you set: %4 × %3 would be %5 threads, and a block may have at most "
                  "%6. It goes back to %3 when blockDim.%7 is %8 or less.")
            .arg(QLatin1String(dim)).arg(shown).arg(wanted).arg(other_value).arg(other_value * wanted).arg(kMaxThreads)
            .arg(QLatin1String(other)).arg(unsigned(kMaxThreads) / wanted);
    };
    if (wanted_y_ && b.y < wanted_y_ && b.x == wanted_x_) return why("y", b.y, wanted_y_, "x", b.x);
    if (wanted_x_ && b.x < wanted_x_ && b.y == wanted_y_) return why("x", b.x, wanted_x_, "y", b.y);
    return {};
}

void LaunchPanel::onPreset(int index) {
    if (index <= 0 || index > int(std::size(kPresets))) return;
    const LaunchShape& preset = kPresets[index - 1].shape;
    presets_->setCurrentIndex(0);
    forgetWantedBlock();
    if (family_ == KernelFamily::Grayscale) {
        commit(preset);
        return;
    }
    // Matmul takes the 2-D presets as a 2-D block: for the variant in use when its block is 2-D, else
    // for the family's first 2-D variant (the lecture's naive kernel). 1-D ones do not apply.
    if (is_one_d(preset)) return;
    const KernelInfo* info = variantInfo();
    if (!info || info->block != BlockRule::TwoD) {
        info = nullptr;
        for (const KernelInfo& k : family_catalogue(family_))
            if (k.block == BlockRule::TwoD) {
                info = &k;
                break;
            }
    }
    if (info) commitMatmul(MatmulLaunch::of(MatmulVariant(info->variant), preset.block, matmul_.tile));
}

void LaunchPanel::showPlan(const LaunchPlan& p) {
    const QString grid = p.one_d ? QStringLiteral("%1").arg(number(p.grid.x))
                                                        : QStringLiteral("%1 × %2").arg(number(p.grid.x), number(p.grid.y));
    QString text = tr("<table>"
                      "<tr><td>Grid</td><td align=right><b>%1</b> blocks%2</td></tr>"
                      "<tr><td>Threads</td><td align=right>%3</td></tr>"
                      "<tr><td>Idle threads</td><td align=right><b>%4</b> (%5%)</td></tr>"
                      "<tr><td>Warps</td><td align=right>%6 (%7 per block)</td></tr>"
                      "<tr><td>Partial warps</td><td align=right>%8</td></tr>"
                      "<tr><td>Warps with idle threads</td><td align=right>%9 divergent, %10 all idle</td></tr>")
                       .arg(grid, p.blocks != p.grid.x ? QStringLiteral(" = %1").arg(number(p.blocks)) : QString(),
                            number(p.total_threads), number(p.idle_threads),
                            QString::number(100.0 * p.idle_fraction(), 'f', 1), number(p.total_warps),
                            number(p.warps_per_block), number(p.partial_warps), number(p.divergent_warps))
                       .arg(number(p.idle_warps));
    if (p.items_per_thread > 1)
        text += tr("<tr><td>Pixels per thread</td><td align=right>%1</td></tr>").arg(p.items_per_thread);
    if (p.passes > 1)
        text += tr("<tr><td>Grid-stride passes</td><td align=right>%1 (gridDim.y capped at 65535)</td></tr>").arg(p.passes);
    text += QStringLiteral("</table>");
    grayscale_stats_ = text;
    if (family_ == KernelFamily::Grayscale) stats_->setText(text);
}

QString LaunchPanel::planText() const { return stats_->text(); }

}  // namespace cvz
