#include "ui/pages/matmul/matrix_heatmap.h"

#include <QActionGroup>
#include <QContextMenuEvent>
#include <QLinearGradient>
#include <QMenu>
#include <QMouseEvent>
#include <QPointer>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cvz {

namespace {

constexpr double kMaxScale = 256;       // widget pixels per element at the deepest zoom
constexpr double kMinScaleOfFit = 0.25;  // zoom out to a quarter of the fitted size
constexpr int kMinGridSpacing = 4;       // closer tile lines would grey the whole map
constexpr int kMinOutlineCell = 4;       // per-element outlines of wrong elements from this cell size
constexpr int kMinMarker = 9;            // the selected element stays visible when zoomed out

// A blue-white-red diverging map (ColorBrewer RdBu): five stops from -1 to +1.
struct Stop {
    double t;
    int r, g, b;
};
constexpr Stop kStops[] = {{-1.0, 0x21, 0x66, 0xac}, {-0.5, 0x92, 0xc5, 0xde}, {0.0, 0xf7, 0xf7, 0xf7},
                           {0.5, 0xf4, 0xa5, 0x82},  {1.0, 0xb2, 0x18, 0x2b}};

QColor background_color() { return QColor(0x9a, 0x9a, 0x9a); }

template <class Visit>
void for_each_in(const Matrix& m, std::pair<std::uint32_t, std::uint32_t> rows,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& col_bins, Visit visit) {
    for (std::uint32_t r = rows.first; r < rows.second; ++r) {
        const float* row = m.data.data() + std::size_t(r) * m.cols;
        for (std::size_t cb = 0; cb < col_bins.size(); ++cb)
            for (std::uint32_t c = col_bins[cb].first; c < col_bins[cb].second; ++c) visit(cb, row[c]);
    }
}

}  // namespace

MatrixHeatmap::MatrixHeatmap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(60, 60);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

// ---- colour map and reduction -------------------------------------------------------------------

// Marker colours are outside the blue-white-red map, so a NaN or an infinity never reads as a value.
QColor MatrixHeatmap::nanColor() { return QColor(0x00, 0xc0, 0x40); }
QColor MatrixHeatmap::positiveInfColor() { return QColor(0xff, 0xd7, 0x00); }
QColor MatrixHeatmap::negativeInfColor() { return QColor(0x80, 0x00, 0xff); }
QColor MatrixHeatmap::wrongColor() { return QColor(0xe0, 0x00, 0x00); }

bool MatrixHeatmap::wrongOutlined() const {
    return row_axis_.scale >= kMinOutlineCell && col_axis_.scale >= kMinOutlineCell;
}

