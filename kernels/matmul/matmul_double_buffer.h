#pragma once
// The matmul ladder's double-buffered blocktile: matmul_blocktile_vec's tiles, with the three things
// that the H200 profile of that kernel asked for:
//  - two shared buffers and the next phase's tiles fetched into registers while the current phase
//    multiplies, so global latency hides behind arithmetic and one barrier per phase suffices;
//  - each thread's TM x TN outputs split into (TM/4) x (TN/4) sub-tiles of 4 x 4, spaced BM*4/TM rows
//    and BN*4/TN columns apart, so that the lanes of a warp read consecutive float4 of a shared row
//    (no bank conflicts) and store consecutive float4 of C;
//  - the transposed A tile padded by 4 floats a row: at BK = 8 its staging is free of bank conflicts;
//    at BK = 16 (the catalogue's) a warp's stores span four k, two of them on each half of the banks,
//    a 2-way conflict on the A stores that BK = 16's fewer barriers outweigh (3% faster at 4096^3).
// Every output still accumulates over k in order, k = 0, 1, ..., K-1, one fmaf per step from 0, so it
// is bit-identical to matmul_naive; elements past M, N or K load as zero (see matmul_blocktiling.h).
#include <cmath>
#include <cstdint>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "matmul_blocktiling.h"
#include "matmul_problem.h"

namespace cvz {

// The shape of a double-buffered blocktile: BM x BN outputs per block, BK per phase, TM x TN per
// thread; WX threads of a warp lie along N (32 / WX along M).
// INTERIOR: a phase whose tiles lie wholly inside A and B (the block's rows and columns inside M and N,
// and k0 + BK <= K) is read without bounds checks (phase_inside); the edges keep them.
// ORDER: the order of a k's TM x TN fmas (each output still takes one fma a k, so the sums are the
// same whatever the order): 0 row by row, 1 row by row with every other row backwards (one factor
// of A and one of B carried over at each turn), 2 column by column, 3 columns with every other one
// backwards. Which registers the compiler gives the fragments and sums follows from it.
template <unsigned BM_, unsigned BN_, unsigned BK_, unsigned TM_, unsigned TN_, unsigned WX_, bool INTERIOR_ = false,
          unsigned ORDER_ = 0>
struct DoubleBufferTiles {
    static constexpr unsigned BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_, WX = WX_;
    static constexpr bool INTERIOR = INTERIOR_;
    static constexpr unsigned ORDER = ORDER_;
    static constexpr unsigned TX = BN / TN, TY = BM / TM;  // threads along N and M
    static constexpr unsigned THREADS = TX * TY;
    static constexpr unsigned LDA = BM + 4;                 // row of the transposed A tile, padded
    static constexpr unsigned A_VECS = BM * BK / 4 / THREADS, B_VECS = BK * BN / 4 / THREADS;  // float4 per thread
    static constexpr unsigned STAGE_FLOATS = BK * LDA + BK * BN;                                // one buffer
    static constexpr unsigned SUB_M = BM * 4 / TM, SUB_N = BN * 4 / TN;  // distance between a thread's sub-tiles
    static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "4 x 4 sub-tiles and float4 staging");
    static_assert(A_VECS * THREADS * 4 == BM * BK && B_VECS * THREADS * 4 == BK * BN, "whole float4 per thread");
    static_assert(THREADS % 32 == 0 && TX % WX == 0 && 32 % WX == 0, "warps tile the thread grid");
};

// One phase's tiles in flight: the float4 of A (four consecutive k of one row) and of B (four
// consecutive columns of one row) this thread stages.
template <class S>
struct PhaseRegisters {
    Float4 a[S::A_VECS];
    Float4 b[S::B_VECS];
};

// Whether the phase starting at k0 lies wholly inside A and B for this block (only asked of INTERIOR
// tiles; the same for every thread of the block).
template <class S>
CVZ_HD bool phase_inside(const MatmulProblem& p, std::uint64_t row0, std::uint64_t col0, std::uint64_t k0) {
    return S::INTERIOR && row0 + S::BM <= p.m && col0 + S::BN <= p.n && k0 + S::BK <= p.k;
}

