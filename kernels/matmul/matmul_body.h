#pragma once
// The matmul kernels, each written once (ARCHITECTURE.md, invariant 1): one thread per output element,
// row from y and column from x. Both accumulate in float in the same order, k = 0, 1, ..., K-1, each
// step one fused multiply-add, so naive, tiled, emulator and GPU give the same bytes.
#include <cmath>
#include <cstdint>

#include "../core/index_math.h"
#include "matmul_problem.h"

namespace cvz {

// Naive: each thread reads a row of A and a column of B straight from global memory (K loads each).
template <class Ctx>
CVZ_HD void matmul_naive(const Ctx& ctx, const MatmulProblem& p) {
    const std::uint64_t r = global_row(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    const std::uint64_t c = global_col(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    if (r >= p.m || c >= p.n) return;
    float acc = 0.0f;
    for (std::uint32_t i = 0; i < p.k; ++i)
        acc = fmaf(ctx.load(p.a + a_index(p, r, i)), ctx.load(p.b + b_index(p, i, c)), acc);
    ctx.store(p.c + c_index(p, r, c), acc);
}

// Which phase of the tiled kernel a barrier ends: the lesson removes the second one.
struct TiledOptions {
    bool second_barrier = true;  // false: the race of a missing __syncthreads() after the multiply
};

// Number of phases (tiles along K) of the tiled kernel.
CVZ_HD constexpr std::uint32_t tile_phases(std::uint32_t k, std::uint32_t tile) { return (k + tile - 1) / tile; }

// Shared-memory tiled: a TILE x TILE block stages a tile of A and a tile of B per phase in shared
// memory (each thread loads one element of each), __syncthreads(), multiplies the tiles from shared
// memory, __syncthreads() again before the next phase overwrites them. Elements past M, N or K load
// as zero, so any shape works; their products add exactly zero.
template <unsigned TILE, class Ctx>
CVZ_HD void matmul_tiled(const Ctx& ctx, const MatmulProblem& p, TiledOptions opt = {}) {
    float* as = ctx.template shared<float>();   // TILE x TILE tile of A
    float* bs = as + TILE * TILE;                // TILE x TILE tile of B
    const unsigned tx = ctx.thread_idx().x, ty = ctx.thread_idx().y;
    const std::uint64_t r = global_row(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    const std::uint64_t c = global_col(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    float acc = 0.0f;
    for (std::uint32_t ph = 0; ph < tile_phases(p.k, TILE); ++ph) {
        const std::uint64_t ka = std::uint64_t(ph) * TILE + tx;  // column of A this thread stages
        const std::uint64_t kb = std::uint64_t(ph) * TILE + ty;  // row of B this thread stages
        ctx.store(as + ty * TILE + tx, (r < p.m && ka < p.k) ? ctx.load(p.a + a_index(p, r, ka)) : 0.0f);
        ctx.store(bs + ty * TILE + tx, (kb < p.k && c < p.n) ? ctx.load(p.b + b_index(p, kb, c)) : 0.0f);
        ctx.sync();
        for (unsigned i = 0; i < TILE; ++i) acc = fmaf(ctx.load(as + ty * TILE + i), ctx.load(bs + i * TILE + tx), acc);
        if (opt.second_barrier) ctx.sync();
    }
    if (r < p.m && c < p.n) ctx.store(p.c + c_index(p, r, c), acc);
}

}  // namespace cvz