QRgb MatrixHeatmap::colorFor(float value, float max_abs) {
    if (std::isnan(value)) return nanColor().rgb();
    if (std::isinf(value)) return value > 0 ? positiveInfColor().rgb() : negativeInfColor().rgb();
    const double t = max_abs > 0 && std::isfinite(max_abs) ? std::clamp(double(value) / max_abs, -1.0, 1.0) : 0.0;
    int i = 0;
    while (i < 3 && t > kStops[i + 1].t) ++i;
    const Stop& a = kStops[i];
    const Stop& b = kStops[i + 1];
    const double f = (t - a.t) / (b.t - a.t);
    auto mix = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
    return qRgb(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

std::vector<float> MatrixHeatmap::reduce(const Matrix& m, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& row_bins,
                                         const std::vector<std::pair<std::uint32_t, std::uint32_t>>& col_bins,
                                         HeatmapReduction mode) {
    std::vector<float> out(row_bins.size() * col_bins.size());
    const std::size_t ncb = col_bins.size();
    if (mode == HeatmapReduction::Mean) {
        std::vector<double> sum(ncb);
        for (std::size_t rb = 0; rb < row_bins.size(); ++rb) {
            std::fill(sum.begin(), sum.end(), 0.0);
            for_each_in(m, row_bins[rb], col_bins, [&sum](std::size_t cb, float v) { sum[cb] += v; });
            const double rows = row_bins[rb].second - row_bins[rb].first;
            for (std::size_t cb = 0; cb < ncb; ++cb)
                out[rb * ncb + cb] = float(sum[cb] / (rows * (col_bins[cb].second - col_bins[cb].first)));
        }
        return out;
    }
    std::vector<float> best(ncb);
    std::vector<char> nan(ncb);
    for (std::size_t rb = 0; rb < row_bins.size(); ++rb) {
        std::fill(best.begin(), best.end(), 0.0f);
        std::fill(nan.begin(), nan.end(), 0);
        for_each_in(m, row_bins[rb], col_bins, [&](std::size_t cb, float v) {
            if (std::isnan(v)) nan[cb] = 1;
            else if (std::fabs(v) > std::fabs(best[cb])) best[cb] = v;
        });
        for (std::size_t cb = 0; cb < ncb; ++cb)
            out[rb * ncb + cb] = nan[cb] ? std::numeric_limits<float>::quiet_NaN() : best[cb];
    }
    return out;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> MatrixHeatmap::bins(double offset, double elements_per_pixel,
                                                                          int pixels, std::uint32_t count,
                                                                          std::vector<int>* pixel_bin) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    pixel_bin->assign(std::size_t(std::max(0, pixels)), -1);
    for (int i = 0; i < pixels; ++i) {
        const double s = offset + i * elements_per_pixel, e = offset + (i + 1) * elements_per_pixel;
        // Zoomed out a pixel covers [floor(s), floor(e)): neighbouring pixels partition the elements.
        // Zoomed in it shows the element under its centre.
        double b = std::floor(s), en = std::floor(e);
        if (en <= b) {
            b = std::floor((s + e) / 2);
            en = b + 1;
        }
        b = std::max(b, 0.0);
        en = std::min(en, double(count));
        if (b >= en) continue;
        const std::pair<std::uint32_t, std::uint32_t> bin{std::uint32_t(b), std::uint32_t(en)};
        if (out.empty() || out.back() != bin) out.push_back(bin);
        (*pixel_bin)[std::size_t(i)] = int(out.size()) - 1;
    }
    return out;
}

// ---- state --------------------------------------------------------------------------------------

void MatrixHeatmap::setMatrix(std::shared_ptr<const Matrix> matrix) {
    if (matrix && matrix->data.size() != matrix->size()) matrix.reset();  // malformed: shown as empty, never read
    const bool reshaped = !matrix_ || !matrix || matrix_->rows != matrix->rows || matrix_->cols != matrix->cols;
    matrix_ = std::move(matrix);
    max_abs_ = 0;
    if (matrix_)
        for (float v : matrix_->data)
            if (std::isfinite(v)) max_abs_ = std::max(max_abs_, std::fabs(v));
    if (max_abs_ == 0) max_abs_ = 1;  // an all-zero matrix is all centre colour
    if (wrong_ && matrix_ && wrong_->size() != matrix_->size()) wrong_.reset();
    hover_row_ = hover_col_ = -1;
    if (reshaped) fitToView();
    invalidate();
}

void MatrixHeatmap::setName(const QString& name) {
    name_ = name;
    update();
}

void MatrixHeatmap::setPlaceholder(const QString& text) {
    placeholder_ = text;
    update();
}

void MatrixHeatmap::setReduction(HeatmapReduction reduction) {
    if (reduction_ == reduction) return;
    reduction_ = reduction;
    invalidate();
}

void MatrixHeatmap::setTileGrid(int row_step, int col_step) {
    if (grid_rows_ == row_step && grid_cols_ == col_step) return;
    grid_rows_ = row_step;
    grid_cols_ = col_step;
    update();
}

void MatrixHeatmap::setHighlights(const QList<HeatmapHighlight>& highlights) {
    highlights_ = highlights;
    update();
}

void MatrixHeatmap::setPattern(const HeatmapPattern& pattern) {
    pattern_ = pattern;
    update();
}

void MatrixHeatmap::setSelectedElement(int row, int col) {
    if (selected_row_ == row && selected_col_ == col) return;
    selected_row_ = row;
    selected_col_ = col;
    update();
}

void MatrixHeatmap::setWrongMask(std::shared_ptr<const std::vector<std::uint8_t>> mask) {
    wrong_ = std::move(mask);
    invalidate();
}

void MatrixHeatmap::invalidate() {
    cache_valid_ = false;
    update();
}

// ---- view ---------------------------------------------------------------------------------------

QRectF MatrixHeatmap::dataRect() const {
    const int legend = fontMetrics().height() + 6;
    return QRectF(0, 0, width(), std::max(0, height() - legend));
}

HeatmapAxis MatrixHeatmap::fittedAxis(std::uint32_t count, double pixels) const {
    HeatmapAxis a;
    a.offset = 0;
    a.scale = count > 0 && pixels > 0 ? pixels / count : 1;
    a.fitting = true;
    return a;
}

void MatrixHeatmap::setAxes(const HeatmapAxis& rows, const HeatmapAxis& cols) {
    const bool rows_changed = rows != row_axis_, cols_changed = cols != col_axis_;
    row_axis_ = rows;
    col_axis_ = cols;
    if (!rows_changed && !cols_changed) return;
    invalidate();
    if (rows_changed) emit rowAxisChanged();
    if (cols_changed) emit colAxisChanged();
}

void MatrixHeatmap::setRowAxis(const HeatmapAxis& axis) { setAxes(axis, col_axis_); }
void MatrixHeatmap::setColAxis(const HeatmapAxis& axis) { setAxes(row_axis_, axis); }

struct MatrixHeatmap::CellShapeGroup {
    QList<QPointer<MatrixHeatmap>> views;
    bool square = true;
    bool refitting = false;
};

void MatrixHeatmap::shareCellShape(const QList<MatrixHeatmap*>& views) {
    auto group = std::make_shared<CellShapeGroup>();
    for (MatrixHeatmap* v : views) {
        group->views.append(v);
        v->group_ = group;
    }
    if (!views.isEmpty()) views.first()->setSquareCells(views.first()->square_);
}

bool MatrixHeatmap::squareCells() const { return group_ ? group_->square : square_; }

void MatrixHeatmap::setSquareCells(bool square) {
    square_ = square;
    if (!group_) {
        fitToView();
        return;
    }
    group_->square = square;
    group_->refitting = true;  // each fits once, against the others' fits
    for (const QPointer<MatrixHeatmap>& v : group_->views)
        if (v) v->setAxes(v->fittedAxes().first, v->fittedAxes().second);
    group_->refitting = false;
    refitGroup();  // again, now that every view fits: the common scale is settled
}

double MatrixHeatmap::ownSquareScale() const {
    const QRectF d = dataRect();
    if (!matrix_ || matrix_->rows == 0 || matrix_->cols == 0 || d.isEmpty()) return 0;
    return std::min(d.width() / matrix_->cols, d.height() / matrix_->rows);
}

std::pair<HeatmapAxis, HeatmapAxis> MatrixHeatmap::fittedAxes() const {
    const QRectF d = dataRect();
    const std::uint32_t rows = matrix_ ? matrix_->rows : 0, cols = matrix_ ? matrix_->cols : 0;
    // No matrix (C while A and B do not match): its axes stay as they are, or the linked views would
    // take a fit of nothing (one pixel per element) and draw A and B at the wrong size.
    if (rows == 0 || cols == 0) return {row_axis_, col_axis_};
    double s = ownSquareScale();
    if (!squareCells() || s <= 0) return {fittedAxis(rows, d.height()), fittedAxis(cols, d.width())};
    // The smallest of the group's fits, among the views that fit (a zoomed one keeps its own).
    if (group_)
        for (const QPointer<MatrixHeatmap>& v : group_->views)
            if (v && v != this && v->row_axis_.fitting && v->col_axis_.fitting)
                if (const double o = v->ownSquareScale(); o > 0) s = std::min(s, o);
    // Centred: the same offsets in A and C (one height, M rows) and in B and C (one width, N columns).
    const HeatmapAxis r{-(d.height() / s - rows) / 2, s, true};
    const HeatmapAxis c{-(d.width() / s - cols) / 2, s, true};
    return {r, c};
}

void MatrixHeatmap::refitGroup() {
    if (!group_ || group_->refitting) return;
    group_->refitting = true;
    for (const QPointer<MatrixHeatmap>& v : group_->views)
        if (v && v != this && v->row_axis_.fitting && v->col_axis_.fitting) {
            const auto [rows, cols] = v->fittedAxes();
            v->setAxes(rows, cols);
        }
    group_->refitting = false;
}

void MatrixHeatmap::fitToView() {
    const auto [rows, cols] = fittedAxes();
    setAxes(rows, cols);
    refitGroup();
}

void MatrixHeatmap::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    auto* shape = new QActionGroup(&menu);
    QAction* square = menu.addAction(tr("Square Cells (the matrix's shape)"));
    QAction* fill = menu.addAction(tr("Fill the Panel (cells stretched)"));
    for (QAction* a : {square, fill}) {
        a->setCheckable(true);
        shape->addAction(a);
    }
    (squareCells() ? square : fill)->setChecked(true);
    menu.addSeparator();
    QAction* fit = menu.addAction(tr("Fit (double-click)"));
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == square || chosen == fill) setSquareCells(chosen == square);
    else if (chosen == fit) fitToView();
}

