#pragma once
// A candidate for the fp32 ladder (issue 29): the double buffer's thread tiles and multiply
// (matmul_double_buffer.h: A transposed in shared memory, TM x TN outputs per thread in 4 x 4
// sub-tiles, float4 shared loads of A and B) fed by cp.async through STAGES shared buffers instead of
// through registers. cp.async cannot transpose a 16-byte vector, so A is copied 4 bytes at a time,
// each element to its transposed place: the 32 lanes of a warp copy 8 consecutive k of 4 rows (one
// 32-byte sector of each row), which land on 32 different banks (LDA = BM + 4: k * LDA + r is
// 4k + r modulo 32). B is copied 16 bytes at a time where N allows (vec_b), else 4. No registers
// stage a phase, so the 128-register cap of two blocks an SM leaves the multiply without spills.
// Every output still accumulates over k in order, k = 0, 1, ..., K-1, one fmaf per step from 0, so it
// is bit-identical to matmul_naive; elements past M, N or K are copied as zeros.
#include <cstdint>

#include "../core/index_math.h"
#include "matmul_double_buffer.h"
#include "matmul_problem.h"
#include "mma_tf32.h"

namespace cvz {

// ORDER: the order of a k's TM x TN fmas, as DoubleBufferTiles' (each output still takes one fma a k,
// in k order: the same bytes whatever the order). INTERIOR: a phase wholly inside A and B
// (phase_inside) is copied without bounds checks: the same copies.
template <unsigned BM_, unsigned BN_, unsigned BK_, unsigned TM_, unsigned TN_, unsigned WX_, unsigned STAGES_,
          unsigned ORDER_ = 0, bool INTERIOR_ = false>
struct AsyncStageTiles : DoubleBufferTiles<BM_, BN_, BK_, TM_, TN_, WX_, INTERIOR_, ORDER_> {
    using Base = DoubleBufferTiles<BM_, BN_, BK_, TM_, TN_, WX_, INTERIOR_, ORDER_>;
    static constexpr unsigned STAGES = STAGES_;
    static constexpr unsigned SHARED_FLOATS = STAGES * Base::STAGE_FLOATS;  // each stage: A^T (BK x LDA), then B (BK x BN)
    static constexpr unsigned A_COPIES = BM_ * BK_ / Base::THREADS;        // 4-byte copies of A per thread and stage
    static_assert(A_COPIES * Base::THREADS == BM_ * BK_ && BK_ % 8 == 0 && STAGES >= 2, "whole copies, 8 k per warp row");
};

// Element e of a stage's A copies: 8 consecutive k of a row, rows after rows, then the next 8 k.
template <class S>
CVZ_HD constexpr unsigned async_a_row(unsigned e) { return (e / 8) % S::BM; }
template <class S>
CVZ_HD constexpr unsigned async_a_k(unsigned e) { return (e / (8 * S::BM)) * 8 + e % 8; }

// Issues the copies of the phase starting at k0 into one stage: A element by element to its
// transposed place, B 16 bytes at a time when vec_b (4 bytes otherwise); zeros past the edges. A phase
// wholly inside A and B (INTERIOR tiles only) skips the checks: the same copies.
template <class S, class Ctx>
CVZ_HD void copy_phase_async(const Ctx& ctx, const MatmulProblem& p, float* stage, unsigned tid, std::uint64_t row0,
                             std::uint64_t col0, std::uint64_t k0, bool vec_b) {
    float* const ast = stage;
    float* const bs = stage + S::BK * S::LDA;
    if (phase_inside<S>(p, row0, col0, k0)) {
        CVZ_UNROLL for (unsigned v = 0; v < S::A_COPIES; ++v) {
            const unsigned e = tid + v * S::THREADS;
            const unsigned r = async_a_row<S>(e), kk = async_a_k<S>(e);
            copy_async4(ctx, ast + kk * S::LDA + r, p.a + a_index(p, row0 + r, k0 + kk), true);
        }
        CVZ_UNROLL for (unsigned v = 0; v < S::B_VECS; ++v) {
            const unsigned e = tid + v * S::THREADS;
            const unsigned kr = e / (S::BN / 4), c = (e % (S::BN / 4)) * 4;
            const float* const src = p.b + b_index(p, k0 + kr, col0 + c);
            float* const dst = bs + kr * S::BN + c;
            if (vec_b) {
                copy_async16(ctx, dst, src, true);
            } else {
                CVZ_UNROLL for (unsigned q = 0; q < 4; ++q) copy_async4(ctx, dst + q, src + q, true);
            }
        }
        return;
    }
    CVZ_UNROLL for (unsigned v = 0; v < S::A_COPIES; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const unsigned r = async_a_row<S>(e), kk = async_a_k<S>(e);
        const std::uint64_t gr = row0 + r, gk = k0 + kk;
        const bool in = gr < p.m && gk < p.k;
        copy_async4(ctx, ast + kk * S::LDA + r, in ? p.a + a_index(p, gr, gk) : p.a, in);
    }
    CVZ_UNROLL for (unsigned v = 0; v < S::B_VECS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const unsigned kr = e / (S::BN / 4), c = (e % (S::BN / 4)) * 4;
        const std::uint64_t gk = k0 + kr, gc = col0 + c;
        float* const dst = bs + kr * S::BN + c;
        if (vec_b) {
            const bool in = gk < p.k && gc < p.n;
            copy_async16(ctx, dst, in ? p.b + b_index(p, gk, gc) : p.b, in);
        } else {
            CVZ_UNROLL for (unsigned q = 0; q < 4; ++q) {
                const bool in = gk < p.k && gc + q < p.n;
                copy_async4(ctx, dst + q, in ? p.b + b_index(p, gk, gc + q) : p.b, in);
            }
        }
    }
}

// The body: the first STAGES - 1 phases in flight (a commit group each, empty past the last phase, so
// the waits count the same groups for every K); then for each phase wait for its copies, meet at the
// barrier (after it the phase is in its stage for every thread, and every thread has finished
// multiplying the phase before, whose stage the next copies reuse), issue phase ph + STAGES - 1 and
// multiply phase ph.
template <class S, class Ctx>
CVZ_HD void matmul_async_stages(const Ctx& ctx, const MatmulProblem& p) {
    float* const smem = ctx.template shared<float>();
    const auto [tid, tx, ty, row0, col0, vec_a, vec_b] = thread_tile_start<S>(ctx, p);
    (void)vec_a;
    float acc[S::TM][S::TN];
    CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;
    const std::uint32_t phases = tile_phases(p.k, S::BK);
    CVZ_UNROLL for (unsigned s = 0; s + 1 < S::STAGES; ++s) {
        if (s < phases) copy_phase_async<S>(ctx, p, smem + s * S::STAGE_FLOATS, tid, row0, col0, std::uint64_t(s) * S::BK, vec_b);
        async_commit(ctx);
    }
    for (std::uint32_t ph = 0; ph < phases; ++ph) {
        async_wait<S::STAGES - 2>(ctx);
        ctx.sync();
        const std::uint32_t next = ph + S::STAGES - 1;
        if (next < phases)
            copy_phase_async<S>(ctx, p, smem + (next % S::STAGES) * S::STAGE_FLOATS, tid, row0, col0,
                                std::uint64_t(next) * S::BK, vec_b);
        async_commit(ctx);
        const float* const cur = smem + (ph % S::STAGES) * S::STAGE_FLOATS;
        multiply_phase<S>(ctx, cur, cur + S::BK * S::LDA, tx, ty, acc);
    }
    store_outputs<S>(ctx, p, acc, tx, ty, row0, col0);
}

}  // namespace cvz