// Reads the phase starting at k0 into registers: float4 loads when vec_a / vec_b (K resp. N a
// multiple of 4, the matrix 16-byte aligned) and the four are inside, else element by element with
// zeros past the edges. A phase wholly inside (phase_inside) skips the checks: the same loads.
template <class S, class Ctx>
CVZ_HD void fetch_phase(const Ctx& ctx, const MatmulProblem& p, PhaseRegisters<S>& regs, unsigned tid, std::uint64_t row0,
                        std::uint64_t col0, std::uint64_t k0, bool vec_a, bool vec_b) {
    if (phase_inside<S>(p, row0, col0, k0)) {
        CVZ_UNROLL for (unsigned v = 0; v < S::A_VECS; ++v) {
            const unsigned e = tid + v * S::THREADS;
            const float* const src = p.a + a_index(p, row0 + e / (S::BK / 4), k0 + (e % (S::BK / 4)) * 4);
            if (vec_a) regs.a[v] = ctx.load(reinterpret_cast<const Float4*>(src));
            else regs.a[v] = Float4{ctx.load(src), ctx.load(src + 1), ctx.load(src + 2), ctx.load(src + 3)};
        }
        CVZ_UNROLL for (unsigned v = 0; v < S::B_VECS; ++v) {
            const unsigned e = tid + v * S::THREADS;
            const float* const src = p.b + b_index(p, k0 + e / (S::BN / 4), col0 + (e % (S::BN / 4)) * 4);
            if (vec_b) regs.b[v] = ctx.load(reinterpret_cast<const Float4*>(src));
            else regs.b[v] = Float4{ctx.load(src), ctx.load(src + 1), ctx.load(src + 2), ctx.load(src + 3)};
        }
        return;
    }
    CVZ_UNROLL for (unsigned v = 0; v < S::A_VECS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const std::uint64_t gr = row0 + e / (S::BK / 4), gk = k0 + (e % (S::BK / 4)) * 4;
        Float4& f = regs.a[v];
        if (vec_a && gr < p.m && gk < p.k) {
            f = ctx.load(reinterpret_cast<const Float4*>(p.a + a_index(p, gr, gk)));
        } else {
            const bool in = gr < p.m;
            f.x = (in && gk + 0 < p.k) ? ctx.load(p.a + a_index(p, gr, gk + 0)) : 0.0f;
            f.y = (in && gk + 1 < p.k) ? ctx.load(p.a + a_index(p, gr, gk + 1)) : 0.0f;
            f.z = (in && gk + 2 < p.k) ? ctx.load(p.a + a_index(p, gr, gk + 2)) : 0.0f;
            f.w = (in && gk + 3 < p.k) ? ctx.load(p.a + a_index(p, gr, gk + 3)) : 0.0f;
        }
    }
    CVZ_UNROLL for (unsigned v = 0; v < S::B_VECS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const std::uint64_t gk = k0 + e / (S::BN / 4), gc = col0 + (e % (S::BN / 4)) * 4;
        Float4& f = regs.b[v];
        if (vec_b && gk < p.k && gc < p.n) {
            f = ctx.load(reinterpret_cast<const Float4*>(p.b + b_index(p, gk, gc)));
        } else {
            const bool in = gk < p.k;
            f.x = (in && gc + 0 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 0)) : 0.0f;
            f.y = (in && gc + 1 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 1)) : 0.0f;
            f.z = (in && gc + 2 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 2)) : 0.0f;
            f.w = (in && gc + 3 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 3)) : 0.0f;
        }
    }
}

