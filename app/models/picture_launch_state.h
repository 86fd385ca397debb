#pragma once
#include <QPoint>

#include <cstdint>

#include "app/models/execution_animation.h"
#include "app/models/launch_plan.h"
#include "app/models/occupancy_model.h"
#include "app/models/wave_model.h"

namespace cvz {

// What a session of a picture family keeps about its launch besides the kernel: the threads' plan over
// the pixels, the occupancy and the waves on the modelled device, the execution animation's mode and
// position, and the picked pixel with its block. The image and convolution sessions each hold one and
// say what changed with their own signals; the setters answer whether anything did.
class PictureLaunchState {
public:
    bool hasPlan() const { return plan_.blocks > 0; }
    const LaunchPlan& plan() const { return plan_; }
    const Occupancy& occupancy() const { return occupancy_; }
    const WavePlan& waves() const { return waves_; }
    AnimationMode mode() const { return mode_; }
    std::uint64_t position() const { return position_; }
    std::uint64_t steps() const;
    AnimationFrame frame() const;
    QPoint selectedPixel() const { return selected_pixel_; }
    std::int64_t selectedBlock() const { return selected_block_; }  // -1: none, or the pixel is off the grid

    // A new plan (LaunchPlan{} when the launch cannot run) and occupancy: the waves on `sm_count` SMs
    // (where no block fits, one block per SM, so the animation keeps working), the position kept
    // within the steps, the picked pixel's block found again.
    void replan(const LaunchPlan& plan, const Occupancy& occupancy, int sm_count);
    // A new picture: nothing picked, the animation from its start.
    void clearSelection();
    bool setMode(AnimationMode mode);           // the position restarts
    bool setPosition(std::uint64_t position);   // clamped to the steps
    // (-1, -1) clears it. Stepping through another block's warps starts from its first warp.
    bool select(QPoint pixel);

private:
    void findSelectedBlock();

    LaunchPlan plan_;
    Occupancy occupancy_;
    WavePlan waves_;
    AnimationMode mode_ = AnimationMode::Off;
    std::uint64_t position_ = 0;
    QPoint selected_pixel_{-1, -1};
    std::int64_t selected_block_ = -1;
};

}  // namespace cvz
