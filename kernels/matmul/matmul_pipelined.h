#pragma once
// A candidate for the fp32 ladder's top rung (measured in bench_matmul_gpu_tc_configs, not in the
// catalogue): the double buffer's thread tiles (8 x 8 outputs in 4 x 4 sub-tiles, matmul_double_buffer.h)
// fed by cp.async through STAGES shared buffers instead of through registers, as the tensor-core
// rungs are (copy_tile_async: A as BM rows of BK, padded; B as BK rows of BN). A is not transposed:
// a thread reads four consecutive k of each of its rows as one float4, then for each of those k its
// TN values of B. Every output still accumulates over k in order, k = 0, 1, ..., K-1, one fmaf per
// step from 0: bit-identical to matmul_naive.
#include <cmath>
#include <cstdint>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "matmul_double_buffer.h"
#include "matmul_tensor_core.h"

namespace cvz {

template <unsigned BM_, unsigned BN_, unsigned BK_, unsigned TM_, unsigned TN_, unsigned WX_, unsigned STAGES_>
struct PipelinedTiles {
    static constexpr unsigned BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_, WX = WX_, STAGES = STAGES_;
    static constexpr unsigned TX = BN / TN, TY = BM / TM, THREADS = TX * TY;
    static constexpr unsigned LDA = BK + 4, LDB = BN;  // A rows padded: a warp's two rows 4 apart on different banks
    static constexpr unsigned STAGE_FLOATS = BM * LDA + BK * LDB, SHARED_FLOATS = STAGES * STAGE_FLOATS;
    static constexpr unsigned A_CHUNKS = BM * BK / 4 / THREADS, B_CHUNKS = BK * BN / 4 / THREADS;
    static constexpr unsigned SUB_M = BM * 4 / TM, SUB_N = BN * 4 / TN;
    static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "4 x 4 sub-tiles and float4 reads");
    static_assert(A_CHUNKS * THREADS * 4 == BM * BK && B_CHUNKS * THREADS * 4 == BK * BN, "whole chunks per thread");
    static_assert(THREADS % 32 == 0 && TX % WX == 0 && 32 % WX == 0 && STAGES >= 2, "warps tile the thread grid");
};

template <class S, class Ctx>
CVZ_HD void matmul_pipelined(const Ctx& ctx, const MatmulProblem& p) {
    float* const smem = ctx.template shared<float>();
    const auto [tid, tx, ty, row0, col0, vec_a, vec_b] = thread_tile_start<S>(ctx, p);
    float acc[S::TM][S::TN];
    CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;
    const std::uint32_t tiles = tile_phases(p.k, S::BK);
    start_tile_pipeline<S>(ctx, p, smem, tid, row0, col0, tiles, vec_a, vec_b);
    for (std::uint32_t kt = 0; kt < tiles; ++kt) {
        const float* const as = next_tile_stage<S>(ctx, p, smem, tid, row0, col0, tiles, kt, vec_a, vec_b);
        const float* const bs = as + S::BM * S::LDA;
        CVZ_UNROLL for (unsigned d = 0; d < S::BK; d += 4) {
            Float4 a4[S::TM];
            CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i)
                a4[i] = ctx.load(reinterpret_cast<const Float4*>(as + tile_row<S>(ty, i) * S::LDA + d));
            CVZ_UNROLL for (unsigned dd = 0; dd < 4; ++dd) {
                float reg_n[S::TN];
                CVZ_UNROLL for (unsigned j = 0; j < S::TN; j += 4) {
                    const Float4 f = ctx.load(reinterpret_cast<const Float4*>(bs + (d + dd) * S::LDB + tile_col<S>(tx, j)));
                    reg_n[j] = f.x, reg_n[j + 1] = f.y, reg_n[j + 2] = f.z, reg_n[j + 3] = f.w;
                }
                CVZ_UNROLL for (unsigned i = 0; i < S::TM; ++i) {
                    const float x = dd == 0 ? a4[i].x : dd == 1 ? a4[i].y : dd == 2 ? a4[i].z : a4[i].w;
                    CVZ_UNROLL for (unsigned j = 0; j < S::TN; ++j) acc[i][j] = fmaf(x, reg_n[j], acc[i][j]);
                }
            }
        }
    }
    store_outputs<S>(ctx, p, acc, tx, ty, row0, col0);
}

}  // namespace cvz
