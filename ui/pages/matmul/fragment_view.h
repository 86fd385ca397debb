#pragma once
#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "app/matmul/mma_fragment_layout.h"

namespace cvz {

// The fragments of one mma.sync m16n8k8 TF32 (issue 29): the 16 x 8 tile of A, the 8 x 8 of B and the
// 16 x 8 of C drawn as grids, each element coloured by the lane of the warp that holds it, with the
// lane's number and the register (a0..a3, b0..b1, c0..c3) where the cells are large enough. Hovering
// an element picks its lane: that lane's elements stand out in all three grids, the others fade. A
// click keeps the lane picked; so does an output of C picked on the page (setSelectedC). The layout
// is the kernels' own (app/matmul/mma_fragment_layout, from kernels/matmul/mma_fragment.h). The grids
// sit side by side (A, B, C) or as the classic diagram (B above C, A to its left), whichever gives
// the larger cells.
class FragmentView : public QWidget {
    Q_OBJECT
public:
    explicit FragmentView(QWidget* parent = nullptr);

    // ---- the model the view draws ----
    // The lane and register drawn at (row, col) of the operand's tile; nullopt outside it.
    std::optional<FragmentElement> elementAt(MmaOperand operand, unsigned row, unsigned col) const;
    // What the cell says: "5 a2" (the lane, then the register).
    QString cellText(MmaOperand operand, unsigned row, unsigned col) const;
    static QString registerName(MmaOperand operand, unsigned reg);  // "a2", "b0", "c3"
    // One line on a lane: "lane 5 holds a0 (1, 1), a1 (9, 1), … of A; b0 …; c0 …" (row, column).
    static QString laneSummary(unsigned lane);
    static QColor laneColor(int lane);  // as the memory view colours lanes

    // ---- geometry, for tests and tooltips ----
    QRectF cellRect(MmaOperand operand, unsigned row, unsigned col) const;
    QRectF gridRect(MmaOperand operand) const;
    struct Hit {
        MmaOperand operand = MmaOperand::A;
        FragmentElement element;
    };
    std::optional<Hit> hitTest(QPointF widget) const;
    bool sideBySide() const {
        ensureLayout();
        return side_by_side_;
    }
    // What the cells say at their present size: the lane and register on two lines or one (in the
    // widget's font, else a smaller one), the lane alone, or nothing (hover and the tooltip tell).
    enum class TextMode { TwoLines, OneLine, TwoLinesSmall, OneLineSmall, LaneOnly, None };
    TextMode cellTextMode() const;
    bool cellsLabelled() const;  // the cells carry at least the lane

    // ---- hover and selection ----
    int hoveredLane() const { return hovered_lane_; }
    int selectedLane() const { return selected_lane_; }
    // The lane that stands out: the hovered one, else the selected one; -1 for none.
    int emphasisedLane() const { return hovered_lane_ >= 0 ? hovered_lane_ : selected_lane_; }
    void setHoveredLane(int lane);   // -1: none; emits laneHovered on a change
    void setSelectedLane(int lane);  // -1: none; emits laneSelected on a change
    // An output of C's 16 x 8 MMA tile picked on the page (outlined; its lane selected), or none.
    void setSelectedC(std::optional<FragmentElement> element);
    std::optional<FragmentElement> selectedC() const { return selected_c_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void laneHovered(int lane);   // -1 when the mouse leaves the grids
    void laneSelected(int lane);  // a click on an element (its lane), or setSelectedLane

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Grid {
        MmaOperand operand = MmaOperand::A;
        unsigned rows = 0, cols = 0;
        std::vector<FragmentElement> cells;  // row-major
        QRectF rect;                         // the cells' area
    };
    void relayout();
    // The geometry for the present size (a hidden widget gets its resize event only when shown).
    void ensureLayout() const;
    const Grid& grid(MmaOperand operand) const {
        ensureLayout();
        return grids_[int(operand)];
    }
    void paintGrid(QPainter& p, const Grid& g) const;

    Grid grids_[3];
    QSize laid_out_;
    double cell_w_ = 0, cell_h_ = 0;
    bool side_by_side_ = true;
    int hovered_lane_ = -1;
    int selected_lane_ = -1;
    std::optional<FragmentElement> selected_c_;
};

}  // namespace cvz