void MatrixHeatmap::zoomAbout(QPointF widget, double factor) {
    if (!matrix_ || matrix_->size() == 0) return;
    const QRectF d = dataRect();
    auto zoom_axis = [factor](HeatmapAxis a, double pos, std::uint32_t count, double pixels) {
        const double fit = pixels / count;
        const double scale = std::clamp(a.scale * factor, std::min(fit * kMinScaleOfFit, kMaxScale), kMaxScale);
        const double element = a.offset + pos / a.scale;  // stays under the cursor
        return HeatmapAxis{element - pos / scale, scale, false};
    };
    setAxes(zoom_axis(row_axis_, widget.y() - d.top(), matrix_->rows, d.height()),
            zoom_axis(col_axis_, widget.x() - d.left(), matrix_->cols, d.width()));
}

void MatrixHeatmap::panBy(QPointF delta) {
    setAxes(HeatmapAxis{row_axis_.offset - delta.y() / row_axis_.scale, row_axis_.scale, false},
            HeatmapAxis{col_axis_.offset - delta.x() / col_axis_.scale, col_axis_.scale, false});
}

QPointF MatrixHeatmap::widgetToElement(QPointF w) const {
    const QRectF d = dataRect();
    return QPointF(col_axis_.offset + (w.x() - d.left()) / col_axis_.scale,
                   row_axis_.offset + (w.y() - d.top()) / row_axis_.scale);
}

