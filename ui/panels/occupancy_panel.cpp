#include "ui/panels/occupancy_panel.h"

#include <climits>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSettings>
#include <QValueAxis>
#include <QVBoxLayout>

namespace cvz {

OccupancyPanel::OccupancyPanel(QWidget* parent) : QWidget(parent) {
    if (auto real = cuda_device_profile(0)) {
        real->name += tr(" (this GPU)");
        profiles_ << *real;
    }
    profiles_ << builtin_device_profiles();

    auto* v = new QVBoxLayout(this);
    devices_ = new QComboBox(this);
    for (const DeviceProfile& p : profiles_)
        devices_->addItem(QStringLiteral("%1 · %2 SMs · cc %3").arg(p.name).arg(p.sm_count).arg(p.compute_capability()));
    devices_->setToolTip(profiles_.first().measured ? tr("The first entry is this machine's GPU, as the CUDA runtime reports it")
                                                    : tr("No CUDA device here: occupancy is modelled from the chosen profile"));
    const int saved = QSettings().value(QStringLiteral("occupancy/profile"), 0).toInt();
    devices_->setCurrentIndex(profiles_.first().measured ? 0 : qBound(0, saved, int(profiles_.size()) - 1));
    v->addWidget(devices_);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("occupancySummary"));
    summary_->setToolTip(tr("Occupancy: the share of an SM's warp slots that resident warps fill. Each SM holds as "
                            "many blocks as its warps, block slots, registers and shared memory allow; the "
                            "smallest of these is the limit."));
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    v->addWidget(summary_);

    series_ = new QLineSeries;
    series_->setName(tr("occupancy"));
    current_ = new QScatterSeries;
    current_->setName(tr("this block"));
    current_->setMarkerSize(11);
    chart_ = new QChart;
    chart_->addSeries(series_);
    chart_->addSeries(current_);
    chart_->legend()->hide();
    chart_->setMargins(QMargins(2, 2, 2, 2));
    auto* ax = new QValueAxis;
    ax->setRange(0, 1024);
    ax->setTickCount(5);
    ax->setLabelFormat(QStringLiteral("%d"));
    ax->setTitleText(tr("threads per block"));
    auto* ay = new QValueAxis;
    ay->setRange(0, 100);
    ay->setTickCount(6);
    ay->setLabelFormat(QStringLiteral("%d%%"));
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    for (QXYSeries* s : {static_cast<QXYSeries*>(series_), static_cast<QXYSeries*>(current_)}) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    view_ = new QChartView(chart_, this);
    view_->setToolTip(tr("Occupancy for every block size of this kernel on this GPU; the dot is the current block"));
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumHeight(180);  // the axis labels need it; the dock scrolls
    v->addWidget(view_, 1);

    connect(devices_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        QSettings().setValue(QStringLiteral("occupancy/profile"), i);
        refresh();
        emit profileChanged(profile());
    });
    refresh();
}

DeviceProfile OccupancyPanel::profile() const { return profiles_.value(devices_->currentIndex(), profiles_.first()); }

void OccupancyPanel::setBlock(const BlockResources& block) {
    block_ = block;
    refresh();
}

QList<QPointF> OccupancyPanel::curve() const {
    QList<QPointF> points;
    const DeviceProfile d = profile();
    for (int t = 32; t <= 1024; t += 32) {
        BlockResources b = block_;
        b.threads = t;
        const Occupancy o = compute_occupancy(d, b);
        points << QPointF(t, 100.0 * o.occupancy);
    }
    return points;
}

void OccupancyPanel::refresh() {
    const DeviceProfile d = profile();
    occupancy_ = compute_occupancy(d, block_);
    series_->replace(curve());
    current_->replace(QList<QPointF>{QPointF(block_.threads, 100.0 * occupancy_.occupancy)});
    summary_->setText(summaryText());
}

QString OccupancyPanel::summaryText() const {
    const DeviceProfile d = profile();
    const Occupancy& o = occupancy_;
    if (!o.error.isEmpty()) return QStringLiteral("<b>%1</b>").arg(o.error.toHtmlEscaped());
    auto limit = [](int blocks) { return blocks == INT_MAX ? tr("no limit") : QString::number(blocks); };
    return tr("<table>"
              "<tr><td>Blocks per SM</td><td align=right><b>%1</b></td></tr>"
              "<tr><td>Active warps</td><td align=right>%2 of %3</td></tr>"
              "<tr><td>Occupancy</td><td align=right><b>%4%</b></td></tr>"
              "<tr><td>Limited by</td><td align=right>%5</td></tr></table>"
              "<p><small>How many of these blocks one SM can hold, by each of its limits (the smallest wins):"
              "<br>by its warps: %6 · by its block slots: %7<br>by its registers: %8 (%10 per thread)"
              "<br>by its shared memory: %9 (%11 bytes per block)</small></p>")
        .arg(o.blocks_per_sm)
        .arg(o.active_warps)
        .arg(d.max_warps_per_sm())
        .arg(QString::number(100.0 * o.occupancy, 'f', 1), to_string(o.limit))
        .arg(limit(o.blocks_by_warps), limit(o.blocks_by_blocks), limit(o.blocks_by_registers), limit(o.blocks_by_shared))
        .arg(block_.regs_per_thread)
        .arg(block_.shared_bytes);
}

}  // namespace cvz
