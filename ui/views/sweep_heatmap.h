#pragma once
#include <QColor>
#include <QWidget>

#include <array>

#include "app/tuning/block_sweep.h"

namespace cvz {

// The 2-D rows of a block-size sweep as a grid: blockDim.x across (1, 2, 4, ..., 1024), blockDim.y
// down. A cell is coloured by its time (log scale, fast green to slow red) once anything is timed,
// else by its modeled occupancy (high green to low red), and prints the value and the occupancy.
// Shapes of more than 1024 threads are grey; the fastest cell is outlined. Clicking a cell reports
// its row.
class SweepHeatmap : public QWidget {
    Q_OBJECT
public:
    // Time: measured times (a GPU); Predicted: the model's GPU times (no GPU, after Predict);
    // Occupancy: the modeled occupancy, before anything is predicted or timed.
    enum class ColorMode { Time, Predicted, Occupancy };
    static constexpr int kSides = 11;  // 2^0 .. 2^10

    explicit SweepHeatmap(QWidget* parent = nullptr);

    void setResult(const SweepResult& result);
    void updateRow(int index, const SweepRow& row);  // a row timed during the sweep
    const SweepResult& result() const { return result_; }
    ColorMode colorMode() const;

    // For tests and clicks. blockDim.x = 2^column, blockDim.y = 2^row.
    QRect cellRect(unsigned block_x, unsigned block_y) const;
    int rowAt(const QPoint& pos) const;  // index into result().rows; -1 outside the cells or on a grey one
    QColor cellColor(unsigned block_x, unsigned block_y) const;  // the fill the cell is painted with
    int outlinedRow() const;  // the fastest timed (else predicted) cell's row, -1 when none

    static QColor invalidColor();      // x*y > 1024
    static QColor pendingColor();      // not timed yet while others are
    static QColor failedColor();       // the GPU refused the shape
    static QColor bestOutlineColor();
    static QColor rampColor(double t);  // 0 = good (green) .. 1 = bad (red)

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellClicked(int row_index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuildIndex();
    void rescale();
    QRect gridRect() const;
    int cellIndex(int column, int row) const;  // the row of result_ in that cell, or -1
    QString cellTooltip(int index) const;

    SweepResult result_;
    std::array<int, kSides * kSides> cells_{};  // column + row * kSides -> index into result_.rows
    double min_ms_ = 0;
    double max_ms_ = 0;
    int outlined_ = -1;
    int hovered_ = -1;
};

}  // namespace cvz