QPointF MatrixHeatmap::elementToWidget(QPointF e) const {
    const QRectF d = dataRect();
    return QPointF(d.left() + (e.x() - col_axis_.offset) * col_axis_.scale,
                   d.top() + (e.y() - row_axis_.offset) * row_axis_.scale);
}

std::optional<std::pair<int, int>> MatrixHeatmap::elementAt(QPointF widget) const {
    if (!matrix_ || !dataRect().contains(widget)) return std::nullopt;
    const QPointF e = widgetToElement(widget);
    const double r = std::floor(e.y()), c = std::floor(e.x());
    if (r < 0 || c < 0 || r >= matrix_->rows || c >= matrix_->cols) return std::nullopt;
    return std::make_pair(int(r), int(c));
}

QString MatrixHeatmap::cellDescription() const {
    const double rows = 1 / row_axis_.scale, cols = 1 / col_axis_.scale;  // elements per widget pixel
    if (rows <= 1 && cols <= 1) {
        const QString across = QString::number(col_axis_.scale, 'f', 1), down = QString::number(row_axis_.scale, 'f', 1);
        // Square cells (the default) need one number: the legend then fits beside a narrow matrix.
        if (across == down) return tr("%1 px per element").arg(across);
        return tr("1 element = %1x%2 px").arg(across, down);
    }
    const QString what = reduction_ == HeatmapReduction::Mean ? tr("mean") : tr("max |v|");
    return tr("1 px = %1 of up to %2x%3 elements")
        .arg(what)
        .arg(int(std::ceil(std::max(1.0, rows))))
        .arg(int(std::ceil(std::max(1.0, cols))));
}

