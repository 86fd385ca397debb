#include "app/grayscale/pixel_inspection.h"

#include "kernels/grayscale/grayscale_body.h"

namespace cvz {

PixelInspection inspect_pixel(const LaunchPlan& plan, PixelLayout layout, std::int64_t x, std::int64_t y,
                              const std::uint8_t rgb[3]) {
    PixelInspection r;
    r.x = x;
    r.y = y;
    r.cell = grid_cell(plan, x, y);
    r.pixels = std::uint64_t(plan.width) * plan.height;
    if (!r.cell.in_grid) return r;
    for (unsigned c = 0; c < 3; ++c) r.reads[c] = channel_index(layout, r.cell.thread.global_index, c, r.pixels);
    if (!r.cell.active) return r;  // the guard: no loads, no store
    for (unsigned c = 0; c < 3; ++c) r.rgb[c] = rgb[c];
    r.gray = luma_u8(rgb[0], rgb[1], rgb[2]);
    return r;
}

}  // namespace cvz
