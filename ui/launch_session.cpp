#include "ui/launch_session.h"

#include <algorithm>

#include "app/kernel_resources.h"
#include "app/overlay_geometry.h"
#include "kernels/grayscale/grayscale_launch.h"

namespace cvz {

namespace {
bool same(const LaunchShape& a, const LaunchShape& b) { return a.kind == b.kind && a.block == b.block; }
}  // namespace

LaunchSession::LaunchSession(QObject* parent) : QObject(parent) {
    device_ = builtin_device_profiles().first();
    replan();
}

void LaunchSession::setShape(const LaunchShape& shape) {
    if (same(shape, shape_)) return;
    shape_ = shape;
    replan();
    emit shapeChanged(shape_);
    emit planChanged();
    emit frameChanged();
}

void LaunchSession::setImageSize(QSize size) {
    if (size == image_size_) return;
    image_size_ = size;
    replan();
    emit planChanged();
    emit frameChanged();
}

void LaunchSession::setDevice(const DeviceProfile& device) {
    device_ = device;
    replan();
    emit planChanged();
    emit frameChanged();
}

void LaunchSession::replan() {
    const bool valid = image_size_.width() > 0 && image_size_.height() > 0 &&
                       validate_grayscale_launch(shape_, std::uint32_t(image_size_.width()),
                                                 std::uint32_t(image_size_.height()))
                           .empty();
    plan_ = valid ? plan_grayscale_launch(shape_, std::uint32_t(image_size_.width()), std::uint32_t(image_size_.height()))
                  : LaunchPlan{};
    occupancy_ = compute_occupancy(device_, grayscale_block_resources(shape_));
    // Where no block fits, plan_waves still makes one block per SM: the animation keeps working.
    waves_ = plan_waves(plan_.blocks, device_.sm_count, occupancy_.blocks_per_sm);
    position_ = std::min(position_, animationSteps());
    updateSelectedBlock();
}

void LaunchSession::updateSelectedBlock() {
    selected_block_ = -1;
    if (!hasPlan() || selected_pixel_.x() < 0) return;
    const GridCell cell = grid_cell(plan_, selected_pixel_.x(), selected_pixel_.y());
    if (cell.in_grid) selected_block_ = std::int64_t(cell.thread.linear_block);
}

void LaunchSession::setAnimationMode(AnimationMode mode) {
    if (mode == mode_) return;
    mode_ = mode;
    position_ = 0;
    emit planChanged();  // the number of steps changes with the mode
    emit frameChanged();
}

std::uint64_t LaunchSession::animationSteps() const {
    return animation_steps(mode_, waves_, plan_.warps_per_block);
}

void LaunchSession::setAnimationPosition(std::uint64_t position) {
    position = std::min(position, animationSteps());
    if (position == position_) return;
    position_ = position;
    emit frameChanged();
}

AnimationFrame LaunchSession::frame() const {
    return animation_frame(mode_, position_, waves_, selected_block_, plan_.warps_per_block);
}

void LaunchSession::select(QPoint pixel) {
    if (pixel == selected_pixel_) return;
    selected_pixel_ = pixel;
    const std::int64_t before = selected_block_;
    updateSelectedBlock();
    // Stepping through another block's warps starts from its first warp.
    if (mode_ == AnimationMode::Warps && selected_block_ != before) position_ = 0;
    emit frameChanged();
}

}  // namespace cvz
