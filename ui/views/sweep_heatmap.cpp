#include "ui/views/sweep_heatmap.h"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace cvz {

namespace {

constexpr int kLeft = 64;    // room for blockDim.y and its values
constexpr int kTop = 38;     // room for blockDim.x and its values
constexpr int kRight = 6;
constexpr int kBottom = 40;  // the legend
constexpr unsigned kMaxThreads = 1024;

int log2_exact(unsigned v) {
    int n = 0;
    while (v > 1) {
        if (v & 1u) return -1;
        v >>= 1;
        ++n;
    }
    return v == 1 ? n : -1;
}

QColor lerp(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QColor text_color_on(const QColor& fill) {
    const double luma = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luma > 0.55 ? QColor(20, 20, 20) : QColor(250, 250, 250);
}

// Three significant digits or so, never scientific notation: 0.00312, 0.0512, 0.512, 5.12, 51.2, 512.
QString format_ms(double ms) {
    if (ms < 0.01) return QString::number(ms, 'f', 5);
    if (ms < 0.1) return QString::number(ms, 'f', 4);
    if (ms < 1) return QString::number(ms, 'f', 3);
    if (ms < 10) return QString::number(ms, 'f', 2);
    if (ms < 100) return QString::number(ms, 'f', 1);
    return QString::number(ms, 'f', 0);
}

QString percent(double fraction) { return QStringLiteral("%1%").arg(qRound(100 * fraction)); }

}  // namespace

SweepHeatmap::SweepHeatmap(QWidget* parent) : QWidget(parent) {
    cells_.fill(-1);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

QColor SweepHeatmap::invalidColor() { return QColor(0xd6, 0xd6, 0xd6); }
QColor SweepHeatmap::pendingColor() { return QColor(0xf3, 0xf4, 0xf6); }
QColor SweepHeatmap::failedColor() { return QColor(0x55, 0x3a, 0x5e); }
QColor SweepHeatmap::bestOutlineColor() { return QColor(0x00, 0x4c, 0xff); }

QColor SweepHeatmap::rampColor(double t) {
    // ColorBrewer RdYlGn, reversed: good is green, bad is red.
    static const QColor good(0x1a, 0x98, 0x50), middle(0xfe, 0xe0, 0x8b), bad(0xd7, 0x30, 0x27);
    t = std::clamp(t, 0.0, 1.0);
    return t < 0.5 ? lerp(good, middle, t * 2) : lerp(middle, bad, (t - 0.5) * 2);
}

void SweepHeatmap::setResult(const SweepResult& result) {
    result_ = result;
    hovered_ = -1;
    rebuildIndex();
    rescale();
    update();
}

void SweepHeatmap::updateRow(int index, const SweepRow& row) {
    if (index < 0 || std::size_t(index) >= result_.rows.size()) return;
    result_.rows[std::size_t(index)] = row;
    rescale();
    update();
}

void SweepHeatmap::rebuildIndex() {
    cells_.fill(-1);
    for (std::size_t i = 0; i < result_.rows.size(); ++i) {
        const SweepRow& r = result_.rows[i];
        if (!r.in_heatmap()) continue;
        const int c = log2_exact(r.choice.block.x), rr = log2_exact(r.choice.block.y);
        if (c >= 0 && c < kSides && rr >= 0 && rr < kSides) cells_[std::size_t(c + rr * kSides)] = int(i);
    }
}

// The time scale and the outline come from the heatmap's own cells, so that the colours span them.
namespace {
double predicted_ms(const SweepRow& r) {
    return r.prediction.ok() && r.prediction.total_us > 0 ? r.prediction.total_us / 1e3 : 0.0;
}
}  // namespace

void SweepHeatmap::rescale() {
    min_ms_ = max_ms_ = 0;
    outlined_ = -1;
    const bool predicted = colorMode() == ColorMode::Predicted;
    for (int idx : cells_) {
        if (idx < 0) continue;
        const SweepRow& r = result_.rows[std::size_t(idx)];
        const double ms = predicted ? predicted_ms(r) : r.state == SweepRowState::Timed ? r.median_ms : 0.0;
        if (ms <= 0) continue;
        if (outlined_ < 0 || ms < min_ms_) {
            min_ms_ = ms;
            outlined_ = idx;
        }
        max_ms_ = std::max(max_ms_, ms);
    }
}

SweepHeatmap::ColorMode SweepHeatmap::colorMode() const {
    bool predicted = false;
    for (int idx : cells_) {
        if (idx < 0) continue;
        const SweepRow& r = result_.rows[std::size_t(idx)];
        if (r.state != SweepRowState::NotTimed) return ColorMode::Time;
        predicted = predicted || predicted_ms(r) > 0;
    }
    return predicted ? ColorMode::Predicted : ColorMode::Occupancy;
}

int SweepHeatmap::outlinedRow() const { return outlined_; }

QRect SweepHeatmap::gridRect() const {
    const int cw = std::max(1, (width() - kLeft - kRight) / kSides);
    const int ch = std::max(1, (height() - kTop - kBottom) / kSides);
    return QRect(kLeft, kTop, cw * kSides, ch * kSides);
}

QRect SweepHeatmap::cellRect(unsigned block_x, unsigned block_y) const {
    const int c = log2_exact(block_x), r = log2_exact(block_y);
    if (c < 0 || r < 0 || c >= kSides || r >= kSides) return {};
    const QRect g = gridRect();
    const int cw = g.width() / kSides, ch = g.height() / kSides;
    return QRect(g.left() + c * cw, g.top() + r * ch, cw, ch);
}

int SweepHeatmap::cellIndex(int column, int row) const {
    if (column < 0 || row < 0 || column >= kSides || row >= kSides) return -1;
    return cells_[std::size_t(column + row * kSides)];
}

int SweepHeatmap::rowAt(const QPoint& pos) const {
    const QRect g = gridRect();
    if (!g.contains(pos)) return -1;
    const int c = (pos.x() - g.left()) / (g.width() / kSides), r = (pos.y() - g.top()) / (g.height() / kSides);
    if ((1u << c) * (1u << r) > kMaxThreads) return -1;
    return cellIndex(c, r);
}

QColor SweepHeatmap::cellColor(unsigned block_x, unsigned block_y) const {
    const int c = log2_exact(block_x), r = log2_exact(block_y);
    if (c < 0 || r < 0 || c >= kSides || r >= kSides) return {};
    if (std::uint64_t(block_x) * block_y > kMaxThreads) return invalidColor();
    const int idx = cellIndex(c, r);
    if (idx < 0) return pendingColor();
    const SweepRow& row = result_.rows[std::size_t(idx)];
    if (colorMode() == ColorMode::Time) {
        if (row.state == SweepRowState::Failed) return failedColor();
        if (row.state != SweepRowState::Timed) return pendingColor();
        const double span = std::log(max_ms_ / min_ms_);
        return rampColor(span > 0 ? std::log(row.median_ms / min_ms_) / span : 0.0);
    }
    if (colorMode() == ColorMode::Predicted) {
        if (predicted_ms(row) <= 0) return pendingColor();
        const double span = std::log(max_ms_ / min_ms_);
        return rampColor(span > 0 ? std::log(predicted_ms(row) / min_ms_) / span : 0.0);
    }
    if (row.occupancy.blocks_per_sm <= 0) return failedColor();
    return rampColor(1.0 - row.occupancy.occupancy);
}

QSize SweepHeatmap::sizeHint() const { return QSize(kLeft + kRight + kSides * 62, kTop + kBottom + kSides * 38); }
QSize SweepHeatmap::minimumSizeHint() const { return QSize(kLeft + kRight + kSides * 40, kTop + kBottom + kSides * 26); }

void SweepHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect g = gridRect();
    const int cw = g.width() / kSides, ch = g.height() / kSides;
    const ColorMode mode = colorMode();
    const QColor ink = palette().windowText().color();

    // Axes: blockDim.x across the top, blockDim.y down the left.
    QFont small = font();
    small.setPixelSize(std::clamp(ch / 3, 9, 12));
    QFont bold = small;
    bold.setBold(true);
    p.setPen(ink);
    p.setFont(bold);
    p.drawText(QRect(g.left(), 0, g.width(), kTop / 2), Qt::AlignCenter, tr("blockDim.x →"));
    p.save();
    p.translate(12, g.center().y());
    p.rotate(-90);
    p.drawText(QRect(-g.height() / 2, -10, g.height(), 20), Qt::AlignCenter, tr("blockDim.y"));
    p.restore();
    p.setFont(small);
    for (int i = 0; i < kSides; ++i) {
        const QString v = QString::number(1u << i);
        p.drawText(QRect(g.left() + i * cw, kTop / 2, cw, kTop / 2 - 2), Qt::AlignCenter, v);
        p.drawText(QRect(22, g.top() + i * ch, kLeft - 26, ch), Qt::AlignRight | Qt::AlignVCenter, v);
    }

    // Cells.
    for (int r = 0; r < kSides; ++r) {
        for (int c = 0; c < kSides; ++c) {
            const unsigned bx = 1u << c, by = 1u << r;
            const QRect cell(g.left() + c * cw, g.top() + r * ch, cw, ch);
            const QColor fill = cellColor(bx, by);
            p.fillRect(cell.adjusted(0, 0, -1, -1), fill);
            const int idx = cellIndex(c, r);
            if (std::uint64_t(bx) * by > kMaxThreads || idx < 0) continue;
            const SweepRow& row = result_.rows[std::size_t(idx)];
            QString top, bottom;
            if (mode == ColorMode::Time) {
                top = row.state == SweepRowState::Timed    ? format_ms(row.median_ms)
                      : row.state == SweepRowState::Failed ? tr("error")
                                                           : QStringLiteral("·");
                bottom = row.occupancy.blocks_per_sm > 0 ? percent(row.occupancy.occupancy) : tr("none");
            } else if (mode == ColorMode::Predicted) {
                top = predicted_ms(row) > 0 ? format_ms(predicted_ms(row)) : QStringLiteral("·");
                bottom = row.occupancy.blocks_per_sm > 0 ? percent(row.occupancy.occupancy) : tr("none");
            } else {
                top = row.occupancy.blocks_per_sm > 0 ? percent(row.occupancy.occupancy) : tr("none");
                bottom = tr("%1/SM").arg(row.occupancy.blocks_per_sm);
            }
            const QColor text = text_color_on(fill);
            p.setPen(text);
            p.setFont(row.state == SweepRowState::Timed || mode != ColorMode::Time ? bold : small);
            p.drawText(cell.adjusted(1, 1, -1, -ch / 2), Qt::AlignHCenter | Qt::AlignBottom, top);
            QColor faint = text;
            faint.setAlphaF(0.75f);
            p.setPen(faint);
            p.setFont(small);
            p.drawText(cell.adjusted(1, ch / 2, -1, -1), Qt::AlignHCenter | Qt::AlignTop, bottom);
        }
    }

    if (hovered_ >= 0) {
        const SweepRow& h = result_.rows[std::size_t(hovered_)];
        p.setPen(QPen(ink, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(h.choice.block.x, h.choice.block.y).adjusted(0, 0, -2, -2));
    }
    if (outlined_ >= 0) {
        const SweepRow& b = result_.rows[std::size_t(outlined_)];
        p.setPen(QPen(bestOutlineColor(), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(b.choice.block.x, b.choice.block.y).adjusted(1, 1, -2, -2));
    }

    // Legend: the ramp, what its ends mean, the grey and the outline.
    const int ly = g.bottom() + 12;
    const QRect bar(g.left() + 44, ly, 160, 12);
    QLinearGradient grad(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 10; ++i) grad.setColorAt(i / 10.0, rampColor(i / 10.0));
    p.setPen(ink);
    p.setFont(small);
    const bool timed = mode != ColorMode::Occupancy && outlined_ >= 0;
    p.drawText(QRect(g.left(), ly - 2, 40, 16), Qt::AlignRight | Qt::AlignVCenter,
               timed ? tr("fast") : tr("100%"));
    p.fillRect(bar, grad);
    QString right = !timed ? tr("0%   modeled occupancy")
                    : mode == ColorMode::Time
                        ? tr("slow   %1 – %2 ms, log scale").arg(format_ms(min_ms_), format_ms(max_ms_))
                        : tr("slow   %1 – %2 ms").arg(format_ms(min_ms_), format_ms(max_ms_));  // the note says predicted
    const QRect after(bar.right() + 6, ly - 2, g.right() - bar.right() - 6, 16);
    p.drawText(after, Qt::AlignLeft | Qt::AlignVCenter, right);
    const QFontMetrics fm(small);
    int x = bar.right() + 12 + fm.horizontalAdvance(right) + 10;
    if (timed) {
        p.setPen(QPen(bestOutlineColor(), 3));
        p.drawRect(QRect(x, ly, 16, 12));
        p.setPen(ink);
        const QString t = mode == ColorMode::Time ? tr("fastest 2-D") : tr("fastest");
        p.drawText(QRect(x + 20, ly - 2, fm.horizontalAdvance(t) + 4, 16), Qt::AlignLeft | Qt::AlignVCenter, t);
        x += 20 + fm.horizontalAdvance(t) + 12;
    }
    p.fillRect(QRect(x, ly, 16, 12), invalidColor());
    p.drawText(QRect(x + 20, ly - 2, width() - x - 20, 16), Qt::AlignLeft | Qt::AlignVCenter, tr("> 1024 threads"));
}

QString SweepHeatmap::cellTooltip(int index) const {
    const SweepRow& r = result_.rows[std::size_t(index)];
    QString text = QStringLiteral("<b>%1</b> · %2 threads").arg(r.label().toHtmlEscaped()).arg(r.choice.block.volume());
    if (r.state == SweepRowState::Timed)
        text += tr("<br>median %1 ms · %2 %3 (%4 launches)")
                    .arg(format_ms(r.median_ms), QString::number(r.throughput, 'f', 1), result_.throughputUnit())
                    .arg(r.launches);
    else if (r.state == SweepRowState::Failed)
        text += tr("<br>error: %1").arg(r.error.toHtmlEscaped());
    if (predicted_ms(r) > 0)
        text += tr("<br>predicted %1 ms on %2: %3")
                    .arg(format_ms(predicted_ms(r)), r.prediction.profile.toHtmlEscaped(),
                         r.prediction.summary().toHtmlEscaped());
    if (r.occupancy.blocks_per_sm > 0)
        text += tr("<br>modeled occupancy %1 (%2 blocks per SM, limited by %3)")
                    .arg(percent(r.occupancy.occupancy))
                    .arg(r.occupancy.blocks_per_sm)
                    .arg(to_string(r.occupancy.limit));
    else
        text += tr("<br>%1").arg(r.occupancy.error.toHtmlEscaped());
    if (index == outlined_)
        text += colorMode() == ColorMode::Time ? tr("<br><b>fastest 2-D block</b>") : tr("<br><b>fastest predicted 2-D block</b>");
    return text + tr("<br><i>click to use this block</i>");
}

bool SweepHeatmap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int idx = rowAt(help->pos());
        if (idx >= 0) {
            QToolTip::showText(help->globalPos(), cellTooltip(idx), this);
        } else {
            const QRect g = gridRect();
            if (g.contains(help->pos()))
                QToolTip::showText(help->globalPos(), tr("more than 1024 threads per block: CUDA refuses the launch"), this);
            else
                QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

void SweepHeatmap::mouseMoveEvent(QMouseEvent* e) {
    const int idx = rowAt(e->position().toPoint());
    if (idx != hovered_) {
        hovered_ = idx;
        setCursor(idx >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void SweepHeatmap::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const int idx = rowAt(e->position().toPoint());
    if (idx >= 0) emit cellClicked(idx);
}

void SweepHeatmap::leaveEvent(QEvent*) {
    if (hovered_ < 0) return;
    hovered_ = -1;
    update();
}

}  // namespace cvz