// ---- rendering ----------------------------------------------------------------------------------

void MatrixHeatmap::ensureCache() {
    if (cache_valid_) return;
    cache_valid_ = true;
    const qreal dpr = devicePixelRatioF();
    const QRectF d = dataRect();
    const int w = std::max(1, int(std::lround(d.width() * dpr))), h = std::max(1, int(std::lround(d.height() * dpr)));
    cache_ = QImage(w, h, QImage::Format_RGB32);
    cache_.setDevicePixelRatio(dpr);
    const QRgb bg = background_color().rgb();
    cache_.fill(bg);
    wrong_cache_ = QImage();
    if (!matrix_ || matrix_->size() == 0) return;
    std::vector<int> px_row, px_col;
    const auto row_bins = bins(row_axis_.offset, 1 / (row_axis_.scale * dpr), h, matrix_->rows, &px_row);
    const auto col_bins = bins(col_axis_.offset, 1 / (col_axis_.scale * dpr), w, matrix_->cols, &px_col);
    if (row_bins.empty() || col_bins.empty()) return;
    const std::vector<float> values = reduce(*matrix_, row_bins, col_bins, reduction_);
    std::vector<QRgb> colors(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) colors[i] = colorFor(values[i], max_abs_);
    const std::size_t ncb = col_bins.size();
    for (int y = 0; y < h; ++y) {
        if (px_row[std::size_t(y)] < 0) continue;
        auto* line = reinterpret_cast<QRgb*>(cache_.scanLine(y));
        const QRgb* row = colors.data() + std::size_t(px_row[std::size_t(y)]) * ncb;
        for (int x = 0; x < w; ++x)
            if (px_col[std::size_t(x)] >= 0) line[x] = row[px_col[std::size_t(x)]];
    }
    setToolTip(tr("Blue < 0 < red, scaled to max |v| = %1 over the finite values.\n"
                  "NaN: green · +Inf: gold · −Inf: violet.\n%2.\n"
                  "Wheel: zoom · drag: pan · double-click: fit · click: select")
                   .arg(QString::number(double(max_abs_), 'g', 4), cellDescription()));
    if (!wrong_ || wrong_->size() != matrix_->size()) return;
    // Any wrong element in a screen cell marks the cell, so a single race survives any zoom out.
    wrong_cache_ = QImage(w, h, QImage::Format_ARGB32_Premultiplied);
    wrong_cache_.setDevicePixelRatio(dpr);
    wrong_cache_.fill(Qt::transparent);
    std::vector<char> any(row_bins.size() * ncb);
    for (std::size_t rb = 0; rb < row_bins.size(); ++rb)
        for (std::uint32_t r = row_bins[rb].first; r < row_bins[rb].second; ++r)
            for (std::size_t cb = 0; cb < ncb; ++cb)
                for (std::uint32_t c = col_bins[cb].first; c < col_bins[cb].second && !any[rb * ncb + cb]; ++c)
                    any[rb * ncb + cb] = (*wrong_)[std::size_t(r) * matrix_->cols + c] != 0;
    QColor tint = wrongColor();
    tint.setAlpha(0xa0);
    const QRgb mark = qPremultiply(tint.rgba());
    for (int y = 0; y < h; ++y) {
        if (px_row[std::size_t(y)] < 0) continue;
        auto* line = reinterpret_cast<QRgb*>(wrong_cache_.scanLine(y));
        const char* row = any.data() + std::size_t(px_row[std::size_t(y)]) * ncb;
        for (int x = 0; x < w; ++x)
            if (px_col[std::size_t(x)] >= 0 && row[px_col[std::size_t(x)]]) line[x] = mark;
    }
}

