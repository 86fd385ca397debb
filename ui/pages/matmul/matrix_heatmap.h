#pragma once
#include <QColor>
#include <QImage>
#include <QList>
#include <QPointF>
#include <QRect>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "app/io/matrix.h"

namespace cvz {

// What one screen cell shows when it covers several elements.
enum class HeatmapReduction { Mean, MaxAbs };

// One axis of the view: the element coordinate at the data area's first pixel and the widget pixels
// per element. Rows and columns scale apart (a 50000x784 matrix would be a line at one scale), and
// the matmul page links A's row axis to C's and B's column axis to C's so they stay aligned.
struct HeatmapAxis {
    double offset = 0;
    double scale = 1;
    bool fitting = true;  // follows the widget's size until the user zooms or pans
    bool operator==(const HeatmapAxis& o) const { return offset == o.offset && scale == o.scale && fitting == o.fitting; }
    bool operator!=(const HeatmapAxis& o) const { return !(*this == o); }
};

// A pattern repeated over the matrix with the period of a block's output tile (the tensor-core rungs'
// warp tiles: which warp of a block owns which part of its tile): each tile a rectangle within the
// period (x = column, y = row), tinted, outlined and labelled where it is large enough, with a finer
// grid inside it (the 16 x 8 MMA tiles) where its lines are at least 4 px apart.
struct HeatmapPattern {
    struct Tile {
        QRect elements;  // within one period
        QColor color;    // alpha = fill opacity
        QString label;   // "w3"
    };
    int period_rows = 0, period_cols = 0;  // 0: no pattern
    QList<Tile> tiles;
    int inner_rows = 0, inner_cols = 0;  // the grid inside each tile (0: none)
    bool empty() const { return period_rows <= 0 || period_cols <= 0 || tiles.isEmpty(); }
};

// A rectangle of elements (x = column, y = row) drawn over the heatmap.
struct HeatmapHighlight {
    QRect elements;
    QColor color;           // its alpha is the fill's opacity
    bool outline = true;    // a solid 2-pixel border in the opaque colour
};

// A Matrix as a heatmap: a diverging map centred on 0 and scaled to the largest finite |value|; NaN
// and +/-Inf in marker colours outside the map. The screen image is reduced from the data once per
// data or view change (each screen cell shows the mean, or the largest-magnitude value, of the
// elements it covers), cached, and only blitted on paint. Wheel zooms about the cursor, drag pans,
// double-click fits; hover reports (row, col, value); a click emits elementClicked. Overlays: the
// output-tile grid, highlighted bands and tiles, the selected element, and elements marked wrong.
class MatrixHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit MatrixHeatmap(QWidget* parent = nullptr);

    void setMatrix(std::shared_ptr<const Matrix> matrix);
    std::shared_ptr<const Matrix> matrix() const { return matrix_; }
    void setName(const QString& name);  // "A", shown with hovered values
    void setPlaceholder(const QString& text);  // shown while there is no matrix
    void setReduction(HeatmapReduction reduction);
    HeatmapReduction reduction() const { return reduction_; }

