#pragma once
#include <QObject>
#include <QPoint>
#include <QSize>

#include <cstdint>

#include "app/device_profile.h"
#include "app/execution_animation.h"
#include "app/launch_plan.h"
#include "app/occupancy_model.h"
#include "app/wave_model.h"
#include "kernels/core/launch_shape.h"

namespace cvz {

// The one source of truth for the launch the window shows: the block shape (the toolbar box and the
// launch panel both edit it through here), the image size, and what follows from them: the launch
// plan, occupancy on the chosen device, the waves, the animation position and the inspector's
// selection. Views, panels and the timeline listen; none keeps its own copy.
class LaunchSession : public QObject {
    Q_OBJECT
public:
    explicit LaunchSession(QObject* parent = nullptr);

    LaunchShape shape() const { return shape_; }
    void setShape(const LaunchShape& shape);  // emits shapeChanged and planChanged on a real change
    QSize imageSize() const { return image_size_; }
    void setImageSize(QSize size);
    bool hasPlan() const { return plan_.blocks > 0; }
    const LaunchPlan& plan() const { return plan_; }

    void setDevice(const DeviceProfile& device);
    const DeviceProfile& device() const { return device_; }
    const Occupancy& occupancy() const { return occupancy_; }
    const WavePlan& waves() const { return waves_; }

    AnimationMode animationMode() const { return mode_; }
    void setAnimationMode(AnimationMode mode);
    std::uint64_t animationSteps() const;
    std::uint64_t animationPosition() const { return position_; }
    void setAnimationPosition(std::uint64_t position);
    AnimationFrame frame() const;

    // The inspector's pixel (it may lie past the image, on an idle thread): outlined with its block,
    // which is also the block the Warps animation steps through. (-1, -1) clears it.
    void select(QPoint pixel);
    QPoint selectedPixel() const { return selected_pixel_; }
    std::int64_t selectedBlock() const { return selected_block_; }

signals:
    void shapeChanged(const cvz::LaunchShape& shape);
    void planChanged();   // plan, occupancy, waves or the number of animation steps changed
    void frameChanged();  // the animation frame or the selection changed

private:
    void replan();
    void updateSelectedBlock();

    LaunchShape shape_ = LaunchShape::two_d(16, 16);
    QSize image_size_;
    LaunchPlan plan_;
    DeviceProfile device_;
    Occupancy occupancy_;
    WavePlan waves_;
    AnimationMode mode_ = AnimationMode::Off;
    std::uint64_t position_ = 0;
    QPoint selected_pixel_{-1, -1};
    std::int64_t selected_block_ = -1;
};

}  // namespace cvz
