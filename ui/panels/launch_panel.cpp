#include "ui/panels/launch_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

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
    auto* modes = new QHBoxLayout;
    one_d_ = new QRadioButton(tr("1-D grid"), this);
    two_d_ = new QRadioButton(tr("2-D grid"), this);
    one_d_->setToolTip(tr("i = blockIdx.x * blockDim.x + threadIdx.x over the flattened image; if (i < n)"));
    two_d_->setToolTip(tr("column from x, row from y; if (c < w && r < h)"));
    modes->addWidget(one_d_);
    modes->addWidget(two_d_);
    modes->addStretch();
    // Grayscale: the pixel layout the kernel reads, beside the grid choice (one row, not two).
    layout_box_ = new QComboBox(this);
    layout_box_->setObjectName(QStringLiteral("layoutBox"));
    layout_box_->addItem(tr("Interleaved RGB"), QStringLiteral("interleaved"));
    layout_box_->addItem(tr("Planar C\u00D7H\u00D7W"), QStringLiteral("planar"));
    layout_box_->setItemData(0, tr("As image files store pixels: pixel i reads x[3i], x[3i+1], x[3i+2]"), Qt::ToolTipRole);
    layout_box_->setItemData(1, tr("As the lecture's tensor: pixel i reads x[i], x[i+n], x[i+2n]"), Qt::ToolTipRole);
    modes->addWidget(layout_box_);
    v->addLayout(modes);

    pages_ = new QStackedWidget(this);
    auto* page1 = new QWidget(pages_);
    auto* f1 = new QFormLayout(page1);
    f1->addRow(tr("Threads per block"), slider_row(&threads_slider_, &threads_spin_, kMaxThreads, page1));
    auto* page2 = new QWidget(pages_);
    auto* f2 = new QFormLayout(page2);
    f2->addRow(tr("blockDim.x"), slider_row(&x_slider_, &x_spin_, kMaxThreads, page2));
    f2->addRow(tr("blockDim.y"), slider_row(&y_slider_, &y_spin_, kMaxThreads, page2));
    pages_->addWidget(page1);
    pages_->addWidget(page2);
    v->addWidget(pages_);

    // Matmul only: which kernel, which tile, and the missing-barrier lesson.
    matmul_box_ = new QWidget(this);
    auto* mm = new QFormLayout(matmul_box_);
    mm->setContentsMargins(0, 0, 0, 0);
    auto* kernels = new QHBoxLayout;
    naive_ = new QRadioButton(tr("naive"), matmul_box_);
    naive_->setToolTip(tr("One thread per output; row from y, column from x; K loads of A and of B per thread"));
    tiled_ = new QRadioButton(tr("tiled (shared memory)"), matmul_box_);
    tiled_->setToolTip(tr("TILE x TILE blocks stage tiles of A and B in shared memory, two __syncthreads() per phase"));
    kernels->addWidget(naive_);
    kernels->addWidget(tiled_);
    mm->addRow(tr("Kernel"), kernels);
    tile_box_ = new QComboBox(matmul_box_);
    for (int t : {8, 16, 32}) tile_box_->addItem(QStringLiteral("%1 × %1").arg(t), t);
    mm->addRow(tr("TILE"), tile_box_);
    barrier_box_ = new QCheckBox(tr("Remove the second __syncthreads() (emulator)"), matmul_box_);
    barrier_box_->setToolTip(tr("Runs the tiled kernel on the emulator without the barrier after the multiply: "
                                "a fast thread overwrites the tiles its neighbours still read"));
    mm->addRow(barrier_box_);
    matmul_box_->hide();
    v->insertWidget(0, matmul_box_);


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
    stats_->setTextFormat(Qt::RichText);
    stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stats_->setWordWrap(true);
    v->addWidget(stats_);
    v->addStretch();

    connect(one_d_, &QRadioButton::toggled, this, [this] { onModeChanged(); });
    connect(threads_slider_, &QSlider::valueChanged, this, &LaunchPanel::onThreadsChanged);
    connect(x_slider_, &QSlider::valueChanged, this, &LaunchPanel::onXChanged);
    connect(y_slider_, &QSlider::valueChanged, this, &LaunchPanel::onYChanged);
    connect(presets_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onPreset);
    connect(naive_, &QRadioButton::toggled, this, &LaunchPanel::onMatmulControls);
    connect(tile_box_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onMatmulControls);
    connect(barrier_box_, &QCheckBox::toggled, this, &LaunchPanel::onMatmulControls);
    connect(shape_box_, &LaunchShapeBox::shapeChosen, this, &LaunchPanel::commit);
    connect(shape_box_, &LaunchShapeBox::invalidShape, this, &LaunchPanel::invalidShape);
    connect(layout_box_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { emit layoutChanged(layout()); });
}