QRectF MatrixHeatmap::elementRectInWidget(const QRect& e) const {
    return QRectF(elementToWidget(QPointF(e.left(), e.top())), elementToWidget(QPointF(e.left() + e.width(), e.top() + e.height())));
}

void MatrixHeatmap::paintEvent(QPaintEvent*) {
    ensureCache();
    QPainter p(this);
    const QRectF d = dataRect();
    p.drawImage(d.topLeft(), cache_);
    // Zoomed out, wrong cells are tinted; zoomed in, outlined, so their values stay readable.
    if (!wrong_cache_.isNull() && !wrongOutlined()) p.drawImage(d.topLeft(), wrong_cache_);
    p.save();
    p.setClipRect(d);
    paintOverlays(p);
    p.restore();
    if (!matrix_) {
        p.setPen(Qt::white);
        p.drawText(d, Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
    }
    paintLegend(p);
}

void MatrixHeatmap::paintOverlays(QPainter& p) const {
    if (!matrix_ || matrix_->size() == 0) return;
    const QRectF d = dataRect();
    const QRectF all = elementRectInWidget(QRect(0, 0, int(matrix_->cols), int(matrix_->rows))).intersected(d);
    const QPointF first = widgetToElement(all.topLeft()), last = widgetToElement(all.bottomRight());

    // Output-tile grid: lines on the tile boundaries in view.
    p.setPen(QPen(QColor(30, 30, 30, 90), 0));
    if (grid_cols_ > 0 && grid_cols_ * col_axis_.scale >= kMinGridSpacing)
        for (double c = std::ceil(first.x() / grid_cols_) * grid_cols_; c <= last.x(); c += grid_cols_) {
            const double x = elementToWidget(QPointF(c, 0)).x();
            p.drawLine(QPointF(x, all.top()), QPointF(x, all.bottom()));
        }
    if (grid_rows_ > 0 && grid_rows_ * row_axis_.scale >= kMinGridSpacing)
        for (double r = std::ceil(first.y() / grid_rows_) * grid_rows_; r <= last.y(); r += grid_rows_) {
            const double y = elementToWidget(QPointF(0, r)).y();
            p.drawLine(QPointF(all.left(), y), QPointF(all.right(), y));
        }

    paintPattern(p, all, first, last);

    // Highlights; a slice thinner than 3 px is widened about its centre so it stays visible.
    for (const HeatmapHighlight& h : highlights_) {
        if (h.elements.isEmpty()) continue;
        QRectF r = elementRectInWidget(h.elements);
        if (r.width() < 3) r.adjust(-(3 - r.width()) / 2, 0, (3 - r.width()) / 2, 0);
        if (r.height() < 3) r.adjust(0, -(3 - r.height()) / 2, 0, (3 - r.height()) / 2);
        p.fillRect(r, h.color);
        if (h.outline) {
            QColor solid = h.color;
            solid.setAlpha(255);
            p.setPen(QPen(solid, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
    }

    // Wrong elements get their own outline once cells are big enough to tell them apart.
    if (wrong_ && wrong_->size() == matrix_->size() && wrongOutlined()) {
        const double pen = std::min(row_axis_.scale, col_axis_.scale) >= 2 * kMinOutlineCell ? 2 : 1;
        p.setPen(QPen(wrongColor(), pen));
        p.setBrush(Qt::NoBrush);
        const int r0 = std::max(0, int(first.y())), r1 = std::min(int(matrix_->rows), int(std::ceil(last.y())));
        const int c0 = std::max(0, int(first.x())), c1 = std::min(int(matrix_->cols), int(std::ceil(last.x())));
        for (int r = r0; r < r1; ++r)
            for (int c = c0; c < c1; ++c)
                if ((*wrong_)[std::size_t(r) * matrix_->cols + std::size_t(c)])
                    p.drawRect(elementRectInWidget(QRect(c, r, 1, 1)).adjusted(pen / 2, pen / 2, -pen / 2, -pen / 2));
    }

    if (selected_row_ >= 0 && selected_col_ >= 0 && selected_row_ < int(matrix_->rows) && selected_col_ < int(matrix_->cols)) {
        QRectF r = elementRectInWidget(QRect(selected_col_, selected_row_, 1, 1));
        const QPointF c = r.center();
        r.setWidth(std::max<qreal>(r.width(), kMinMarker));
        r.setHeight(std::max<qreal>(r.height(), kMinMarker));
        r.moveCenter(c);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 3));
        p.drawRect(r);
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(r);
    }
}

// The pattern's tiles in the periods in view, clipped to the matrix: tinted, outlined once a tile is
// 4 px across, the inner grid once its lines are 4 px apart, the label once it fits inside.
void MatrixHeatmap::paintPattern(QPainter& p, const QRectF& all, QPointF first, QPointF last) const {
    if (pattern_.empty()) return;
    const int pr = pattern_.period_rows, pc = pattern_.period_cols;
    const int r0 = std::max(0, int(first.y()) / pr), r1 = int(std::ceil(last.y())) / pr;
    const int c0 = std::max(0, int(first.x()) / pc), c1 = int(std::ceil(last.x())) / pc;
    const QRect matrix(0, 0, int(matrix_->cols), int(matrix_->rows));
    const QFontMetrics fm(font());
    p.save();
    p.setClipRect(all);
    for (int br = r0; br <= r1; ++br)
        for (int bc = c0; bc <= c1; ++bc)
            for (const HeatmapPattern::Tile& t : pattern_.tiles) {
                const QRect e = t.elements.translated(bc * pc, br * pr).intersected(matrix);
                if (e.isEmpty()) continue;
                const QRectF r = elementRectInWidget(e);
                p.fillRect(r, t.color);
                QColor solid = t.color;
                solid.setAlpha(200);
                if (pattern_.inner_cols > 0 && pattern_.inner_cols * col_axis_.scale >= kMinGridSpacing) {
                    p.setPen(QPen(solid, 0, Qt::DotLine));
                    for (int c = t.elements.left() + bc * pc + pattern_.inner_cols; c < e.left() + e.width(); c += pattern_.inner_cols)
                        if (c > e.left()) {
                            const double x = elementToWidget(QPointF(c, 0)).x();
                            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
                        }
                }
                if (pattern_.inner_rows > 0 && pattern_.inner_rows * row_axis_.scale >= kMinGridSpacing) {
                    p.setPen(QPen(solid, 0, Qt::DotLine));
                    for (int rr = t.elements.top() + br * pr + pattern_.inner_rows; rr < e.top() + e.height(); rr += pattern_.inner_rows)
                        if (rr > e.top()) {
                            const double y = elementToWidget(QPointF(0, rr)).y();
                            p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
                        }
                }
                if (r.width() >= 4 && r.height() >= 4) {
                    p.setPen(QPen(solid, 1.5));
                    p.setBrush(Qt::NoBrush);
                    p.drawRect(r.adjusted(0.75, 0.75, -0.75, -0.75));
                }
                if (!t.label.isEmpty() && r.width() >= fm.horizontalAdvance(t.label) + 6 && r.height() >= fm.height() + 2) {
                    const QRectF box(r.left() + 2, r.top() + 2, fm.horizontalAdvance(t.label) + 4, fm.height());
                    p.fillRect(box, QColor(255, 255, 255, 200));
                    p.setPen(Qt::black);
                    p.drawText(box, Qt::AlignCenter, t.label);
                }
            }
    p.restore();
}

void MatrixHeatmap::paintLegend(QPainter& p) const {
    const QRectF d = dataRect();
    const QRectF strip(0, d.bottom(), width(), height() - d.bottom());
    p.fillRect(strip, palette().window());
    const QRectF bar(strip.left() + 4, strip.center().y() - 4, 48, 8);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    for (const Stop& s : kStops) g.setColorAt((s.t + 1) / 2, QColor(s.r, s.g, s.b));
    p.fillRect(bar, g);
    p.setPen(palette().color(QPalette::WindowText));
    const QString scale = QStringLiteral("±%1").arg(QString::number(double(max_abs_), 'g', 3));
    const QString text = hover_row_ >= 0 ? hoverText() : matrix_ ? cellDescription() : QString();
    const QRectF text_rect = strip.adjusted(bar.right() + 4 - strip.left(), 0, -4, 0);
    p.drawText(text_rect, Qt::AlignVCenter | Qt::AlignLeft,
               fontMetrics().elidedText(scale + QStringLiteral(" · ") + text, Qt::ElideRight, int(text_rect.width())));
}

QString MatrixHeatmap::hoverText() const {
    if (!matrix_ || hover_row_ < 0) return {};
    return QStringLiteral("%1[%2, %3] = %4")
        .arg(name_)
        .arg(hover_row_)
        .arg(hover_col_)
        .arg(QString::number(double(matrix_->at(std::uint32_t(hover_row_), std::uint32_t(hover_col_))), 'g', 7));
}

// ---- events -------------------------------------------------------------------------------------

void MatrixHeatmap::resizeEvent(QResizeEvent*) {
    HeatmapAxis rows = row_axis_, cols = col_axis_;
    const auto fitted = fittedAxes();
    if (rows.fitting) rows = fitted.first;
    if (cols.fitting) cols = fitted.second;
    setAxes(rows, cols);
    refitGroup();  // the common square scale may have changed
    invalidate();  // the cache has the widget's size even when the axes stay
}

void MatrixHeatmap::wheelEvent(QWheelEvent* e) {
    const int delta = e->angleDelta().y();
    if (delta == 0) return;
    zoomAbout(e->position(), std::pow(1.25, delta / 120.0));
    e->accept();
}

void MatrixHeatmap::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    pressed_ = true;
    dragged_ = false;
    press_pos_ = last_pos_ = e->position();
}

void MatrixHeatmap::mouseMoveEvent(QMouseEvent* e) {
    if (pressed_) {
        if ((e->position() - press_pos_).manhattanLength() > 3) dragged_ = true;
        if (dragged_) {
            panBy(e->position() - last_pos_);
            last_pos_ = e->position();
        }
    }
    updateHover(e->position());
}

void MatrixHeatmap::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !pressed_) return;
    pressed_ = false;
    if (dragged_) return;
    if (const auto el = elementAt(e->position())) emit elementClicked(el->first, el->second);
}

void MatrixHeatmap::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) fitToView();
}

void MatrixHeatmap::leaveEvent(QEvent*) {
    if (hover_row_ < 0) return;
    hover_row_ = hover_col_ = -1;
    update();
    emit elementHovered(-1, -1);
}

void MatrixHeatmap::updateHover(QPointF pos) {
    const auto el = elementAt(pos);
    const int r = el ? el->first : -1, c = el ? el->second : -1;
    if (r == hover_row_ && c == hover_col_) return;
    hover_row_ = r;
    hover_col_ = c;
    update();
    emit elementHovered(r, c);
}

}  // namespace cvz