    // Lines every `row_step` rows and `col_step` columns (0: none), drawn when at least 4 px apart.
    void setTileGrid(int row_step, int col_step);
    void setHighlights(const QList<HeatmapHighlight>& highlights);
    void setPattern(const HeatmapPattern& pattern);  // an empty one: none
    const HeatmapPattern& pattern() const { return pattern_; }
    void setSelectedElement(int row, int col);  // negative: none
    // One byte per element (row-major, rows x cols of the matrix): non-zero marks the element wrong.
    void setWrongMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);

    HeatmapAxis rowAxis() const { return row_axis_; }
    HeatmapAxis colAxis() const { return col_axis_; }
    void setRowAxis(const HeatmapAxis& axis);
    void setColAxis(const HeatmapAxis& axis);
    void fitToView();
    // Cells square by default (the matrix's shape is the lesson: 97x33 looks like a wide block, not
    // a strip stretched to the panel), or stretched to fill it (the view's context menu). Views
    // sharing a cell shape (A, B and C) fit at one common scale, so that A's rows stay level with
    // C's and B's columns with C's while every cell is square; the choice applies to all of them.
    static void shareCellShape(const QList<MatrixHeatmap*>& views);
    void setSquareCells(bool square);
    bool squareCells() const;
    void zoomAbout(QPointF widget, double factor);
    void panBy(QPointF widget_delta);

    // The data area (the widget less the legend strip at the bottom).
    QRectF dataRect() const;
    // Element coordinates: x = column, y = row; element (r, c) covers [c, c+1) x [r, r+1).
    QPointF widgetToElement(QPointF widget) const;
    QPointF elementToWidget(QPointF element) const;
    // The element under a widget point, as (row, col); nothing outside the matrix or the data area.
    std::optional<std::pair<int, int>> elementAt(QPointF widget) const;
    // How a screen cell is reduced now, e.g. "1 cell = mean of up to 64x2 elements" or "1 element = 12x12 px".
    QString cellDescription() const;
    float maxAbs() const { return max_abs_; }

    // The mapping, exposed for tests and for the legend.
    static QColor nanColor();
    static QColor positiveInfColor();
    static QColor negativeInfColor();
    static QColor wrongColor();
    static QRgb colorFor(float value, float max_abs);
    // Bins are half-open element ranges [first, second); the result is row-bin-major. Mean: the sum in
    // double over the block divided by its size (NaN and opposite infinities make it NaN, as IEEE
    // says). MaxAbs: the value of largest magnitude, sign kept; NaN if the block holds a NaN.
    static std::vector<float> reduce(const Matrix& m, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& row_bins,
                                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& col_bins,
                                     HeatmapReduction mode);
    // The element range each of `pixels` device pixels covers, along one axis of `count` elements;
    // pixel_bin[i] indexes the returned bins, or is -1 where the pixel lies outside the matrix.
    static std::vector<std::pair<std::uint32_t, std::uint32_t>> bins(double offset, double elements_per_pixel,
                                                                      int pixels, std::uint32_t count,
                                                                      std::vector<int>* pixel_bin);

signals:
    void elementClicked(int row, int col);
    void elementHovered(int row, int col);  // (-1, -1) when the mouse leaves the matrix
    void rowAxisChanged();
    void colAxisChanged();

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct CellShapeGroup;
    // The scale at which the whole matrix fits with square cells (0 without a matrix), and the
    // fitted axes in the present cell shape (rows, columns).
    double ownSquareScale() const;
    std::pair<HeatmapAxis, HeatmapAxis> fittedAxes() const;
    void refitGroup();  // the other views of the group, after this one's size or matrix changed
    bool wrongOutlined() const;  // cells big enough to outline wrong elements one by one
    void invalidate();  // the data or the view changed: re-reduce before the next paint
    void ensureCache();
    void paintOverlays(QPainter& p) const;
    void paintPattern(QPainter& p, const QRectF& all, QPointF first, QPointF last) const;
    void paintLegend(QPainter& p) const;
    QRectF elementRectInWidget(const QRect& elements) const;
    HeatmapAxis fittedAxis(std::uint32_t count, double pixels) const;
    void setAxes(const HeatmapAxis& rows, const HeatmapAxis& cols);
    void updateHover(QPointF pos);
    QString hoverText() const;

    std::shared_ptr<const Matrix> matrix_;
    std::shared_ptr<const std::vector<std::uint8_t>> wrong_;
    QString name_;
    QString placeholder_;
    HeatmapReduction reduction_ = HeatmapReduction::Mean;
    float max_abs_ = 1;
    HeatmapAxis row_axis_;
    HeatmapAxis col_axis_;
    std::shared_ptr<CellShapeGroup> group_;
    bool square_ = true;  // without a group
    int grid_rows_ = 0;
    int grid_cols_ = 0;
    QList<HeatmapHighlight> highlights_;
    HeatmapPattern pattern_;
    int selected_row_ = -1;
    int selected_col_ = -1;

    QImage cache_;         // the reduced heatmap, one texel per device pixel of the data area
    QImage wrong_cache_;   // same size, transparent except where a covered element is marked wrong
    bool cache_valid_ = false;
    double cells_per_pixel_rows_ = 1;  // elements per device pixel when the cache was made
    double cells_per_pixel_cols_ = 1;

    bool pressed_ = false;
    bool dragged_ = false;
    QPointF press_pos_;
    QPointF last_pos_;
    int hover_row_ = -1;
    int hover_col_ = -1;
};

}  // namespace cvz
