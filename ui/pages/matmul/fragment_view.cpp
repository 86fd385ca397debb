#include "ui/pages/matmul/fragment_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "ui/views/block_colors.h"

namespace cvz {

namespace {

constexpr double kMargin = 6, kGap = 18;
constexpr double kMaxCellW = 72, kMaxCellH = 40;

QColor faded(const QColor& c) {
    return QColor::fromRgbF(float(c.redF() * 0.25 + 0.75), float(c.greenF() * 0.25 + 0.75), float(c.blueF() * 0.25 + 0.75));
}

QColor text_on(const QColor& fill) {
    const double luma = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luma > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

// The grid's title, longest first: the view draws the first that fits.
QStringList operand_titles(MmaOperand op) {
    switch (op) {
    case MmaOperand::A: return {FragmentView::tr("A · 16 × 8 (M × K) · a0–a3"), FragmentView::tr("A · 16 × 8"), QStringLiteral("A")};
    case MmaOperand::B: return {FragmentView::tr("B · 8 × 8 (K × N) · b0, b1"), FragmentView::tr("B · 8 × 8"), QStringLiteral("B")};
    case MmaOperand::C: break;
    }
    return {FragmentView::tr("C · 16 × 8 (M × N) · c0–c3"), FragmentView::tr("C · 16 × 8"), QStringLiteral("C")};
}

}  // namespace

FragmentView::FragmentView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("fragmentView"));
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    for (MmaOperand op : {MmaOperand::A, MmaOperand::B, MmaOperand::C}) {
        Grid& g = grids_[int(op)];
        g.operand = op;
        g.rows = mma_tile_rows(op);
        g.cols = mma_tile_cols(op);
        g.cells.assign(std::size_t(g.rows) * g.cols, FragmentElement{});
        // Placed from the layout itself: every element where its row and column say.
        for (const FragmentElement& e : mma_fragment_layout(op)) g.cells[std::size_t(e.row) * g.cols + e.col] = e;
    }
    relayout();
}

std::optional<FragmentElement> FragmentView::elementAt(MmaOperand operand, unsigned row, unsigned col) const {
    const Grid& g = grid(operand);
    if (row >= g.rows || col >= g.cols) return std::nullopt;
    return g.cells[std::size_t(row) * g.cols + col];
}

QString FragmentView::registerName(MmaOperand operand, unsigned reg) {
    const char letter = operand == MmaOperand::A ? 'a' : operand == MmaOperand::B ? 'b' : 'c';
    return QStringLiteral("%1%2").arg(QLatin1Char(letter)).arg(reg);
}

QString FragmentView::cellText(MmaOperand operand, unsigned row, unsigned col) const {
    const std::optional<FragmentElement> e = elementAt(operand, row, col);
    if (!e) return {};
    return QStringLiteral("%1 %2").arg(e->lane).arg(registerName(operand, e->reg));
}

QString FragmentView::laneSummary(unsigned lane) {
    QStringList parts;
    for (MmaOperand op : {MmaOperand::A, MmaOperand::B, MmaOperand::C}) {
        QStringList regs;
        for (const FragmentElement& e : mma_fragment_layout(op))
            if (e.lane == lane) regs << QStringLiteral("%1 (%2, %3)").arg(registerName(op, e.reg)).arg(e.row).arg(e.col);
        parts << tr("%1: %2").arg(QLatin1String(to_string(op)), regs.join(QStringLiteral(" ")));
    }
    return tr("lane %1 (groupID %2, threadID_in_group %3) holds %4").arg(lane).arg(lane / 4).arg(lane % 4)
        .arg(parts.join(QStringLiteral(" · ")));
}

QColor FragmentView::laneColor(int lane) { return color_for_thread(std::uint64_t(std::max(lane, 0)), 32); }

QRectF FragmentView::gridRect(MmaOperand operand) const { return grid(operand).rect; }

QRectF FragmentView::cellRect(MmaOperand operand, unsigned row, unsigned col) const {
    const Grid& g = grid(operand);
    if (row >= g.rows || col >= g.cols) return {};
    return QRectF(g.rect.left() + col * cell_w_, g.rect.top() + row * cell_h_, cell_w_, cell_h_);
}

