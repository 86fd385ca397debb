#pragma once
// The matmul ladder's blocktiled bodies (after siboehm's SGEMM_CUDA kernels 4, 5, 6 and 10): a block
// computes a BM x BN tile of C, staging BM x BK of A and BK x BN of B in shared memory per phase, and
// each thread keeps several outputs in registers. Every output still accumulates over k in order,
// k = 0, 1, ..., K-1, one fmaf per step starting from 0, so each is bit-identical to matmul_naive.
// Elements past M, N or K load as zero (as in matmul_tiled): past K both factors are zero and the fma
// adds exactly zero; outputs past M or N are never stored. Any M, N, K works.
#include <cmath>
#include <cstdint>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "matmul_body.h"
#include "matmul_problem.h"

#if defined(__CUDA_ARCH__)
#define CVZ_UNROLL _Pragma("unroll")
#else
#define CVZ_UNROLL
#endif

namespace cvz {

// Stages the phase starting at k0: As (BM x BK, row-major) and Bs (BK x BN), one element per thread and step, scalar loads, zeros past the edges.
template <unsigned BM, unsigned BN, unsigned BK, unsigned THREADS, class Ctx>
CVZ_HD void stage_tiles_scalar(const Ctx& ctx, const MatmulProblem& p, float* as, float* bs, unsigned tid,
                               std::uint64_t row0, std::uint64_t col0, std::uint64_t k0) {
    for (unsigned e = tid; e < BM * BK; e += THREADS) {
        const unsigned r = e / BK, kk = e % BK;
        ctx.store(as + e, (row0 + r < p.m && k0 + kk < p.k) ? ctx.load(p.a + a_index(p, row0 + r, k0 + kk)) : 0.0f);
    }
    for (unsigned e = tid; e < BK * BN; e += THREADS) {
        const unsigned kk = e / BN, c = e % BN;
        ctx.store(bs + e, (k0 + kk < p.k && col0 + c < p.n) ? ctx.load(p.b + b_index(p, k0 + kk, col0 + c)) : 0.0f);
    }
}

// 2-D blocktiling (1-D blocktiling when TN = 1): a block of (BN / TN) x (BM / TM) threads; thread (tx, ty) computes a TM x TN
// register tile (rows row0 + ty*TM.., columns col0 + tx*TN..). Per k it loads TM values of A and TN
// of B from shared memory into registers and does TM*TN fmas: arithmetic intensity TM*TN/(TM+TN).
template <unsigned BM, unsigned BN, unsigned BK, unsigned TM, unsigned TN, class Ctx>
CVZ_HD void matmul_blocktile_2d(const Ctx& ctx, const MatmulProblem& p) {
    constexpr unsigned THREADS = (BN / TN) * (BM / TM);
    float* as = ctx.template shared<float>();  // BM x BK
    float* bs = as + BM * BK;                   // BK x BN
    const unsigned tx = ctx.thread_idx().x, ty = ctx.thread_idx().y;
    const unsigned tid = ty * (BN / TN) + tx;
    const std::uint64_t row0 = std::uint64_t(ctx.block_idx().y) * BM, col0 = std::uint64_t(ctx.block_idx().x) * BN;
    float acc[TM][TN];
    CVZ_UNROLL for (unsigned i = 0; i < TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) acc[i][j] = 0.0f;
    float reg_m[TM], reg_n[TN];
    for (std::uint32_t ph = 0; ph < tile_phases(p.k, BK); ++ph) {
        stage_tiles_scalar<BM, BN, BK, THREADS>(ctx, p, as, bs, tid, row0, col0, std::uint64_t(ph) * BK);
        ctx.sync();
        CVZ_UNROLL for (unsigned d = 0; d < BK; ++d) {
            CVZ_UNROLL for (unsigned i = 0; i < TM; ++i) reg_m[i] = ctx.load(as + (ty * TM + i) * BK + d);
            CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) reg_n[j] = ctx.load(bs + d * BN + tx * TN + j);
            CVZ_UNROLL for (unsigned i = 0; i < TM; ++i)
                CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
        }
        ctx.sync();
    }
    CVZ_UNROLL for (unsigned i = 0; i < TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) {
        const std::uint64_t r = row0 + ty * TM + i, c = col0 + tx * TN + j;
        if (r < p.m && c < p.n) ctx.store(p.c + c_index(p, r, c), acc[i][j]);
    }
}

