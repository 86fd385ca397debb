#include "ui/views/overlay_legend.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

#include "ui/views/block_colors.h"

namespace cvz {

namespace {

constexpr int kSwatchWidth = 48;
constexpr int kSwatchHeight = 12;
constexpr int kGap = 6;       // between swatch and text
constexpr int kSpacing = 16;  // between items
constexpr int kRowGap = 3;

// The shader's hatch: stripes kHatchPeriod pixels wide along the diagonal.
void paint_hatch(QPainter& p, const QRect& r, const QColor& tint) {
    namespace st = overlay_style;
    const QColor light = QColor::fromRgbF(tint.redF() * st::kHatchShade, tint.greenF() * st::kHatchShade,
                                          tint.blueF() * st::kHatchShade);
    p.save();
    p.setClipRect(r);
    p.fillRect(r, st::kHatchDark);
    p.setPen(Qt::NoPen);
    p.setBrush(light);
    const int period = st::kHatchPeriod;
    for (int k = -r.height(); k < r.width() + r.height(); k += 2 * period) {
        QPainterPath band;
        const QPointF a(r.left() + k, r.bottom() + 1), b(r.left() + k + period, r.bottom() + 1);
        band.moveTo(a);
        band.lineTo(b);
        band.lineTo(b + QPointF(r.height() + 1, -r.height() - 1));
        band.lineTo(a + QPointF(r.height() + 1, -r.height() - 1));
        p.drawPath(band);
    }
    p.restore();
}

}  // namespace

OverlayLegend::OverlayLegend(QWidget* parent) : QWidget(parent) {
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void OverlayLegend::setState(const OverlayState& state) {
    state_ = state;
    updateGeometry();
    update();
}

QString OverlayLegend::colorCaption() const {
    const LaunchPlan& p = state_.plan;
    switch (state_.coloring) {
        case OverlayColoring::None: return tr("no colours: boundaries only");
        case OverlayColoring::Block:
            return p.one_d ? tr("colour = block (blockIdx.x)")
                                                  : tr("colour = block (blockIdx.y\u00B7gridDim.x + blockIdx.x)");
        case OverlayColoring::Thread:
            return tr("colour = thread 0 \u2192 %1 in its block (x fastest)")
                .arg(std::max<std::uint64_t>(1, p.threads_per_block) - 1);
        case OverlayColoring::Warp: return tr("shade = warp of 32 threads (%1 per block)").arg(p.warps_per_block);
    }
    return {};
}

QString OverlayLegend::idleCaption() const {
    const LaunchPlan& p = state_.plan;
    if (p.blocks == 0) return tr("idle threads (the guard switches them off)");
    return tr("idle: %1 of %2 threads (%3%), %4")
        .arg(QLocale().toString(qulonglong(p.idle_threads)), QLocale().toString(qulonglong(p.total_threads)))
        .arg(100.0 * p.idle_fraction(), 0, 'f', 1)
        .arg(p.one_d ? tr("i \u2265 n") : tr("c \u2265 w or r \u2265 h"));
}

QString OverlayLegend::boundaryCaption() const {
    if (!state_.linesMerged())
        return state_.coloring == OverlayColoring::Warp ? tr("block boundary (faint: warp)") : tr("block boundary");
    // Lines closer than a few device pixels would be a moire: only every group's are drawn.
    const QPoint m = state_.line_merge;
    const QString groups = state_.plan.one_d || m.y() <= 1
                               ? (m.y() <= 1 && !state_.plan.one_d ? tr("every %1 blocks across").arg(m.x())
                                                                   : tr("every %1 blocks").arg(m.x()))
                               : tr("around %1×%2 blocks").arg(m.x()).arg(m.y());
    return tr("boundary %1: closer lines merged (zoom in, or View › Zoom to Block)").arg(groups);
}

QList<OverlayLegend::Item> OverlayLegend::items() const {
    QList<Item> list;
    if (state_.enabled) {
        list << Item{Key::Colors, colorCaption()} << Item{Key::Idle, idleCaption()}
             << Item{Key::Boundary, boundaryCaption()}
             << Item{Key::Guard, tr("the guard's bound (image edge)")};
    } else {
        list << Item{Key::Colors, tr("Grid overlay off (View \u203A Grid Overlay, G)")};
    }
    if (state_.animating()) list << Item{Key::Running, tr("running on an SM")};
    list << Item{Key::Selection, tr("pinned block and pixel (click; Esc or a second click lets go)")};
    return list;
}

QStringList OverlayLegend::captions() const {
    QStringList out;
    for (const Item& item : items()) out << item.text;
    return out;
}

int OverlayLegend::layout(int width, const std::function<void(const Item&, const QRect&, const QRect&)>& place) const {
    const QFontMetrics fm = fontMetrics();
    const int row_height = std::max(fm.height(), kSwatchHeight);
    int x = 4, y = 3;
    for (const Item& item : items()) {
        const int text_width = fm.horizontalAdvance(item.text) + 4;  // slack: elidedText rounds differently
        const int item_width = kSwatchWidth + kGap + text_width;
        if (x > 4 && x + item_width > width - 4) {  // wrap
            x = 4;
            y += row_height + kRowGap;
        }
        const QRect swatch(x, y + (row_height - kSwatchHeight) / 2, kSwatchWidth, kSwatchHeight);
        const QRect text(x + kSwatchWidth + kGap, y, std::min(text_width, std::max(0, width - x - kSwatchWidth - kGap)), row_height);
        place(item, swatch, text);
        x += item_width + kSpacing;
    }
    return y + row_height + 3;
}

int OverlayLegend::heightForWidth(int width) const {
    return layout(width, [](const Item&, const QRect&, const QRect&) {});
}

// The main window's layout does not ask heightForWidth: the hint follows the current width, and a
// resize that changes the number of rows asks for a new layout.
QSize OverlayLegend::sizeHint() const { return {900, heightForWidth(width() > 50 ? width() : 900)}; }

void OverlayLegend::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (heightForWidth(width()) != height()) updateGeometry();
}
QSize OverlayLegend::minimumSizeHint() const { return {200, fontMetrics().height() + 6}; }

void OverlayLegend::paintSwatch(QPainter& p, Key key, const QRect& r) const {
    namespace st = overlay_style;
    const LaunchPlan& plan = state_.plan;
    auto line = [&](const QColor& color, int width) {
        p.fillRect(r, color_for_id(1));
        p.fillRect(QRect(r.center().x() - width / 2, r.top(), width, r.height()), color);
    };
    switch (key) {
        case Key::Colors: {
            if (!state_.enabled || state_.coloring == OverlayColoring::None) {
                p.fillRect(r, st::kBackground);
                break;
            }
            const int n = 6;
            for (int i = 0; i < n; ++i) {
                const QRect cell(r.left() + i * r.width() / n, r.top(), (i + 1) * r.width() / n - i * r.width() / n, r.height());
                QColor c;
                if (state_.coloring == OverlayColoring::Block) c = color_for_id(std::uint64_t(i));
                else if (state_.coloring == OverlayColoring::Warp)
                    c = color_for_warp(0, std::uint64_t(i) % std::max<std::uint64_t>(1, plan.warps_per_block),
                                       std::max<std::uint64_t>(1, plan.warps_per_block));
                else c = color_for_thread(std::uint64_t(i), n);
                p.fillRect(cell, c);
            }
            if (state_.coloring == OverlayColoring::Thread)  // a ramp, not steps
                for (int x = 0; x < r.width(); ++x)
                    p.fillRect(QRect(r.left() + x, r.top(), 1, r.height()), color_for_thread(std::uint64_t(x), std::uint64_t(r.width())));
            break;
        }
        case Key::Idle:
            paint_hatch(p, r, state_.coloring == OverlayColoring::None ? QColor::fromRgbF(0.6f, 0.6f, 0.6f) : color_for_id(0));
            break;
        case Key::Boundary: line(st::kBoundary, 1); break;
        case Key::Guard: line(st::kGuard, 2); break;
        case Key::Running: line(st::kRunning, 2); break;
        case Key::Selection: line(st::kSelection, 2); break;
    }
}

void OverlayLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().color(QPalette::WindowText));
    layout(width(), [&](const Item& item, const QRect& swatch, const QRect& text) {
        paintSwatch(p, item.key, swatch);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, p.fontMetrics().elidedText(item.text, Qt::ElideRight, text.width()));
    });
}

}  // namespace cvz
