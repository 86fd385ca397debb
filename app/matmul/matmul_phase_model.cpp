#include "app/matmul/matmul_phase_model.h"

#include <algorithm>

#include "kernels/core/index_math.h"
#include "kernels/matmul/matmul_body.h"

namespace cvz {

MatmulThread matmul_thread_of_element(const MatmulLaunch& launch, std::uint32_t row, std::uint32_t col) {
    const Dim3 b = launch.block_shape();
    const Dim3 per = matmul_output_tile(launch);
    MatmulThread t;
    if (b.x == 0 || b.y == 0 || per.x == 0 || per.y == 0) return t;
    t.block = Dim3{col / per.x, row / per.y, 0};
    // One output per thread: the inverse of r = blockIdx.y*blockDim.y + threadIdx.y, c = ...x. A
    // register-tiled block spreads its outputs over its threads in the variant's own pattern.
    t.one_output_per_thread = per.x == b.x && per.y == b.y;
    if (t.one_output_per_thread) t.thread = Dim3{col % b.x, row % b.y, 0};
    return t;
}

MatmulPhaseModel::MatmulPhaseModel(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n)
    : launch_(launch), m_(m), k_(k), n_(n) {
    valid_ = validate_matmul_launch(launch, m, k, n).empty();
    if (valid_) grid_ = matmul_grid(launch, m, n);
    k_slice_ = matmul_k_slice(launch);
}

bool MatmulPhaseModel::closed_form_counters() const {
    return launch_.kernel == MatmulVariant::Naive || launch_.kernel == MatmulVariant::Tiled;
}

std::uint32_t MatmulPhaseModel::naive_chunk() const { return std::max<std::uint32_t>(1, k_ / 32); }

std::uint32_t MatmulPhaseModel::phases() const {
    if (!valid_) return 0;
    if (staged()) return tile_phases(k_, k_slice_);
    return std::uint32_t(cdiv(k_, naive_chunk()));
}

int MatmulPhaseModel::steps() const { return int(staged() ? phases() * 3 : phases()); }

MatrixRect MatmulPhaseModel::output_tile(Dim3 block) const {
    const Dim3 b = matmul_output_tile(launch_);
    if (!valid_ || block.x >= grid_.x || block.y >= grid_.y) return {};
    const std::uint64_t row = std::uint64_t(block.y) * b.y, col = std::uint64_t(block.x) * b.x;
    return {std::uint32_t(row), std::uint32_t(col), std::uint32_t(std::min<std::uint64_t>(b.y, m_ - row)),
            std::uint32_t(std::min<std::uint64_t>(b.x, n_ - col))};
}

namespace {

// How many of the first `phases` phases let thread offset t (threadIdx.x for A, .y for B) load an
// element: the kernel's guard ph*TILE + t < K.
std::uint64_t guarded_phase_loads(std::uint32_t phases, std::uint32_t t, std::uint32_t k, std::uint32_t tile) {
    if (t >= k) return 0;
    return std::min<std::uint64_t>(phases, cdiv(k - t, tile));
}

}  // namespace

MatmulStepCounters MatmulPhaseModel::counters(std::uint32_t loaded, std::uint32_t multiplied, bool stored, Dim3 block,
                                              Dim3 thread) const {
    MatmulStepCounters c;
    const MatrixRect tile = output_tile(block);
    const Dim3 bdim = launch_.block_shape();
    // Asked of the kernels' own index functions, so the counters follow the same mapping.
    const std::uint64_t r = global_row(block, thread, bdim), col = global_col(block, thread, bdim);
    const bool active = r < m_ && col < n_ && !tile.empty();
    if (stored) {
        c.block_global_stores = std::uint64_t(tile.rows) * tile.cols;
        c.thread_global_stores = active ? 1 : 0;
    }
    if (!closed_form_counters()) {  // the register-tiled kernels: counted off the trace by the page
        c.k_done = staged() ? std::uint32_t(std::min<std::uint64_t>(k_, std::uint64_t(multiplied) * k_slice_)) : loaded;
        return c;
    }
    if (launch_.kernel == MatmulVariant::Naive) {
        // `loaded` counts terms: a thread loads one element of A and one of B per term.
        c.k_done = loaded;
        c.block_global_loads = std::uint64_t(tile.rows) * tile.cols * 2 * loaded;
        c.thread_global_loads = active ? 2ull * loaded : 0;
        return c;
    }
    const std::uint32_t t = launch_.tile;
    c.k_done = std::uint32_t(std::min<std::uint64_t>(k_, std::uint64_t(multiplied) * t));
    if (tile.empty()) return c;
    // Per phase the block loads its rows of A and its columns of B over the phase's K-slice; every
    // thread, guarded off or not, then reads 2*TILE values from shared memory.
    const std::uint64_t k_loaded = std::min<std::uint64_t>(k_, std::uint64_t(loaded) * t);
    c.block_global_loads = (std::uint64_t(tile.rows) + tile.cols) * k_loaded;
    c.thread_global_loads = (r < m_ ? guarded_phase_loads(loaded, thread.x, k_, t) : 0) +
                            (col < n_ ? guarded_phase_loads(loaded, thread.y, k_, t) : 0);
    c.thread_shared_loads = std::uint64_t(multiplied) * 2 * t;
    c.block_shared_loads = c.thread_shared_loads * t * t;
    return c;
}

MatmulStep MatmulPhaseModel::step(int position, Dim3 block, Dim3 thread) const {
    MatmulStep s;
    if (!valid_) return s;
    const int last = steps();
    position = std::clamp(position, 0, last);
    s.phases = phases();
    s.c_tile = output_tile(block);
    const MatrixRect& tile = s.c_tile;
    const bool tiled = staged();
    if (position == last) {
        s.stage = MatmulStage::Done;
        s.phase = s.phases;
        s.k_end = k_;
        s.a_done = {tile.row, 0, tile.rows, k_};
        s.b_done = {0, tile.col, k_, tile.cols};
        s.counters = counters(tiled ? s.phases : k_, s.phases, true, block, thread);
        return s;
    }
    std::uint32_t loaded = 0, multiplied = 0, slice = 0;
    if (tiled) {
        slice = k_slice_;
        s.phase = std::uint32_t(position / 3);
        s.stage = position % 3 == 0 ? MatmulStage::Load : position % 3 == 1 ? MatmulStage::Multiply : MatmulStage::Barrier;
        loaded = s.phase + 1;
        multiplied = s.phase + (s.stage == MatmulStage::Load ? 0 : 1);
    } else {
        slice = naive_chunk();
        s.phase = std::uint32_t(position);
        s.stage = MatmulStage::NaiveChunk;
    }
    s.k_begin = s.phase * slice;
    s.k_end = std::min(k_, s.k_begin + slice);
    if (!tiled) loaded = multiplied = s.k_end;
    s.counters = counters(loaded, multiplied, false, block, thread);
    s.a_current = {tile.row, s.k_begin, tile.rows, s.k_end - s.k_begin};
    s.b_current = {s.k_begin, tile.col, s.k_end - s.k_begin, tile.cols};
    s.a_done = {tile.row, 0, tile.rows, s.counters.k_done};
    s.b_done = {0, tile.col, s.counters.k_done, tile.cols};
    if (tile.empty()) s.a_current = s.b_current = s.a_done = s.b_done = {};
    return s;
}

}  // namespace cvz
