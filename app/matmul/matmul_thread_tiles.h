#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "app/matmul/matmul_phase_model.h"
#include "kernels/trace/memory_trace.h"

namespace cvz {

// Which thread of a block computes each element of the block's output tile, read off the block's
// traced stores to C: exact for every variant, whatever pattern its threads cover their tile in (one
// output a thread for the lecture's kernels, a TM x TN register tile for the blocktiled ones, several
// sub-tiles a thread for the warptiled one). Threads are linear ids t = tx + ty*bx, warps t / 32, as
// the trace counts them. The matrix view draws a thread's and a warp's tiles from it.
class MatmulThreadTiles {
public:
    MatmulThreadTiles() = default;

    // From a trace that kept block `block` (a linear id) of a launch whose C has `c_cols` columns;
    // empty when the trace did not keep that block (or it stores nothing: an empty tile).
    static MatmulThreadTiles of_block(const MemoryTrace& trace, std::uint64_t block, std::uint32_t c_cols);

    bool empty() const { return cells_.empty(); }
    std::uint64_t block() const { return block_; }
    std::size_t outputs() const { return cells_.size(); }

    // The thread that stores C[row, col]; nothing when no thread of this block does.
    std::optional<std::uint32_t> thread_of(std::uint32_t row, std::uint32_t col) const;
    // The elements a thread stores, and those a warp's threads store, as few disjoint rectangles
    // (horizontal runs, merged down the rows where they line up), top to bottom.
    std::vector<MatrixRect> thread_tile(std::uint32_t thread) const;
    std::vector<MatrixRect> warp_tile(std::uint32_t warp) const;
    std::size_t outputs_of_thread(std::uint32_t thread) const;

private:
    struct Cell {
        std::uint32_t row, col, thread;
    };
    std::vector<MatrixRect> cover(bool (*keep)(const Cell&, std::uint32_t), std::uint32_t id) const;

    std::uint64_t block_ = 0;
    std::vector<Cell> cells_;  // by row, then column; one per element stored
};

// The rectangles that cover a set of elements exactly and without overlap: each row's horizontal runs,
// a run merged with the one below it when both span the same columns. `cells` as (row, col) pairs in
// any order; duplicates count once.
std::vector<MatrixRect> cover_with_rects(std::vector<std::pair<std::uint32_t, std::uint32_t>> cells);

}  // namespace cvz
