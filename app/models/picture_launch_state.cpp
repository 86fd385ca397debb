#include "app/models/picture_launch_state.h"

#include <algorithm>

#include "app/models/overlay_geometry.h"

namespace cvz {

std::uint64_t PictureLaunchState::steps() const { return animation_steps(mode_, waves_, plan_.warps_per_block); }

AnimationFrame PictureLaunchState::frame() const {
    return animation_frame(mode_, position_, waves_, selected_block_, plan_.warps_per_block);
}

void PictureLaunchState::replan(const LaunchPlan& plan, const Occupancy& occupancy, int sm_count) {
    plan_ = plan;
    occupancy_ = occupancy;
    waves_ = plan_waves(plan_.blocks, sm_count, occupancy_.blocks_per_sm);
    position_ = std::min(position_, steps());
    findSelectedBlock();
}

void PictureLaunchState::clearSelection() {
    selected_pixel_ = QPoint(-1, -1);
    selected_block_ = -1;
    position_ = 0;
}

bool PictureLaunchState::setMode(AnimationMode mode) {
    if (mode == mode_) return false;
    mode_ = mode;
    position_ = 0;
    return true;
}

bool PictureLaunchState::setPosition(std::uint64_t position) {
    position = std::min(position, steps());
    if (position == position_) return false;
    position_ = position;
    return true;
}

bool PictureLaunchState::select(QPoint pixel) {
    if (pixel == selected_pixel_) return false;
    selected_pixel_ = pixel;
    const std::int64_t before = selected_block_;
    findSelectedBlock();
    if (mode_ == AnimationMode::Warps && selected_block_ != before) position_ = 0;
    return true;
}

void PictureLaunchState::findSelectedBlock() {
    selected_block_ = -1;
    if (!hasPlan() || selected_pixel_.x() < 0) return;
    const GridCell cell = grid_cell(plan_, selected_pixel_.x(), selected_pixel_.y());
    if (cell.in_grid) selected_block_ = std::int64_t(cell.thread.linear_block);
}

}  // namespace cvz
