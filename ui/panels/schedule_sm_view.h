#pragma once
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

#include "app/trace/schedule_replay.h"

namespace cvz {

// One side of the schedule replay: a box per SM with a cell per resident-block slot, coloured by the
// block in it (the colour the block has on the image). Recorded: the blocks that ran on that SM at
// time t, in the order they started; Model: the wave model's blocks at the same t. A grey bar at the
// bottom of each box fills as the SM's blocks finish (recorded side).
class ScheduleSmView : public QWidget {
    Q_OBJECT
public:
    enum class Side { Recorded, Model };
    explicit ScheduleSmView(Side side, QWidget* parent = nullptr);

    void setReplay(std::shared_ptr<const ScheduleReplay> replay);
    void setTime(std::uint64_t t);
    Side side() const { return side_; }

    // What each SM holds at the current time (index: SM): linear block ids, one per occupied slot.
    const std::vector<std::vector<std::uint64_t>>& occupancy() const { return slots_; }
    // Where SM `sm`'s box is drawn (for tests and tooltips).
    QRectF smBox(int sm) const;

    QSize sizeHint() const override { return {360, 200}; }
    QSize minimumSizeHint() const override { return {160, 90}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void refresh();
    Side side_;
    std::shared_ptr<const ScheduleReplay> replay_;
    std::uint64_t time_ = 0;
    std::vector<std::vector<std::uint64_t>> slots_;
    std::vector<double> done_fraction_;  // recorded: per SM, blocks done / blocks it runs
};

}  // namespace cvz