std::optional<FragmentView::Hit> FragmentView::hitTest(QPointF pos) const {
    ensureLayout();
    for (const Grid& g : grids_) {
        if (!g.rect.contains(pos) || cell_w_ <= 0 || cell_h_ <= 0) continue;
        const auto col = unsigned((pos.x() - g.rect.left()) / cell_w_), row = unsigned((pos.y() - g.rect.top()) / cell_h_);
        if (const std::optional<FragmentElement> e = elementAt(g.operand, row, col)) return Hit{g.operand, *e};
    }
    return std::nullopt;
}

FragmentView::TextMode FragmentView::cellTextMode() const {
    ensureLayout();
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.8);
    const QFontMetricsF fm(font()), sm(small);
    const QString lane = QStringLiteral("31"), both = QStringLiteral("31 a2");
    if (cell_h_ >= 2 * fm.height() && cell_w_ >= fm.horizontalAdvance(lane) + 4) return TextMode::TwoLines;
    if (cell_w_ >= fm.horizontalAdvance(both) + 4 && cell_h_ >= fm.height() - 2) return TextMode::OneLine;
    if (cell_h_ >= 2 * sm.ascent() + 2 && cell_w_ >= sm.horizontalAdvance(lane) + 2) return TextMode::TwoLinesSmall;
    if (cell_w_ >= sm.horizontalAdvance(both) + 2 && cell_h_ >= sm.height() - 2) return TextMode::OneLineSmall;
    if (cell_w_ >= fm.horizontalAdvance(lane) + 2 && cell_h_ >= fm.height() - 2) return TextMode::LaneOnly;
    return TextMode::None;
}

bool FragmentView::cellsLabelled() const { return cellTextMode() != TextMode::None; }

void FragmentView::setHoveredLane(int lane) {
    lane = lane < 0 || lane > 31 ? -1 : lane;
    if (lane == hovered_lane_) return;
    hovered_lane_ = lane;
    update();
    emit laneHovered(lane);
}

void FragmentView::setSelectedLane(int lane) {
    lane = lane < 0 || lane > 31 ? -1 : lane;
    if (lane == selected_lane_) return;
    selected_lane_ = lane;
    update();
    emit laneSelected(lane);
}

void FragmentView::setSelectedC(std::optional<FragmentElement> element) {
    const bool same = element.has_value() == selected_c_.has_value() &&
                      (!element || (element->row == selected_c_->row && element->col == selected_c_->col));
    selected_c_ = element;
    if (!same) update();
    if (element) setSelectedLane(int(element->lane));
}

QSize FragmentView::sizeHint() const {
    const QFontMetrics fm(font());
    return QSize(24 * fm.horizontalAdvance(QStringLiteral("31 a2")) + 120, 18 * (fm.height() + 4) + 40);
}

// Small enough for a 1024 x 700 window with every dock open; the cells then lose their text first.
QSize FragmentView::minimumSizeHint() const { return QSize(220, 150); }

void FragmentView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void FragmentView::ensureLayout() const {
    if (laid_out_ != size()) const_cast<FragmentView*>(this)->relayout();
}

