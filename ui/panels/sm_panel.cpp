#include "app/jobs/counted.h"
#include "ui/panels/sm_panel.h"

#include <QPainter>
#include <QPaintEvent>

#include <cmath>

#include "ui/views/block_colors.h"

namespace cvz {

SmPanel::SmPanel(QWidget* parent) : QWidget(parent) { setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding); }

void SmPanel::setPlan(const WavePlan& plan) {
    plan_ = plan;
    wave_ = std::min(wave_, plan_.waves);
    update();
}

void SmPanel::setWave(std::uint64_t wave) {
    wave_ = std::min(wave, plan_.waves);
    update();
}

void SmPanel::setHighlightBlock(std::int64_t block) {
    if (block == highlight_) return;
    highlight_ = block;
    update();
}

QString SmPanel::caption() const {
    if (plan_.blocks == 0) return tr("No launch");
    if (wave_ >= plan_.waves)
        return tr("All %1 done in %2").arg(counted(plan_.blocks, tr("block"), tr("blocks")), counted(plan_.waves, tr("wave"), tr("waves")));
    const std::uint64_t first = plan_.wave_first_block(wave_), end = plan_.wave_end_block(wave_);
    const QString blocks = end - first == 1 ? tr("block %1").arg(first) : tr("blocks %1–%2").arg(first).arg(end - 1);
    QString text = tr("Wave %1 of %2: %3 on %4 × %5")
                       .arg(wave_ + 1)
                       .arg(plan_.waves)
                       .arg(blocks, counted(qulonglong(plan_.sm_count), tr("SM"), tr("SMs")),
                            counted(qulonglong(plan_.blocks_per_sm), tr("slot"), tr("slots")));
    if (wave_ + 1 == plan_.waves && plan_.tail_fill < 1.0)
        text += tr(" — the tail: %1% of the slots busy").arg(QString::number(100.0 * plan_.tail_fill, 'f', 0));
    return text;
}

void SmPanel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (plan_.blocks == 0 || plan_.sm_count == 0) return;
    const QRect area = rect().adjusted(4, 4, -4, -4);
    // Lay out SMs in a near-square grid whose cells are wide enough for the slots.
    const int sms = plan_.sm_count;
    const int cols = std::max(1, int(std::ceil(std::sqrt(double(sms) * area.width() / std::max(1, area.height())))));
    const int rows = (sms + cols - 1) / cols;
    const double cw = double(area.width()) / cols, ch = double(area.height()) / rows;
    const int slot_count = plan_.blocks_per_sm;
    const int slot_cols = std::max(1, int(std::ceil(std::sqrt(double(slot_count)))));
    const int slot_rows = (slot_count + slot_cols - 1) / slot_cols;
    const bool tail = wave_ + 1 == plan_.waves && plan_.tail_fill < 1.0;
    const bool done = wave_ >= plan_.waves;
    const std::uint64_t first = done ? plan_.blocks : plan_.wave_first_block(wave_);
    const std::uint64_t end = done ? plan_.blocks : plan_.wave_end_block(wave_);

    for (int sm = 0; sm < sms; ++sm) {
        const QRectF box(area.left() + (sm % cols) * cw, area.top() + (sm / cols) * ch, cw - 2, ch - 2);
        p.setPen(tail ? QColor(200, 60, 40) : palette().color(QPalette::Mid));
        p.setBrush(palette().base());
        p.drawRect(box);
        const QRectF inner = box.adjusted(2, 2, -2, -2);
        const double sw = inner.width() / slot_cols, sh = inner.height() / slot_rows;
        for (int s = 0; s < slot_count; ++s) {
            const QRectF cell(inner.left() + (s % slot_cols) * sw, inner.top() + (s / slot_cols) * sh, sw - 1, sh - 1);
            // Slot s of SM sm holds block first + s * sms + sm in this wave (round-robin dispatch).
            const std::uint64_t block = first + std::uint64_t(s) * sms + std::uint64_t(sm);
            if (block < end) p.fillRect(cell, color_for_id(block));
            else p.fillRect(cell, QBrush(palette().color(QPalette::Midlight), Qt::BDiagPattern));
            if (block < end && std::int64_t(block) == highlight_) {
                p.setPen(QPen(QColor(0xff, 0xd4, 0x00), 2));  // overlay_style::kSelection
                p.setBrush(Qt::NoBrush);
                p.drawRect(cell.adjusted(1, 1, -1, -1));
            }
        }
    }
}

}  // namespace cvz
