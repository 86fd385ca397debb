#pragma once
#include <QWidget>

#include "app/models/wave_model.h"

namespace cvz {

// The GPU's multiprocessors during one wave: a box per SM with a cell per resident block slot,
// coloured by the block it holds (the same colour as on the image), empty slots hatched. The tail wave
// (the last, partial one) is called out.
class SmPanel : public QWidget {
    Q_OBJECT
public:
    explicit SmPanel(QWidget* parent = nullptr);

    void setPlan(const WavePlan& plan);
    void setWave(std::uint64_t wave);  // waves() means "all done"
    // Outlines the slot holding `block` (the inspected block; -1: none).
    void setHighlightBlock(std::int64_t block);
    std::uint64_t wave() const { return wave_; }
    QString caption() const;

    QSize sizeHint() const override { return {320, 260}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    WavePlan plan_;
    std::uint64_t wave_ = 0;
    std::int64_t highlight_ = -1;
};

}  // namespace cvz
