#include "app/models/overlay_geometry.h"

#include <algorithm>

namespace cvz {

GridExtent grid_extent(const LaunchPlan& plan) {
    if (plan.blocks == 0 || plan.width == 0) return {plan.width, plan.height};
    if (plan.one_d)
        return {plan.width,
                std::max<std::uint64_t>(plan.height, cdiv(plan.total_threads * plan.items_per_thread, plan.width))};
    // With gridDim.y capped, the grid-stride loop covers the image's rows: the extent is the image's.
    return {std::max<std::uint64_t>(plan.width, std::uint64_t(plan.grid.x) * plan.shape.block.x * plan.items_per_thread),
            std::max<std::uint64_t>(plan.height, std::uint64_t(plan.grid.y) * plan.shape.block.y)};
}

GridCell grid_cell(const LaunchPlan& plan, std::int64_t x, std::int64_t y) {
    GridCell cell;
    if (x < 0 || y < 0) return cell;
    const GridExtent extent = grid_extent(plan);
    if (std::uint64_t(x) >= extent.width || std::uint64_t(y) >= extent.height) return cell;
    const bool inside = std::uint64_t(x) < plan.width && std::uint64_t(y) < plan.height;
    // In 1-D, past the image only the first total_threads cells of the flattened extent hold a thread;
    // inside it, a grid smaller than the image (sized in waves) reaches every pixel in later passes.
    if (plan.one_d && !inside &&
        std::uint64_t(y) * plan.width + std::uint64_t(x) >= plan.total_threads * plan.items_per_thread)
        return cell;
    cell.in_grid = true;
    cell.inside = inside;
    cell.thread = plan.thread_of_pixel(std::uint32_t(x), std::uint32_t(y));
    cell.active = plan.thread_active(cell.thread.block, cell.thread.thread);
    return cell;
}

}  // namespace cvz
