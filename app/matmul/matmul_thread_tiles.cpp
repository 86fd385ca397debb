#include "app/matmul/matmul_thread_tiles.h"

#include <algorithm>
#include <tuple>

namespace cvz {

std::vector<MatrixRect> cover_with_rects(std::vector<std::pair<std::uint32_t, std::uint32_t>> cells) {
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    // Horizontal runs, row by row.
    std::vector<MatrixRect> runs;
    for (const auto& [row, col] : cells) {
        if (!runs.empty() && runs.back().row == row && runs.back().col + runs.back().cols == col) ++runs.back().cols;
        else runs.push_back({row, col, 1, 1});
    }
    // A run extends the rectangle that ends just above it over the same columns.
    std::stable_sort(runs.begin(), runs.end(), [](const MatrixRect& a, const MatrixRect& b) {
        return std::tie(a.col, a.cols, a.row) < std::tie(b.col, b.cols, b.row);
    });
    std::vector<MatrixRect> rects;
    for (const MatrixRect& r : runs) {
        if (!rects.empty() && rects.back().col == r.col && rects.back().cols == r.cols &&
            rects.back().row + rects.back().rows == r.row)
            ++rects.back().rows;
        else
            rects.push_back(r);
    }
    std::sort(rects.begin(), rects.end(), [](const MatrixRect& a, const MatrixRect& b) {
        return std::tie(a.row, a.col) < std::tie(b.row, b.col);
    });
    return rects;
}

MatmulThreadTiles MatmulThreadTiles::of_block(const MemoryTrace& trace, std::uint64_t block, std::uint32_t c_cols) {
    MatmulThreadTiles t;
    t.block_ = block;
    int c_buffer = -1;
    for (std::size_t i = 0; i < trace.buffers.size(); ++i)
        if (trace.buffers[i].space == MemorySpace::Global && trace.buffers[i].name == "C") c_buffer = int(i);
    if (c_buffer < 0 || c_cols == 0) return t;
    for (const MemoryRequest& q : trace.requests) {
        if (q.block != block || q.space != MemorySpace::Global || q.access != Access::Store || q.buffer != c_buffer) continue;
        for (const LaneAccess& a : q.lanes) {
            const std::uint32_t thread = q.warp * 32 + a.lane;
            // A 16-byte store covers four consecutive floats of one row.
            for (std::uint64_t byte = a.offset; byte < a.offset + a.bytes; byte += sizeof(float)) {
                const std::uint64_t element = byte / sizeof(float);
                t.cells_.push_back({std::uint32_t(element / c_cols), std::uint32_t(element % c_cols), thread});
            }
        }
    }
    std::sort(t.cells_.begin(), t.cells_.end(),
              [](const Cell& a, const Cell& b) { return std::tie(a.row, a.col) < std::tie(b.row, b.col); });
    return t;
}

std::optional<std::uint32_t> MatmulThreadTiles::thread_of(std::uint32_t row, std::uint32_t col) const {
    const auto it = std::lower_bound(cells_.begin(), cells_.end(), std::make_pair(row, col),
                                     [](const Cell& c, const std::pair<std::uint32_t, std::uint32_t>& key) {
                                         return std::tie(c.row, c.col) < std::tie(key.first, key.second);
                                     });
    if (it == cells_.end() || it->row != row || it->col != col) return std::nullopt;
    return it->thread;
}

std::vector<MatrixRect> MatmulThreadTiles::cover(bool (*keep)(const Cell&, std::uint32_t), std::uint32_t id) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> cells;
    for (const Cell& c : cells_)
        if (keep(c, id)) cells.emplace_back(c.row, c.col);
    return cover_with_rects(std::move(cells));
}

std::vector<MatrixRect> MatmulThreadTiles::thread_tile(std::uint32_t thread) const {
    return cover([](const Cell& c, std::uint32_t t) { return c.thread == t; }, thread);
}

std::vector<MatrixRect> MatmulThreadTiles::warp_tile(std::uint32_t warp) const {
    return cover([](const Cell& c, std::uint32_t w) { return c.thread / 32 == w; }, warp);
}

std::size_t MatmulThreadTiles::outputs_of_thread(std::uint32_t thread) const {
    return std::size_t(std::count_if(cells_.begin(), cells_.end(), [thread](const Cell& c) { return c.thread == thread; }));
}

}  // namespace cvz
