#pragma once
// Split-K (issue 29): for shapes with few output tiles (256 x 4096 x 256 has 4 tiles of 128 x 128 for
// 132 SMs) the grid gets a third dimension: gridDim.z slices of K. Block (x, y, z) runs the double
// buffer's phases of slice z over its tile and writes its partial sums: slice 0 into C, slice z > 0
// into the workspace (p.partials, slice z at (z - 1) * M * N). A second pass (matmul_split_k_reduce)
// then adds them to C in a fixed order, C + P1 + P2 + ... one float add at a time, so the GPU and the
// emulator give the same bytes (no atomics in arbitrary order). The phases are dealt out whole:
// ceil(phases / slices) a slice, the last slices possibly empty (they write zeros).
// Not bit-identical to matmul_naive: an output's sum is a sum of slice sums (exact = false); within
// a slice it is the double buffer's, in k order from 0.
#include <cstdint>

#include "../core/index_math.h"
#include "matmul_double_buffer.h"
#include "matmul_problem.h"

namespace cvz {

// The phases of K (BK each) that slice z of `slices` covers: [*first, *last).
CVZ_HD void split_k_phases(std::uint32_t phases, unsigned slices, unsigned z, std::uint32_t* first, std::uint32_t* last) {
    const std::uint32_t per = (phases + slices - 1) / slices;
    const std::uint64_t f = std::uint64_t(z) * per, l = f + per;
    *first = std::uint32_t(f < phases ? f : phases);
    *last = std::uint32_t(l < phases ? l : phases);
}

// Where slice z's partial sums go: C for slice 0, else its plane of the workspace.
CVZ_HD float* split_k_output(const MatmulProblem& p, unsigned z) {
    return z == 0 ? p.c : p.partials + std::uint64_t(z - 1) * p.m * p.n;
}

// Pass 1: the double buffer's loop over the phases of this block's slice, then its outputs stored
// into the slice's plane. Barrier counts are uniform within a block (every thread has the same z).
template <class S, class Ctx>
CVZ_HD void matmul_split_k(const Ctx& ctx, const MatmulProblem& p) {
    float* const buffers = ctx.template shared<float>();
    const auto [tid, tx, ty, row0, col0, vec_a, vec_b] = thread_tile_start<S>(ctx, p);
    float acc[S::TM][S::TN];
    CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;
    std::uint32_t first = 0, last = 0;
    split_k_phases(tile_phases(p.k, S::BK), ctx.grid_dim().z, ctx.block_idx().z, &first, &last);
    if (first < last) {
        PhaseRegisters<S> regs;
        fetch_phase<S>(ctx, p, regs, tid, row0, col0, std::uint64_t(first) * S::BK, vec_a, vec_b);
        stage_phase<S>(ctx, regs, buffers, buffers + S::BK * S::LDA, tid);
        ctx.sync();
        for (std::uint32_t ph = first; ph < last; ++ph) {
            const std::uint32_t i = ph - first;
            float* const cur = buffers + (i % 2) * S::STAGE_FLOATS;
            float* const next = buffers + ((i + 1) % 2) * S::STAGE_FLOATS;
            const bool more = ph + 1 < last;
            if (more) fetch_phase<S>(ctx, p, regs, tid, row0, col0, std::uint64_t(ph + 1) * S::BK, vec_a, vec_b);
            multiply_phase<S>(ctx, cur, cur + S::BK * S::LDA, tx, ty, acc);
            if (more) {
                stage_phase<S>(ctx, regs, next, next + S::BK * S::LDA, tid);
                ctx.sync();
            }
        }
    }
    MatmulProblem out = p;
    out.c = split_k_output(p, ctx.block_idx().z);
    store_outputs<S>(ctx, out, acc, tx, ty, row0, col0);
}

// Pass 2: one thread per output of a 1-D grid, C = ((C + P1) + P2) + ... in slice order.
constexpr unsigned kSplitKReduceThreads = 256;

template <class Ctx>
CVZ_HD void matmul_split_k_reduce(const Ctx& ctx, const MatmulProblem& p, unsigned slices) {
    const std::uint64_t i = std::uint64_t(ctx.block_idx().x) * ctx.block_dim().x + ctx.thread_idx().x;
    const std::uint64_t outputs = std::uint64_t(p.m) * p.n;
    if (i >= outputs) return;
    float sum = ctx.load(p.c + i);
    for (unsigned z = 1; z < slices; ++z) sum = sum + ctx.load(p.partials + std::uint64_t(z - 1) * outputs + i);
    ctx.store(p.c + i, sum);
}

}  // namespace cvz