void FragmentView::relayout() {
    laid_out_ = size();
    const QFontMetricsF fm(font());
    const double title_h = fm.height() + 2, header_h = fm.height(), label_w = fm.horizontalAdvance(QStringLiteral("15")) + 6;
    const double w = width() - 2 * kMargin, h = height() - 2 * kMargin;
    // Cells no taller than they are wide and no wider than a label needs: the larger of the two arrangements.
    auto fit = [](double cw, double ch) {
        cw = std::clamp(cw, 0.0, kMaxCellW);
        ch = std::clamp(ch, 0.0, kMaxCellH);
        cw = std::min(cw, std::max(ch * 2.6, 1.0));
        ch = std::min(ch, cw);
        return std::pair{cw, ch};
    };
    const auto [sw, sh] = fit((w - 3 * label_w - 2 * kGap) / 24, (h - title_h - header_h) / 16);
    const auto [cw, ch] = fit((w - 2 * label_w - kGap) / 16, (h - 2 * (title_h + header_h) - kGap) / 24);
    side_by_side_ = sw * sh >= cw * ch;
    cell_w_ = std::floor(side_by_side_ ? sw : cw);
    cell_h_ = std::floor(side_by_side_ ? sh : ch);
    const double top = kMargin + title_h + header_h;
    if (side_by_side_) {
        const double total = 3 * label_w + 2 * kGap + 24 * cell_w_;
        double x = kMargin + std::max(0.0, (w - total) / 2) + label_w;
        for (MmaOperand op : {MmaOperand::A, MmaOperand::B, MmaOperand::C}) {
            Grid& g = grids_[int(op)];
            g.rect = QRectF(x, top, g.cols * cell_w_, g.rows * cell_h_);
            x = g.rect.right() + kGap + label_w;
        }
    } else {
        const double total = 2 * label_w + kGap + 16 * cell_w_;
        const double left = kMargin + std::max(0.0, (w - total) / 2) + label_w;
        const double right = left + 8 * cell_w_ + kGap + label_w;
        Grid& b = grids_[int(MmaOperand::B)];
        b.rect = QRectF(right, top, 8 * cell_w_, 8 * cell_h_);
        const double lower = b.rect.bottom() + kGap + title_h + header_h;
        grids_[int(MmaOperand::C)].rect = QRectF(right, lower, 8 * cell_w_, 16 * cell_h_);
        grids_[int(MmaOperand::A)].rect = QRectF(left, lower, 8 * cell_w_, 16 * cell_h_);
    }
    update();
}

void FragmentView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const Grid& g : grids_) paintGrid(p, g);
}