// Stages the phase starting at k0 for the float4 kernels: A transposed into ast (BK x BM), B into bs
// (BK x BN), four elements a step; float4 global loads when vec_a / vec_b (K resp. N a multiple of 4
// and the matrix 16-byte aligned) and the four are inside, else element by element with zeros past
// the edges.
template <unsigned BM, unsigned BN, unsigned BK, unsigned THREADS, class Ctx>
CVZ_HD void stage_tiles_vec(const Ctx& ctx, const MatmulProblem& p, float* ast, float* bs, unsigned tid,
                            std::uint64_t row0, std::uint64_t col0, std::uint64_t k0, bool vec_a, bool vec_b) {
    for (unsigned e = tid; e < BM * BK / 4; e += THREADS) {  // four consecutive k of one row of A
        const unsigned r = e / (BK / 4), kk = (e % (BK / 4)) * 4;
        const std::uint64_t gr = row0 + r, gk = k0 + kk;
        float v[4];
        if (vec_a && gr < p.m && gk < p.k) {  // K % 4 == 0: all four are inside
            const Float4 f = ctx.load(reinterpret_cast<const Float4*>(p.a + a_index(p, gr, gk)));
            v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
        } else {
            CVZ_UNROLL for (unsigned q = 0; q < 4; ++q)
                v[q] = (gr < p.m && gk + q < p.k) ? ctx.load(p.a + a_index(p, gr, gk + q)) : 0.0f;
        }
        CVZ_UNROLL for (unsigned q = 0; q < 4; ++q) ctx.store(ast + (kk + q) * BM + r, v[q]);
    }
    for (unsigned e = tid; e < BK * BN / 4; e += THREADS) {  // four consecutive columns of one row of B
        const unsigned kk = e / (BN / 4), c = (e % (BN / 4)) * 4;
        const std::uint64_t gk = k0 + kk, gc = col0 + c;
        Float4 f;
        if (vec_b && gk < p.k && gc < p.n) {  // N % 4 == 0: all four are inside
            f = ctx.load(reinterpret_cast<const Float4*>(p.b + b_index(p, gk, gc)));
        } else {
            const bool in = gk < p.k;
            f.x = (in && gc + 0 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 0)) : 0.0f;
            f.y = (in && gc + 1 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 1)) : 0.0f;
            f.z = (in && gc + 2 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 2)) : 0.0f;
            f.w = (in && gc + 3 < p.n) ? ctx.load(p.b + b_index(p, gk, gc + 3)) : 0.0f;
        }
        ctx.store(reinterpret_cast<Float4*>(bs + kk * BN + c), f);
    }
}

// 2-D blocktiling with 16-byte accesses: A is staged transposed (As[k][row]) so that a thread's TM
// values of A for one k are contiguous, and global A and B are read four floats at a time (Float4)
// when K (for A) or N (for B) is a multiple of 4 and the matrix is 16-byte aligned; otherwise, and
// for vectors crossing an edge, element by element. Shared reads are Float4 too (TM, TN multiples of 4).
template <unsigned BM, unsigned BN, unsigned BK, unsigned TM, unsigned TN, class Ctx>
CVZ_HD void matmul_blocktile_vec(const Ctx& ctx, const MatmulProblem& p) {
    static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0, "16-byte accesses need multiples of 4");
    constexpr unsigned THREADS = (BN / TN) * (BM / TM);
    float* ast = ctx.template shared<float>();  // BK x BM: A transposed
    float* bs = ast + BM * BK;                   // BK x BN
    const unsigned tx = ctx.thread_idx().x, ty = ctx.thread_idx().y;
    const unsigned tid = ty * (BN / TN) + tx;
    const std::uint64_t row0 = std::uint64_t(ctx.block_idx().y) * BM, col0 = std::uint64_t(ctx.block_idx().x) * BN;
    const bool vec_a = p.k % 4 == 0 && is_aligned16(p.a);
    const bool vec_b = p.n % 4 == 0 && is_aligned16(p.b);
    float acc[TM][TN];
    CVZ_UNROLL for (unsigned i = 0; i < TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) acc[i][j] = 0.0f;
    float reg_m[TM], reg_n[TN];
    for (std::uint32_t ph = 0; ph < tile_phases(p.k, BK); ++ph) {
        stage_tiles_vec<BM, BN, BK, THREADS>(ctx, p, ast, bs, tid, row0, col0, std::uint64_t(ph) * BK, vec_a, vec_b);
        ctx.sync();
        CVZ_UNROLL for (unsigned d = 0; d < BK; ++d) {
            CVZ_UNROLL for (unsigned i = 0; i < TM; i += 4) {
                const Float4 f = ctx.load(reinterpret_cast<const Float4*>(ast + d * BM + ty * TM + i));
                reg_m[i] = f.x, reg_m[i + 1] = f.y, reg_m[i + 2] = f.z, reg_m[i + 3] = f.w;
            }
            CVZ_UNROLL for (unsigned j = 0; j < TN; j += 4) {
                const Float4 f = ctx.load(reinterpret_cast<const Float4*>(bs + d * BN + tx * TN + j));
                reg_n[j] = f.x, reg_n[j + 1] = f.y, reg_n[j + 2] = f.z, reg_n[j + 3] = f.w;
            }
            CVZ_UNROLL for (unsigned i = 0; i < TM; ++i)
                CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
        }
        ctx.sync();
    }
    CVZ_UNROLL for (unsigned i = 0; i < TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) {
        const std::uint64_t r = row0 + ty * TM + i, c = col0 + tx * TN + j;
        if (r < p.m && c < p.n) ctx.store(p.c + c_index(p, r, c), acc[i][j]);
    }
}

