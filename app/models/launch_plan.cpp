#include "app/models/launch_plan.h"

#include <algorithm>

#include "kernels/core/index_math.h"
#include "kernels/grayscale/grayscale_launch.h"

namespace cvz {

bool LaunchPlan::thread_active(Dim3 b, Dim3 t) const {
    const Dim3 bd = shape.block;
    if (one_d) return global_index_1d(b, t, bd) * items_per_thread < std::uint64_t(width) * height;
    return global_col(b, t, bd) * items_per_thread < width && global_row(b, t, bd) < height;
}

ThreadOfPixel LaunchPlan::thread_of_pixel(std::uint32_t x, std::uint32_t y) const {
    ThreadOfPixel r;
    const Dim3 bd = shape.block;
    r.global_index = std::uint64_t(y) * width + x;
    if (one_d) {
        // The thread's global 1-D index; a grid smaller than the image (sized in waves) covers it in
        // passes of its grid-stride loop.
        const std::uint64_t grid_threads = std::max<std::uint64_t>(1, std::uint64_t(grid.x) * bd.x);
        const std::uint64_t chunk = r.global_index / items_per_thread;
        r.pass = std::uint32_t(chunk / grid_threads);
        const std::uint64_t t = chunk % grid_threads;
        r.block = Dim3{unsigned(t / bd.x), 0, 0};
        r.thread = Dim3{unsigned(t % bd.x), 0, 0};
    } else {
        const std::uint64_t rows_per_pass = row_stride(grid, bd);
        r.pass = std::uint32_t(y / rows_per_pass);
        const std::uint64_t yy = y % rows_per_pass;
        const std::uint32_t col = x / items_per_thread;  // the thread's global column
        r.block = Dim3{col / bd.x, unsigned(yy / bd.y), 0};
        r.thread = Dim3{col % bd.x, unsigned(yy % bd.y), 0};
    }
    r.linear_block = linear_block_id(r.block, grid);
    r.linear_thread = linear_thread_id(r.thread, bd);
    r.warp = warp_of(r.thread, bd);
    r.lane = lane_of(r.thread, bd);
    return r;
}

namespace {

struct WarpCounts {
    std::uint64_t active = 0, idle_warps = 0, divergent = 0;
};

// Counts one block's active threads and its idle and divergent warps by visiting its threads.
WarpCounts count_block(const LaunchPlan& p, Dim3 b) {
    WarpCounts c;
    const Dim3 bd = p.shape.block;
    const std::uint64_t n = bd.volume();
    for (std::uint64_t w0 = 0; w0 < n; w0 += kWarpSize) {
        std::uint64_t on = 0, all = 0;
        for (std::uint64_t t = w0; t < n && t < w0 + kWarpSize; ++t, ++all) {
            const Dim3 tid{unsigned(t % bd.x), unsigned((t / bd.x) % bd.y), unsigned(t / (std::uint64_t(bd.x) * bd.y))};
            on += p.thread_active(b, tid);
        }
        c.active += on;
        c.idle_warps += on == 0;
        c.divergent += on != 0 && on != all;
    }
    return c;
}

}  // namespace

LaunchPlan plan_grayscale_launch(const LaunchShape& shape, std::uint32_t width, std::uint32_t height) {
    LaunchPlan p;
    p.shape = shape;
    p.width = width;
    p.height = height;
    p.one_d = is_one_d(shape);
    p.items_per_thread = grayscale_items_per_thread(shape);
    p.grid = grayscale_grid(shape, width, height);
    p.blocks = p.grid.volume();
    p.threads_per_block = shape.block.volume();
    p.total_threads = p.blocks * p.threads_per_block;
    p.warps_per_block = cdiv(p.threads_per_block, kWarpSize);
    p.total_warps = p.blocks * p.warps_per_block;
    p.partial_warps = (p.threads_per_block % kWarpSize) ? p.blocks : 0;
    if (!p.one_d) p.passes = std::uint32_t(cdiv(height, row_stride(p.grid, shape.block)));
    else if (p.total_threads) p.passes = std::uint32_t(std::max<std::uint64_t>(1, cdiv(cdiv(std::uint64_t(width) * height, p.items_per_thread), p.total_threads)));

    // Only the last column and the last row of blocks can hold guarded-off threads; every block of
    // one class (interior, right edge, bottom edge, corner) looks alike, so one of each is visited.
    const std::uint64_t gx = p.grid.x, gy = p.grid.y;
    struct Class {
        Dim3 block;
        std::uint64_t count;
    };
    const Class classes[] = {{Dim3{0, 0, 0}, (gx - 1) * (gy - 1)},
                             {Dim3{unsigned(gx - 1), 0, 0}, gy - 1},
                             {Dim3{0, unsigned(gy - 1), 0}, gx - 1},
                             {Dim3{unsigned(gx - 1), unsigned(gy - 1), 0}, 1}};
    for (const Class& c : classes) {
        if (c.count == 0) continue;
        const WarpCounts w = count_block(p, c.block);
        p.active_threads += w.active * c.count;
        p.idle_warps += w.idle_warps * c.count;
        p.divergent_warps += w.divergent * c.count;
    }
    p.idle_threads = p.total_threads - p.active_threads;
    return p;
}

}  // namespace cvz
