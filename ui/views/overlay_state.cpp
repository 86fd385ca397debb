#include "ui/views/overlay_state.h"

#include <algorithm>
#include <cmath>

#include "app/models/overlay_geometry.h"
#include "app/models/unit_extent.h"

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

QRect OverlayState::runningExtent() const {
    if (!animating()) return {};
    const AnimationFrame& a = animation;
    if (a.mode == AnimationMode::Warps) {
        if (a.block < 0 || a.warp_run_end <= a.warp_done_end) return {};
        // Warps of one block run in thread order: the first and the last bound the rows between.
        return warp_extent(plan, std::uint64_t(a.block), a.warp_done_end) |
               warp_extent(plan, std::uint64_t(a.block), a.warp_run_end - 1);
    }
    if (a.run_end <= a.done_end) return {};
    const QRect first = block_extent(plan, a.done_end), last = block_extent(plan, a.run_end - 1);
    QRect r = first | last;
    // Blocks run in linear order, x fastest: a range over several rows of blocks spans the grid's width.
    if (first.top() != last.top() || first.bottom() != last.bottom()) {
        r.setLeft(0);
        r.setRight(std::max(r.right(), extent().width() - 1));
    }
    return r;
}

QRectF OverlayState::focusRing(double device_px) const {
    const QRect r = runningExtent();
    if (r.isEmpty() || device_px <= 0) return {};
    if (std::min(r.width(), r.height()) * device_px >= kFocusMin) return {};
    const double gap = 2 / device_px, min_half = kFocusMin / 2 / device_px;
    const double hx = std::max(r.width() / 2.0, min_half) + gap, hy = std::max(r.height() / 2.0, min_half) + gap;
    const QPointF c = QRectF(r).center();
    return QRectF(c.x() - hx, c.y() - hy, 2 * hx, 2 * hy);
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
