#include "ui/views/overlay_state.h"

#include <algorithm>
#include <cmath>

#include "app/overlay_geometry.h"

namespace cvz {

namespace {

// Full strength from kMinLinePitch (where merging keeps block lines), gone at 2 device pixels.
double fade(double cell_device_px) {
    return std::clamp((cell_device_px - 2.0) / (OverlayState::kMinLinePitch - 2.0), 0.0, 1.0);
}

}  // namespace

QSize OverlayState::extent() const {
    if (!hasPlan()) return QSize(int(plan.width), int(plan.height));
    if (!enabled || !show_idle) return QSize(int(plan.width), int(plan.height));
    const GridExtent e = grid_extent(plan);
    return QSize(int(std::min<std::uint64_t>(e.width, 1u << 30)), int(std::min<std::uint64_t>(e.height, 1u << 30)));
}

QPoint OverlayState::lineMergeFor(const LaunchPlan& plan, double device_px) {
    if (plan.blocks == 0 || plan.width == 0 || device_px <= 0) return {1, 1};
    const double bx = double(plan.shape.block.x) * std::max<std::uint32_t>(1, plan.items_per_thread);
    const double by = plan.shape.block.y, w = plan.width;
    auto groups = [](double pitch_px) { return pitch_px >= kMinLinePitch ? 1 : int(std::ceil(kMinLinePitch / pitch_px)); };
    if (plan.one_d) {
        // The staircase steps every row while a block is shorter than a row: k consecutive blocks
        // reach k*N/w rows down.
        if (device_px >= kMinLinePitch) return {1, 1};
        const int k = std::max(1, int(std::ceil(kMinLinePitch * w / (bx * device_px))));
        return {std::min<int>(k, int(std::min<std::uint64_t>(plan.blocks, 1 << 30))), 1};
    }
    return {std::min(groups(bx * device_px), int(std::max(1u, plan.grid.x))),
            std::min(groups(by * device_px), int(std::max(1u, plan.grid.y)))};
}

QPointF OverlayState::blockLineFade(double device_px) const {
    // A thread covers items_per_thread pixels along x: a block is that many times wider. Merged
    // lines are a group of blocks apart.
    const double bx = double(plan.shape.block.x) * std::max<std::uint32_t>(1, plan.items_per_thread) * line_merge.x();
    const double by = double(plan.shape.block.y) * (plan.one_d ? 1 : line_merge.y()), w = plan.width;
    if (plan.one_d) {
        // A 1-D block is a run of N pixels of the flattened image: N wide while it fits a row, and
        // one row tall (its staircase edges step row by row) unless it spans whole rows.
        return {fade(std::min(bx, w) * device_px), fade(std::max(1.0, bx / std::max(1.0, w)) * device_px)};
    }
    return {fade(bx * device_px), fade(by * device_px)};
}

QPointF OverlayState::warpLineFade(double device_px) const {
    if (linesMerged()) return {0, 0};  // warps are finer than the blocks whose lines were merged
    const double bx = plan.shape.block.x, w = plan.width;
    const double items = std::max<std::uint32_t>(1, plan.items_per_thread);
    if (plan.one_d) return {fade(std::min(32.0 * items, w) * device_px), fade(device_px)};
    // A warp is 32 consecutive threads, x fastest: rows of min(32, blockDim.x) threads, each
    // items_per_thread pixels wide.
    return {fade(std::min(32.0, bx) * items * device_px), fade(std::max(1.0, 32.0 / bx) * device_px)};
}

}  // namespace cvz
