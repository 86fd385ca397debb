#pragma once
#include <QImage>
#include <QPointer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

#include "app/models/launch_plan.h"
#include "app/trace/schedule_replay.h"

namespace cvz {

class ImageSurface;

// The recorded schedule over an image view: blocks that have finished are greyed, blocks running at
// the replay's time are filled with their colour and outlined (white inside dark), each drawn at
// least kMinRunningPx device-independent pixels wide and high so that they stay visible at the fit
// zoom of an 8K image, where a 16x16 block is two pixels. A transparent child of the view's widget,
// following its size and the shared view transform; mouse events pass through to the view.
class ScheduleOverlay : public QWidget {
    Q_OBJECT
public:
    static constexpr double kMinRunningPx = 8;

    explicit ScheduleOverlay(ImageSurface* view);

    // The replay drawn over the launch `plan`; nothing is drawn unless the plan's grid is the
    // schedule's (a recording belongs to one launch).
    void setReplay(std::shared_ptr<const ScheduleReplay> replay, const LaunchPlan& plan);
    void setTime(std::uint64_t ns);
    bool matches() const { return matches_; }
    // The widget rectangle drawn for running block `b` (at least kMinRunningPx on each side).
    QRectF runningRect(std::uint64_t b) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildBlockMap();
    ImageSurface* view_;
    std::shared_ptr<const ScheduleReplay> replay_;
    LaunchPlan plan_;
    bool matches_ = false;
    std::uint64_t time_ = 0;
    // The image seen through a grid of at most kMapSide x kMapSide samples: the block at each sample.
    static constexpr int kMapSide = 768;
    QSize map_size_;
    std::vector<std::uint32_t> block_map_;  // UINT32_MAX: no block (past the grid)
    QImage done_mask_;
};

}  // namespace cvz
