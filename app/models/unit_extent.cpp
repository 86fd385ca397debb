#include "app/models/unit_extent.h"

#include <algorithm>

#include "kernels/core/index_math.h"

namespace cvz {

namespace {

// Threads [first, end) of block `b` (linear ids within the block, x fastest).
QRect threads_extent(const LaunchPlan& plan, std::uint64_t b, std::uint64_t first, std::uint64_t end) {
    const Dim3 bd = plan.shape.block;
    const std::uint64_t items = std::max<std::uint32_t>(1, plan.items_per_thread);
    if (b >= plan.blocks || first >= end || plan.width == 0) return {};
    if (plan.one_d) {
        // Global thread t covers flat pixels [t * items, (t + 1) * items).
        const std::uint64_t f0 = (b * bd.x + first) * items, f1 = (b * bd.x + end) * items;
        const std::uint64_t w = plan.width;
        const std::uint64_t r0 = f0 / w, r1 = (f1 - 1) / w;
        if (r0 == r1) return QRect(int(f0 % w), int(r0), int(f1 - f0), 1);
        return QRect(0, int(r0), int(w), int(r1 - r0 + 1));
    }
    const std::uint64_t bx = b % plan.grid.x, by = b / plan.grid.x;
    const std::uint64_t ty0 = first / bd.x, ty1 = (end - 1) / bd.x;
    const std::uint64_t tx0 = ty0 == ty1 ? first % bd.x : 0, tx1 = ty0 == ty1 ? (end - 1) % bd.x : bd.x - 1;
    const std::uint64_t x0 = (bx * bd.x + tx0) * items, x1 = (bx * bd.x + tx1 + 1) * items;
    const std::uint64_t y0 = by * bd.y + ty0, y1 = by * bd.y + ty1 + 1;
    return QRect(int(x0), int(y0), int(x1 - x0), int(y1 - y0));
}

}  // namespace

QRect block_extent(const LaunchPlan& plan, std::uint64_t linear_block) {
    return threads_extent(plan, linear_block, 0, plan.threads_per_block);
}

QRect warp_extent(const LaunchPlan& plan, std::uint64_t linear_block, std::uint64_t warp) {
    const std::uint64_t first = warp * kWarpSize;
    return threads_extent(plan, linear_block, first, std::min<std::uint64_t>(first + kWarpSize, plan.threads_per_block));
}

}  // namespace cvz
