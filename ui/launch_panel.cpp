#include "launch_panel.h"

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
#include <QVBoxLayout>

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

    presets_ = new QComboBox(this);
    presets_->addItem(tr("Presets…"));
    for (const Preset& p : kPresets) presets_->addItem(QString::fromUtf8(p.label));
    v->addWidget(presets_);

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
}

void LaunchPanel::setShape(const LaunchShape& s) { commit(s); }

void LaunchPanel::commit(const LaunchShape& s) {
    const bool changed = s.kind != shape_.kind || !(s.block == shape_.block);
    shape_ = s;
    syncControls();
    if (changed) emit shapeChanged(shape_);
}

void LaunchPanel::syncControls() {
    syncing_ = true;
    const QSignalBlocker b1(one_d_), b2(two_d_);
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
    if (syncing_) return;
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
    const unsigned y = std::min<unsigned>(shape_.block.y, unsigned(kMaxThreads / x));
    commit(LaunchShape::two_d(unsigned(x), std::max(1u, y)));
}

void LaunchPanel::onYChanged(int y) {
    if (syncing_) return;
    const unsigned x = std::min<unsigned>(shape_.block.x, unsigned(kMaxThreads / y));
    commit(LaunchShape::two_d(std::max(1u, x), unsigned(y)));
}

void LaunchPanel::onPreset(int index) {
    if (index <= 0 || index > int(std::size(kPresets))) return;
    commit(kPresets[index - 1].shape);
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
    stats_->setText(text);
}

QString LaunchPanel::planText() const { return stats_->text(); }

}  // namespace cvz