// Warptiling (siboehm's kernel 10): BM x BN per block as in the vec blocktile, and inside it each warp
// owns a WM x WN warp tile, swept in WMITER x WNITER sub-tiles of WSUBM x WSUBN; a thread holds a
// TM x TN register tile per sub-tile. The block is 1-D (warps are consecutive thread ids), staging
// as matmul_blocktile_vec. Every output still accumulates over k in order, one fmaf per step.
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned WNITER, unsigned TM, unsigned TN,
          class Ctx>
CVZ_HD void matmul_warptile(const Ctx& ctx, const MatmulProblem& p) {
    constexpr unsigned THREADS = (BM / WM) * (BN / WN) * 32;
    constexpr unsigned WMITER = (WM * WN) / (32 * TM * TN * WNITER);
    constexpr unsigned WSUBM = WM / WMITER, WSUBN = WN / WNITER;
    static_assert(WMITER >= 1 && WSUBN % TN == 0 && (WSUBN / TN) * (WSUBM / TM) == 32, "a warp covers a sub-tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "16-byte shared reads");
    float* ast = ctx.template shared<float>();  // BK x BM: A transposed
    float* bs = ast + BM * BK;                   // BK x BN
    const unsigned tid = ctx.thread_idx().x;
    const unsigned warp = tid / 32, lane = tid % 32;
    const unsigned warp_col = warp % (BN / WN), warp_row = warp / (BN / WN);
    const unsigned t_col = lane % (WSUBN / TN), t_row = lane / (WSUBN / TN);
    const std::uint64_t row0 = std::uint64_t(ctx.block_idx().y) * BM, col0 = std::uint64_t(ctx.block_idx().x) * BN;
    const bool vec_a = p.k % 4 == 0 && is_aligned16(p.a);
    const bool vec_b = p.n % 4 == 0 && is_aligned16(p.b);
    float acc[WMITER * TM][WNITER * TN];
    CVZ_UNROLL for (unsigned i = 0; i < WMITER * TM; ++i) CVZ_UNROLL for (unsigned j = 0; j < WNITER * TN; ++j) acc[i][j] = 0.0f;
    float reg_m[WMITER * TM], reg_n[WNITER * TN];
    for (std::uint32_t ph = 0; ph < tile_phases(p.k, BK); ++ph) {
        stage_tiles_vec<BM, BN, BK, THREADS>(ctx, p, ast, bs, tid, row0, col0, std::uint64_t(ph) * BK, vec_a, vec_b);
        ctx.sync();
        CVZ_UNROLL for (unsigned d = 0; d < BK; ++d) {
            CVZ_UNROLL for (unsigned ws = 0; ws < WMITER; ++ws) CVZ_UNROLL for (unsigned i = 0; i < TM; i += 4) {
                const Float4 f = ctx.load(reinterpret_cast<const Float4*>(ast + d * BM + warp_row * WM + ws * WSUBM + t_row * TM + i));
                reg_m[ws * TM + i] = f.x, reg_m[ws * TM + i + 1] = f.y, reg_m[ws * TM + i + 2] = f.z, reg_m[ws * TM + i + 3] = f.w;
            }
            CVZ_UNROLL for (unsigned ws = 0; ws < WNITER; ++ws) CVZ_UNROLL for (unsigned j = 0; j < TN; j += 4) {
                const Float4 f = ctx.load(reinterpret_cast<const Float4*>(bs + d * BN + warp_col * WN + ws * WSUBN + t_col * TN + j));
                reg_n[ws * TN + j] = f.x, reg_n[ws * TN + j + 1] = f.y, reg_n[ws * TN + j + 2] = f.z, reg_n[ws * TN + j + 3] = f.w;
            }
            CVZ_UNROLL for (unsigned i = 0; i < WMITER * TM; ++i)
                CVZ_UNROLL for (unsigned j = 0; j < WNITER * TN; ++j) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
        }
        ctx.sync();
    }
    CVZ_UNROLL for (unsigned ws = 0; ws < WMITER; ++ws) CVZ_UNROLL for (unsigned i = 0; i < TM; ++i)
        CVZ_UNROLL for (unsigned wn = 0; wn < WNITER; ++wn) CVZ_UNROLL for (unsigned j = 0; j < TN; ++j) {
            const std::uint64_t r = row0 + warp_row * WM + ws * WSUBM + t_row * TM + i;
            const std::uint64_t c = col0 + warp_col * WN + wn * WSUBN + t_col * TN + j;
            if (r < p.m && c < p.n) ctx.store(p.c + c_index(p, r, c), acc[ws * TM + i][wn * TN + j]);
        }
}

}  // namespace cvz