PixelLayout LaunchPanel::layout() const {
    return layout_box_->currentData().toString() == QLatin1String("planar") ? PixelLayout::Planar : PixelLayout::Interleaved;
}

void LaunchPanel::setLayout(PixelLayout layout) {
    layout_box_->setCurrentIndex(layout == PixelLayout::Planar ? 1 : 0);  // emits layoutChanged on a change
}

void LaunchPanel::setKernel(PanelKernel kernel) {
    if (kernel == kernel_) return;
    kernel_ = kernel;
    const bool mm = kernel == PanelKernel::Matmul;
    matmul_box_->setVisible(mm);
    layout_box_->setVisible(!mm);
    shape_box_->setVisible(!mm);
    presets_->setVisible(mm);
    one_d_->setEnabled(!mm);  // the matmul grid is 2-D: rows from y, columns from x
    one_d_->setToolTip(mm ? tr("Matmul maps rows to y and columns to x: a 2-D grid")
                          : tr("i = blockIdx.x * blockDim.x + threadIdx.x over the flattened image; if (i < n)"));
    stats_->setText(mm ? matmul_stats_ : grayscale_stats_);
    syncControls();
}

void LaunchPanel::setMatmulLaunch(const MatmulLaunch& launch) { commitMatmul(launch); }

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

void LaunchPanel::onMatmulControls() {
    if (syncing_) return;
    MatmulLaunch l = matmul_;
    l.kernel = naive_->isChecked() ? MatmulKernel::Naive : MatmulKernel::Tiled;
    l.tile = unsigned(tile_box_->currentData().toInt());
    l.second_barrier = l.kernel == MatmulKernel::Naive || !barrier_box_->isChecked();
    commitMatmul(l);
}

void LaunchPanel::showMatmulStats(const QString& html) {
    matmul_stats_ = html;
    if (kernel_ == PanelKernel::Matmul) stats_->setText(html);
}

void LaunchPanel::setShape(const LaunchShape& s) { commit(s); }

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
    const QSignalBlocker b1(one_d_), b2(two_d_);
    if (kernel_ == PanelKernel::Matmul) {
        const QSignalBlocker b3(naive_), b4(tiled_), b5(tile_box_), b6(barrier_box_);
        one_d_->setChecked(false);
        two_d_->setChecked(true);
        pages_->setCurrentIndex(1);
        const bool naive = matmul_.kernel == MatmulKernel::Naive;
        naive_->setChecked(naive);
        tiled_->setChecked(!naive);
        tile_box_->setCurrentIndex(std::max(0, tile_box_->findData(int(matmul_.tile))));
        tile_box_->setEnabled(!naive);
        barrier_box_->setChecked(!matmul_.second_barrier);
        barrier_box_->setEnabled(!naive);
        const Dim3 b = matmul_.block_shape();
        x_slider_->setValue(int(b.x));
        y_slider_->setValue(int(b.y));
        // The tiled kernel's block is TILE x TILE: the sliders show it but only TILE changes it.
        x_slider_->setEnabled(naive);
        y_slider_->setEnabled(naive);
        x_spin_->setEnabled(naive);
        y_spin_->setEnabled(naive);
        syncing_ = false;
        return;
    }
    for (QWidget* w : {static_cast<QWidget*>(x_slider_), static_cast<QWidget*>(y_slider_),
                       static_cast<QWidget*>(x_spin_), static_cast<QWidget*>(y_spin_)})
        w->setEnabled(true);
    one_d_->setChecked(shape_.kind == GridKind::OneD);
    two_d_->setChecked(shape_.kind == GridKind::TwoD);
    pages_->setCurrentIndex(shape_.kind == GridKind::OneD ? 0 : 1);
    if (shape_.kind == GridKind::OneD) {
        threads_slider_->setValue(int(shape_.block.x));
    } else {
        x_slider_->setValue(int(shape_.block.x));
        y_slider_->setValue(int(shape_.block.y));
    }
    syncing_ = false;
}