// Writes the fetched phase into one buffer: A transposed (ast[k][row], rows LDA apart), B as it is.
template <class S, class Ctx>
CVZ_HD void stage_phase(const Ctx& ctx, const PhaseRegisters<S>& regs, float* ast, float* bs, unsigned tid) {
    CVZ_UNROLL for (unsigned v = 0; v < S::A_VECS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const unsigned r = e / (S::BK / 4), kk = (e % (S::BK / 4)) * 4;
        ctx.store(ast + (kk + 0) * S::LDA + r, regs.a[v].x);
        ctx.store(ast + (kk + 1) * S::LDA + r, regs.a[v].y);
        ctx.store(ast + (kk + 2) * S::LDA + r, regs.a[v].z);
        ctx.store(ast + (kk + 3) * S::LDA + r, regs.a[v].w);
    }
    CVZ_UNROLL for (unsigned v = 0; v < S::B_VECS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const unsigned kk = e / (S::BN / 4), c = (e % (S::BN / 4)) * 4;
        ctx.store(reinterpret_cast<Float4*>(bs + kk * S::BN + c), regs.b[v]);
    }
}

// This thread's place in the thread grid: lane % WX along N, lane / WX along M, warps side by side.
template <class S>
CVZ_HD void thread_position(unsigned tid, unsigned* tx, unsigned* ty) {
    constexpr unsigned WY = 32 / S::WX, WARPS_X = S::TX / S::WX;
    const unsigned warp = tid / 32, lane = tid % 32;
    *tx = (warp % WARPS_X) * S::WX + lane % S::WX;
    *ty = (warp / WARPS_X) * WY + lane / S::WX;
}

// Where a thread-tile body starts: the thread's index and place in the thread grid, the block's first
// row and column of C, and whether A's and B's rows are read as float4 (K % 4 == 0 and A aligned; N
// likewise): how split-K and the cp.async candidate start (the double buffer too, written out there).
struct ThreadTileStart {
    unsigned tid, tx, ty;
    std::uint64_t row0, col0;
    bool vec_a, vec_b;
};
template <class S, class Ctx>
CVZ_HD ThreadTileStart thread_tile_start(const Ctx& ctx, const MatmulProblem& p) {
    ThreadTileStart t{};
    t.tid = ctx.thread_idx().x;
    thread_position<S>(t.tid, &t.tx, &t.ty);
    t.row0 = std::uint64_t(ctx.block_idx().y) * S::BM;
    t.col0 = std::uint64_t(ctx.block_idx().x) * S::BN;
    t.vec_a = p.k % 4 == 0 && is_aligned16(p.a);
    t.vec_b = p.n % 4 == 0 && is_aligned16(p.b);
    return t;
}

// Row (of the block tile) of output row i of thread row ty, and column of output column j of thread
// column tx: 4 x 4 sub-tiles, SUB_M rows and SUB_N columns apart.
template <class S>
CVZ_HD constexpr unsigned tile_row(unsigned ty, unsigned i) { return (i / 4) * S::SUB_M + ty * 4 + i % 4; }
template <class S>
CVZ_HD constexpr unsigned tile_col(unsigned tx, unsigned j) { return (j / 4) * S::SUB_N + tx * 4 + j % 4; }

// The phase's products from one buffer: for each k, the thread's TM values of A and TN of B as
// float4 shared loads, then TM x TN fmas.
template <class S, class Ctx>
CVZ_HD void multiply_phase(const Ctx& ctx, const float* ast, const float* bs, unsigned tx, unsigned ty,
                           float (&acc)[S::TM][S::TN]) {
    CVZ_UNROLL for (unsigned d = 0; d < S::BK; ++d) {
        float reg_m[S::TM], reg_n[S::TN];
        CVZ_UNROLL for (unsigned i = 0; i < S::TM; i += 4) {
            const Float4 f = ctx.load(reinterpret_cast<const Float4*>(ast + d * S::LDA + tile_row<S>(ty, i)));
            reg_m[i] = f.x, reg_m[i + 1] = f.y, reg_m[i + 2] = f.z, reg_m[i + 3] = f.w;
        }
        CVZ_UNROLL for (unsigned j = 0; j < S::TN; j += 4) {
            const Float4 f = ctx.load(reinterpret_cast<const Float4*>(bs + d * S::BN + tile_col<S>(tx, j)));
            reg_n[j] = f.x, reg_n[j + 1] = f.y, reg_n[j + 2] = f.z, reg_n[j + 3] = f.w;
        }
        if constexpr (S::ORDER == 0) {
            CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i)
                CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
        } else if constexpr (S::ORDER == 1) {
            CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) CVZ_UNROLL for (unsigned jj = 0; jj < S::TN; ++jj) {
                const unsigned j = i % 2 ? S::TN - 1 - jj : jj;
                acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
            }
        } else if constexpr (S::ORDER == 2) {
            CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j)
                CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
        } else {
            CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) CVZ_UNROLL for (unsigned ii = 0; ii < S::TM; ++ii) {
                const unsigned i = j % 2 ? S::TM - 1 - ii : ii;
                acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
            }
        }
    }
}