void FragmentView::paintGrid(QPainter& p, const Grid& g) const {
    const QFontMetricsF fm(font());
    const double label_w = fm.horizontalAdvance(QStringLiteral("15")) + 6;
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    const QRectF title(g.rect.left() - label_w, g.rect.top() - fm.height() * 2 - 2, g.rect.width() + label_w,
                       fm.height());
    const QStringList titles = operand_titles(g.operand);
    QString shown = titles.last();
    for (const QString& t : titles)
        if (QFontMetricsF(bold).horizontalAdvance(t) <= title.width() + kGap - 4) {
            shown = t;
            break;
        }
    p.drawText(QRectF(title.left(), title.top(), title.width() + kGap - 4, title.height()), Qt::AlignLeft | Qt::AlignVCenter, shown);
    p.setFont(font());
    // Column numbers above, row numbers to the left, where they fit.
    p.setPen(palette().color(QPalette::PlaceholderText));
    const bool col_numbers = cell_w_ >= fm.horizontalAdvance(QStringLiteral("7")) + 2;
    // Every row's number where rows are a line high, else every 4th or 8th where those fit, else none.
    const int row_step = cell_h_ >= fm.height() * 0.8 ? 1 : cell_h_ * 4 >= fm.height() ? 4 : cell_h_ * 8 >= fm.height() ? 8 : 0;
    if (col_numbers)
        for (unsigned c = 0; c < g.cols; ++c)
            p.drawText(QRectF(g.rect.left() + c * cell_w_, g.rect.top() - fm.height(), cell_w_, fm.height()), Qt::AlignCenter,
                       QString::number(c));
    if (row_step > 0)
        for (unsigned r = 0; r < g.rows; r += unsigned(row_step))
            p.drawText(QRectF(g.rect.left() - label_w, g.rect.top() + r * cell_h_, label_w - 4, std::max(cell_h_, fm.height())),
                       Qt::AlignRight | Qt::AlignTop, QString::number(r));

    // The cells: the lane's colour (faded when another lane stands out), the lane and register.
    const int lane_out = emphasisedLane();
    // The lane and the register in the widget's font where they fit, else in a smaller one, else the lane alone.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.8);
    const QFontMetricsF sm(small);
    const auto mode = cellTextMode();
    const bool two_lines = mode == TextMode::TwoLines || mode == TextMode::TwoLinesSmall;
    const bool one_line = mode == TextMode::OneLine || mode == TextMode::OneLineSmall;
    const bool lane_only = mode == TextMode::LaneOnly;
    const bool use_small = mode == TextMode::TwoLinesSmall || mode == TextMode::OneLineSmall;
    p.setFont(use_small ? small : font());
    for (unsigned r = 0; r < g.rows; ++r)
        for (unsigned c = 0; c < g.cols; ++c) {
            const FragmentElement& e = g.cells[std::size_t(r) * g.cols + c];
            const QRectF cell = cellRect(g.operand, r, c);
            QColor fill = laneColor(int(e.lane));
            if (lane_out >= 0 && int(e.lane) != lane_out) fill = faded(fill);
            p.fillRect(cell, fill);
            p.setPen(text_on(fill));
            const QString lane = QString::number(e.lane), reg = registerName(g.operand, e.reg);
            if (two_lines) {
                p.drawText(QRectF(cell.left(), cell.top(), cell.width(), cell.height() / 2), Qt::AlignHCenter | Qt::AlignBottom, lane);
                p.drawText(QRectF(cell.left(), cell.center().y(), cell.width(), cell.height() / 2), Qt::AlignHCenter | Qt::AlignTop, reg);
            } else if (one_line) {
                p.drawText(cell, Qt::AlignCenter, lane + QLatin1Char(' ') + reg);
            } else if (lane_only) {
                p.drawText(cell, Qt::AlignCenter, lane);
            }
        }
    p.setFont(font());
    (void)sm;
    // Cell borders, then the register blocks (a0..a3 are quarters of A, b0 and b1 halves of B, c0/c1 and
    // c2/c3 halves of C) in a heavier line.
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    for (unsigned r = 0; r <= g.rows; ++r) p.drawLine(QPointF(g.rect.left(), g.rect.top() + r * cell_h_), QPointF(g.rect.right(), g.rect.top() + r * cell_h_));
    for (unsigned c = 0; c <= g.cols; ++c) p.drawLine(QPointF(g.rect.left() + c * cell_w_, g.rect.top()), QPointF(g.rect.left() + c * cell_w_, g.rect.bottom()));
    p.setPen(QPen(palette().color(QPalette::Text), 2));
    p.drawRect(g.rect);
    const double mid_row = g.rect.top() + (g.operand == MmaOperand::B ? 4 : 8) * cell_h_;
    p.drawLine(QPointF(g.rect.left(), mid_row), QPointF(g.rect.right(), mid_row));
    if (g.operand == MmaOperand::A) {
        const double mid_col = g.rect.left() + 4 * cell_w_;
        p.drawLine(QPointF(mid_col, g.rect.top()), QPointF(mid_col, g.rect.bottom()));
    }
    // The standing-out lane's elements outlined, and the picked output of C.
    if (lane_out >= 0) {
        p.setPen(QPen(Qt::black, 2));
        for (const FragmentElement& e : g.cells)
            if (int(e.lane) == lane_out) p.drawRect(cellRect(g.operand, e.row, e.col).adjusted(1, 1, -1, -1));
    }
    if (g.operand == MmaOperand::C && selected_c_) {
        p.setPen(QPen(QColor(255, 140, 0), 3));
        p.drawRect(cellRect(MmaOperand::C, selected_c_->row, selected_c_->col).adjusted(1.5, 1.5, -1.5, -1.5));
    }
}

void FragmentView::mouseMoveEvent(QMouseEvent* event) {
    const std::optional<Hit> hit = hitTest(event->position());
    setHoveredLane(hit ? int(hit->element.lane) : -1);
    QWidget::mouseMoveEvent(event);
}

void FragmentView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        const std::optional<Hit> hit = hitTest(event->position());
        setSelectedLane(hit ? int(hit->element.lane) : -1);
    }
    QWidget::mousePressEvent(event);
}

void FragmentView::leaveEvent(QEvent* event) {
    setHoveredLane(-1);
    QWidget::leaveEvent(event);
}

bool FragmentView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<Hit> hit = hitTest(help->pos())) {
            const FragmentElement& e = hit->element;
            QToolTip::showText(help->globalPos(),
                               tr("%1[%2, %3]: lane %4, register %5\n%6")
                                   .arg(QLatin1String(to_string(hit->operand))).arg(e.row).arg(e.col).arg(e.lane)
                                   .arg(registerName(hit->operand, e.reg), laneSummary(e.lane)),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace cvz