void LaunchPanel::onModeChanged() {
    if (syncing_ || kernel_ == PanelKernel::Matmul) return;
    // Switching keeps the thread count where it can: 256 threads <-> 16x16.
    if (one_d_->isChecked()) commit(LaunchShape::one_d(shape_.block.x * shape_.block.y));
    else commit(LaunchShape::two_d(16, 16));
}

void LaunchPanel::onThreadsChanged(int value) {
    if (syncing_) return;
    commit(LaunchShape::one_d(unsigned(value)));
}

// Keep x*y <= 1024: the dimension being moved wins, the other gives way.
void LaunchPanel::onXChanged(int x) {
    if (syncing_) return;
    if (kernel_ == PanelKernel::Matmul) {
        const unsigned my = std::min<unsigned>(matmul_.block.y, unsigned(kMaxThreads / x));
        commitMatmul(MatmulLaunch::naive(unsigned(x), std::max(1u, my)));
        return;
    }
    const unsigned y = std::min<unsigned>(shape_.block.y, unsigned(kMaxThreads / x));
    commit(LaunchShape::two_d(unsigned(x), std::max(1u, y)));
}

void LaunchPanel::onYChanged(int y) {
    if (syncing_) return;
    if (kernel_ == PanelKernel::Matmul) {
        const unsigned mx = std::min<unsigned>(matmul_.block.x, unsigned(kMaxThreads / y));
        commitMatmul(MatmulLaunch::naive(std::max(1u, mx), unsigned(y)));
        return;
    }
    const unsigned x = std::min<unsigned>(shape_.block.x, unsigned(kMaxThreads / y));
    commit(LaunchShape::two_d(std::max(1u, x), unsigned(y)));
}

void LaunchPanel::onPreset(int index) {
    if (index <= 0 || index > int(std::size(kPresets))) return;
    const LaunchShape& preset = kPresets[index - 1].shape;
    if (kernel_ == PanelKernel::Matmul) {
        // Matmul takes the 2-D presets as naive blocks; 1-D ones do not apply.
        if (preset.kind == GridKind::TwoD) commitMatmul(MatmulLaunch::naive(preset.block.x, preset.block.y));
        presets_->setCurrentIndex(0);
        return;
    }
    commit(preset);
    presets_->setCurrentIndex(0);
}

void LaunchPanel::showPlan(const LaunchPlan& p) {
    const QString grid = p.shape.kind == GridKind::OneD ? QStringLiteral("%1").arg(number(p.grid.x))
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
    if (p.passes > 1)
        text += tr("<tr><td>Grid-stride passes</td><td align=right>%1 (gridDim.y capped at 65535)</td></tr>").arg(p.passes);
    text += QStringLiteral("</table>");
    grayscale_stats_ = text;
    if (kernel_ == PanelKernel::Grayscale) stats_->setText(text);
}

QString LaunchPanel::planText() const { return stats_->text(); }

}  // namespace cvz