// Writes the thread's outputs: float4 stores when N is a multiple of 4, C is 16-byte aligned and the
// four are inside; else element by element, only those inside.
template <class S, class Ctx>
CVZ_HD void store_outputs(const Ctx& ctx, const MatmulProblem& p, const float (&acc)[S::TM][S::TN], unsigned tx,
                          unsigned ty, std::uint64_t row0, std::uint64_t col0) {
    const bool vec_c = p.n % 4 == 0 && is_aligned16(p.c);
    CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < S::TN; j += 4) {
        const std::uint64_t r = row0 + tile_row<S>(ty, i), c = col0 + tile_col<S>(tx, j);
        if (r >= p.m) continue;
        if (vec_c && c < p.n) {
            ctx.store(reinterpret_cast<Float4*>(p.c + c_index(p, r, c)), Float4{acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]});
        } else {
            CVZ_UNROLL for (unsigned q = 0; q < 4; ++q)
                if (c + q < p.n) ctx.store(p.c + c_index(p, r, c + q), acc[i][j + q]);
        }
    }
}

// The body: stage phase 0, then for each phase fetch the next one into registers, multiply the
// current buffer, write the fetched phase into the other buffer and meet at one barrier. The barrier
// also keeps the next phase's writes off the buffer until every thread has multiplied from it: a
// buffer is written in phase ph only after the barrier of phase ph-1, which every thread reaches
// after its last read of that buffer (in phase ph-1).
template <class S, class Ctx>
CVZ_HD void matmul_double_buffer(const Ctx& ctx, const MatmulProblem& p) {
    float* const buffers = ctx.template shared<float>();  // two of STAGE_FLOATS: ast (BK x LDA), then bs (BK x BN)
    // Its own start rather than thread_tile_start: with the helper, nvcc emitted this loop's phase
    // counter differently (PTX, 2026-12-03), and the rung cannot be re-timed on the GPU now.
    const unsigned tid = ctx.thread_idx().x;
    unsigned tx = 0, ty = 0;
    thread_position<S>(tid, &tx, &ty);
    const std::uint64_t row0 = std::uint64_t(ctx.block_idx().y) * S::BM, col0 = std::uint64_t(ctx.block_idx().x) * S::BN;
    const bool vec_a = p.k % 4 == 0 && is_aligned16(p.a);
    const bool vec_b = p.n % 4 == 0 && is_aligned16(p.b);
    float acc[S::TM][S::TN];
    CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;
    const std::uint32_t phases = tile_phases(p.k, S::BK);
    PhaseRegisters<S> regs;
    fetch_phase<S>(ctx, p, regs, tid, row0, col0, 0, vec_a, vec_b);
    stage_phase<S>(ctx, regs, buffers, buffers + S::BK * S::LDA, tid);
    ctx.sync();
    for (std::uint32_t ph = 0; ph < phases; ++ph) {
        float* const cur = buffers + (ph % 2) * S::STAGE_FLOATS;
        float* const next = buffers + ((ph + 1) % 2) * S::STAGE_FLOATS;
        const bool more = ph + 1 < phases;
        if (more) fetch_phase<S>(ctx, p, regs, tid, row0, col0, std::uint64_t(ph + 1) * S::BK, vec_a, vec_b);
        multiply_phase<S>(ctx, cur, cur + S::BK * S::LDA, tx, ty, acc);
        if (more) {
            stage_phase<S>(ctx, regs, next, next + S::BK * S::LDA, tid);
            ctx.sync();
        }
    }
    store_outputs<S>(ctx, p, acc, tx, ty, row0, col0);
}

}  // namespace cvz
