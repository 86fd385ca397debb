#pragma once
#include <cstdint>

#include "kernels/core/dim3.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

// A rectangle of matrix elements: rows [row, row + rows), columns [col, col + cols).
struct MatrixRect {
    std::uint32_t row = 0;
    std::uint32_t col = 0;
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
    bool empty() const { return rows == 0 || cols == 0; }
};

// The thread that computes output element (row, col) of C: the inverse of the kernels'
// r = blockIdx.y*blockDim.y + threadIdx.y, c = blockIdx.x*blockDim.x + threadIdx.x.
// The block is the variant's: its output tile (matmul_output_tile) is blockDim for the lecture's
// kernels and the block tile (BN x BM) for the register-tiled ones.
struct MatmulThread {
    Dim3 block{0, 0, 0};
    Dim3 thread{0, 0, 0};               // valid when one_output_per_thread
    bool one_output_per_thread = true;  // false for a register-tiled variant: its thread is not modeled here
};
MatmulThread matmul_thread_of_element(const MatmulLaunch& launch, std::uint32_t row, std::uint32_t col);

// Loads and stores counted from the start of the kernel up to and including the shown step, for one
// block and one of its threads. Guarded-off accesses (past M, N or K) are not counted, exactly as
// the kernel bodies skip them, so the sums over all blocks equal predicted_matmul_traffic.
struct MatmulStepCounters {
    std::uint64_t block_global_loads = 0;
    std::uint64_t thread_global_loads = 0;
    std::uint64_t block_shared_loads = 0;
    std::uint64_t thread_shared_loads = 0;
    std::uint64_t block_global_stores = 0;
    std::uint64_t thread_global_stores = 0;
    std::uint32_t k_done = 0;  // dot-product terms accumulated into each output so far
};

enum class MatmulStage {
    NaiveChunk,  // naive: each thread adds the next chunk of k to its dot product
    Load,        // tiled: each thread copies one element of A and one of B into shared memory
    Multiply,    // tiled: __syncthreads(), then TILE fused multiply-adds from shared memory
    Barrier,     // tiled: the second __syncthreads() (or, removed, the race into the next phase)
    Done,        // every thread stores its sum into C
};

// What one position of the animation shows, in element coordinates of A (M x K), B (K x N) and
// C (M x N), for one selected block.
struct MatmulStep {
    MatmulStage stage = MatmulStage::Done;
    std::uint32_t phase = 0;    // tiled: the current phase; naive: the chunk index
    std::uint32_t phases = 0;   // tiled: tile_phases(K, TILE); naive: the number of chunks
    std::uint32_t k_begin = 0;  // the K-slice this step works on: [k_begin, k_end)
    std::uint32_t k_end = 0;
    MatrixRect c_tile;     // the block's output tile, clipped to C
    MatrixRect a_current;  // the block's rows x this step's K-slice (the staged tile of A)
    MatrixRect b_current;  // this step's K-slice x the block's columns (the staged tile of B)
    MatrixRect a_done;     // the block's rows x the K already accumulated
    MatrixRect b_done;
    MatmulStepCounters counters;
};

// The animation of a matmul launch over an M x K @ K x N problem, for one selected block at a time.
// Staged through shared memory (tiled, blocktiled, warptiled, double-buffered): three steps per phase
// of k_slice() (position = phase*3 + {load, multiply, barrier}). Naive: the dot product in chunks of
// max(1, K/32). Positions run from 0 to steps(); steps() itself is "done".
class MatmulPhaseModel {
public:
    MatmulPhaseModel() = default;
    MatmulPhaseModel(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n);

    const MatmulLaunch& launch() const { return launch_; }
    std::uint32_t m() const { return m_; }
    std::uint32_t k() const { return k_; }
    std::uint32_t n() const { return n_; }
    Dim3 grid() const { return grid_; }
    bool valid() const { return valid_; }
    // A kernel that stages K through shared memory (matmul_k_slice > 0) is animated phase by phase.
    bool staged() const { return k_slice_ > 0; }
    std::uint32_t k_slice() const { return k_slice_; }
    // The step counters are closed forms for the lecture's kernels (naive, tiled); for the others
    // they hold k_done only, and the page counts the accesses off the trace (matmul_traced_counters).
    bool closed_form_counters() const;

    int steps() const;
    std::uint32_t naive_chunk() const;  // terms per naive step
    std::uint32_t phases() const;       // tiled phases, or naive chunks

    // `block` and `thread` select whose counters are reported; positions are clamped to [0, steps()].
    MatmulStep step(int position, Dim3 block, Dim3 thread) const;

    // The block's output tile, clipped to C (empty for a block outside the grid).
    MatrixRect output_tile(Dim3 block) const;

private:
    MatmulStepCounters counters(std::uint32_t loaded, std::uint32_t multiplied, bool stored, Dim3 block,
                                Dim3 thread) const;

    MatmulLaunch launch_;
    std::uint32_t m_ = 0, k_ = 0, n_ = 0;
    Dim3 grid_{0, 0, 1};
    bool valid_ = false;
    std::uint32_t k_slice_ = 0;
};

}  // namespace cvz
