#pragma once
// The matmul ladder's tensor-core rungs: a BM x BN block tile, K staged BK at a time through STAGES
// shared buffers filled by cp.async (the copy of tile kt + STAGES - 1 in flight while tile kt is
// multiplied, one barrier per tile), WARPS_M x WARPS_N warps each owning a WM x WN tile of C made of
// MI x NI mma.sync m16n8k8 TF32 tiles (mma_tf32.h). A's fragments come from shared memory by
// ldmatrix.x4 (one instruction for a lane's four elements of a 16 x 8 tile; ldmatrix moves 8 x 8
// matrices of 16-bit elements, which read as 32-bit ones are 8 x 4: the tile's four quarters), B's by
// 32-bit loads; the padded layout below makes both free of bank conflicts (mma_shared_layout.h
// describes it for the views).
//  - PASSES = 1 (matmul_tf32): each element of A and B rounded to TF32 (cvt.rna), one MMA per tile.
//  - PASSES = 3 (matmul_3xtf32): x = big + small, both TF32; for each tile and k-step of 8 a sum of
//    its own from zero, a_small b_fin, then a_fin b_small, then a_big b_big (small terms first, so
//    they are not lost under the big ones), added to the output's by one fp32 add (warp_mma_3xtf32);
//    a_small b_small (about 2^-22 of the product) is dropped. The error is then near fp32's.
// Shared layout per stage: A as BM rows of BK (+4 pad: rows LDA floats apart, LDA / 4 odd, so the 8
// rows of 16 bytes one ldmatrix matrix reads lie on 8 different groups of 4 banks), B as BK rows of
// BN (+8 pad: its 4 rows x 8 columns of a fragment load fall on 32 different banks). Elements past M,
// N or K are copied as zeros; outputs past M or N are not stored.
//
// GPU and emulator: the staging, the rounding and the fragments are the same code and give the same
// bits (the emulator's lanes read the elements ldmatrix would hand them, each its own); each MMA's sum
// of 8 products and the accumulator is the hardware's (undocumented) on the GPU and mma_tf32.h's model
// of it on the emulator, which reproduced every output of the H200 probes; 3xTF32's fp32 add per k-step
// rounds to nearest on both. So the rungs give the same bytes on both (tst_matmul_cuda compares them bit
// for bit), though not the fp32 rungs' bytes.
#include <cstdint>
#include <type_traits>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "matmul_blocktiling.h"
#include "matmul_body.h"
#include "matmul_problem.h"
#include "mma_shared_layout.h"
#include "mma_tf32.h"

namespace cvz {

template <unsigned BM_, unsigned BN_, unsigned BK_, unsigned WARPS_M_, unsigned WARPS_N_, unsigned STAGES_>
struct TensorCoreTiles {
    static constexpr unsigned BM = BM_, BN = BN_, BK = BK_, WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, STAGES = STAGES_;
    static constexpr unsigned WARPS = WARPS_M * WARPS_N, THREADS = WARPS * 32;
    static constexpr unsigned WM = BM / WARPS_M, WN = BN / WARPS_N;          // a warp's tile of C
    static constexpr unsigned MI = WM / MmaShape::M, NI = WN / MmaShape::N;  // its MMAs per k-step
    static constexpr unsigned LDA = BK + 4, LDB = BN + 8;                    // padded rows (floats)
    static constexpr unsigned STAGE_FLOATS = BM * LDA + BK * LDB;
    static constexpr unsigned SHARED_FLOATS = STAGES * STAGE_FLOATS;
    static constexpr unsigned A_CHUNKS = BM * BK / 4 / THREADS, B_CHUNKS = BK * BN / 4 / THREADS;  // 16 bytes each
    static_assert(WM % MmaShape::M == 0 && WN % MmaShape::N == 0 && BK % MmaShape::K == 0, "whole MMA tiles");
    static_assert(A_CHUNKS * THREADS * 4 == BM * BK && B_CHUNKS * THREADS * 4 == BK * BN, "whole chunks per thread");
    static_assert(STAGES >= 2, "a copy in flight while a tile is multiplied");
    static_assert((LDA / 4) % 2 == 1 && LDB % 32 == 8, "the pads that keep fragment loads free of bank conflicts");
};

// A matmul body whose Tiles are warps of MMA tiles (TensorCoreTiles' MI and WARPS_N): the mma.sync
// tensor-core rungs, for the views that draw their fragments and stages (the wgmma rungs have neither:
// their operands stay in shared memory).
template <class Body, class = void>
struct has_tensor_core_tiles : std::false_type {};
template <class Body>
struct has_tensor_core_tiles<Body, std::void_t<decltype(Body::Tiles::MI), decltype(Body::Tiles::WARPS_N)>> : std::true_type {};

// Issues the copies of the K-tile starting at k0 into one stage: 16 bytes at a time when a row of
// the matrix is whole 16-byte vectors (vec_a: K % 4 == 0 and A aligned; vec_b likewise), else 4.
template <class S, class Ctx>
CVZ_HD void copy_tile_async(const Ctx& ctx, const MatmulProblem& p, float* stage, unsigned tid, std::uint64_t row0,
                            std::uint64_t col0, std::uint64_t k0, bool vec_a, bool vec_b) {
    float* const as = stage;
    float* const bs = stage + S::BM * S::LDA;
    CVZ_UNROLL for (unsigned v = 0; v < S::A_CHUNKS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const unsigned r = e / (S::BK / 4), kc = (e % (S::BK / 4)) * 4;
        const std::uint64_t gr = row0 + r, gk = k0 + kc;
        float* const dst = as + r * S::LDA + kc;
        if (vec_a) {
            const bool in = gr < p.m && gk < p.k;
            copy_async16(ctx, dst, in ? p.a + a_index(p, gr, gk) : p.a, in);
        } else {
            CVZ_UNROLL for (unsigned q = 0; q < 4; ++q) {
                const bool in = gr < p.m && gk + q < p.k;
                copy_async4(ctx, dst + q, in ? p.a + a_index(p, gr, gk + q) : p.a, in);
            }
        }
    }
    CVZ_UNROLL for (unsigned v = 0; v < S::B_CHUNKS; ++v) {
        const unsigned e = tid + v * S::THREADS;
        const unsigned kr = e / (S::BN / 4), c = (e % (S::BN / 4)) * 4;
        const std::uint64_t gk = k0 + kr, gc = col0 + c;
        float* const dst = bs + kr * S::LDB + c;
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

// The cp.async pipeline's start: the first STAGES - 1 K-tiles in flight, a commit group each (empty
// past the last tile, so that the waits count the same groups for every K).
template <class S, class Ctx>
CVZ_HD void start_tile_pipeline(const Ctx& ctx, const MatmulProblem& p, float* smem, unsigned tid, std::uint64_t row0,
                                std::uint64_t col0, std::uint32_t tiles, bool vec_a, bool vec_b) {
    CVZ_UNROLL for (unsigned s = 0; s + 1 < S::STAGES; ++s) {
        if (s < tiles) copy_tile_async<S>(ctx, p, smem + s * S::STAGE_FLOATS, tid, row0, col0, std::uint64_t(s) * S::BK, vec_a, vec_b);
        async_commit(ctx);
    }
}

// K-tile kt's turn in the pipeline: wait for its copies, meet at the barrier, issue tile
// kt + STAGES - 1 into the stage that tile kt - 1 leaves; kt's stage. After the barrier, tile kt is
// in its stage for every thread (each waited for its own copies, then all met) and every thread has
// finished multiplying tile kt - 1.
template <class S, class Ctx>
CVZ_HD const float* next_tile_stage(const Ctx& ctx, const MatmulProblem& p, float* smem, unsigned tid, std::uint64_t row0,
                                    std::uint64_t col0, std::uint32_t tiles, std::uint32_t kt, bool vec_a, bool vec_b) {
    async_wait<S::STAGES - 2>(ctx);
    ctx.sync();
    const std::uint32_t next = kt + S::STAGES - 1;
    if (next < tiles)
        copy_tile_async<S>(ctx, p, smem + (next % S::STAGES) * S::STAGE_FLOATS, tid, row0, col0,
                           std::uint64_t(next) * S::BK, vec_a, vec_b);
    async_commit(ctx);
    return smem + (kt % S::STAGES) * S::STAGE_FLOATS;
}

// This lane's A fragments (MI tiles of 16 x 8) and B fragments (NI tiles of 8 x 8) of the k-step at
// column ks of the stage, as stored (fp32). A by ldmatrix.x4 on the GPU: lane l points at row
// 8 ((l / 8) % 2) + l % 8, columns 4 (l / 16) .. + 3 of the tile (mma_ldmatrix_a_row / _col), and
// receives a0..a3 (mma_shared_layout.h); the emulator's lane loads those four elements itself.
template <class S, class Ctx>
CVZ_HD void load_fragments(const Ctx& ctx, const float* stage, unsigned lane, unsigned wm0, unsigned wn0, unsigned ks,
                           float (&a)[S::MI][4], float (&b)[S::NI][2]) {
    const float* const as = stage;
    const float* const bs = stage + S::BM * S::LDA;
#if defined(__CUDA_ARCH__)
    (void)ctx;
    const unsigned lrow = mma_ldmatrix_a_row(lane), lcol = mma_ldmatrix_a_col(lane);
    CVZ_UNROLL for (unsigned mi = 0; mi < S::MI; ++mi)
        ldmatrix_x4(a[mi], as + (wm0 + mi * MmaShape::M + lrow) * S::LDA + ks + lcol);
#else
    CVZ_UNROLL for (unsigned mi = 0; mi < S::MI; ++mi)
        CVZ_UNROLL for (unsigned r = 0; r < MmaShape::A_REGS; ++r)
            a[mi][r] = ctx.load(as + (wm0 + mi * MmaShape::M + mma_a_row(lane, r)) * S::LDA + ks + mma_a_col(lane, r));
#endif
    CVZ_UNROLL for (unsigned ni = 0; ni < S::NI; ++ni)
        CVZ_UNROLL for (unsigned r = 0; r < MmaShape::B_REGS; ++r)
            b[ni][r] = ctx.load(bs + (ks + mma_b_row(lane, r)) * S::LDB + wn0 + ni * MmaShape::N + mma_b_col(lane, r));
}

// One k-step of 8 for the warp tile: one TF32 MMA per tile, or three (3xTF32, warp_mma_3xtf32).
template <class S, unsigned PASSES, class Ctx>
CVZ_HD void multiply_k_step(const Ctx& ctx, float (&acc)[S::MI][S::NI][4], const float (&a)[S::MI][4],
                            const float (&b)[S::NI][2]) {
    if constexpr (PASSES == 1) {
        float at[S::MI][4], bt[S::NI][2];
        CVZ_UNROLL for (unsigned mi = 0; mi < S::MI; ++mi)
            CVZ_UNROLL for (unsigned r = 0; r < 4; ++r) at[mi][r] = round_to_tf32(a[mi][r]);
        CVZ_UNROLL for (unsigned ni = 0; ni < S::NI; ++ni)
            CVZ_UNROLL for (unsigned r = 0; r < 2; ++r) bt[ni][r] = round_to_tf32(b[ni][r]);
        warp_mma_tf32(ctx, acc, at, bt);
    } else {
        static_assert(PASSES == 3, "one TF32 pass or three");
        float a_big[S::MI][4], a_small[S::MI][4], b_big[S::NI][2], b_small[S::NI][2];
        CVZ_UNROLL for (unsigned mi = 0; mi < S::MI; ++mi) CVZ_UNROLL for (unsigned r = 0; r < 4; ++r) {
            const Tf32Split s = split_tf32(a[mi][r]);
            a_big[mi][r] = s.big, a_small[mi][r] = s.small;
        }
        CVZ_UNROLL for (unsigned ni = 0; ni < S::NI; ++ni) CVZ_UNROLL for (unsigned r = 0; r < 2; ++r) {
            const Tf32Split s = split_tf32(b[ni][r]);
            b_big[ni][r] = s.big, b_small[ni][r] = s.small;
        }
        warp_mma_3xtf32(ctx, acc, a_big, a_small, b_big, b_small);
    }
}

// Writes the warp's accumulators: lane holds rows g and g + 8, columns 2t and 2t + 1 of each tile
// (mma_fragment.h); a pair as one 8-byte store when N is even and C 8-byte aligned.
template <class S, class Ctx>
CVZ_HD void store_tensor_core_outputs(const Ctx& ctx, const MatmulProblem& p, const float (&acc)[S::MI][S::NI][4],
                                      unsigned lane, std::uint64_t r0, std::uint64_t c0) {
    const bool pairs = p.n % 2 == 0 && (reinterpret_cast<std::uintptr_t>(p.c) & 7u) == 0;
    CVZ_UNROLL for (unsigned mi = 0; mi < S::MI; ++mi) CVZ_UNROLL for (unsigned ni = 0; ni < S::NI; ++ni)
        CVZ_UNROLL for (unsigned h = 0; h < 2; ++h) {
            const std::uint64_t r = r0 + mi * MmaShape::M + mma_c_row(lane, 2 * h);
            const std::uint64_t c = c0 + ni * MmaShape::N + mma_c_col(lane, 0);
            if (r >= p.m || c >= p.n) continue;
            const float x = acc[mi][ni][2 * h], y = acc[mi][ni][2 * h + 1];
            if (pairs) {
                ctx.store(reinterpret_cast<Float2*>(p.c + c_index(p, r, c)), Float2{x, y});
            } else {
                ctx.store(p.c + c_index(p, r, c), x);
                if (c + 1 < p.n) ctx.store(p.c + c_index(p, r, c + 1), y);
            }
        }
}

// The body: the warp tiles' MMAs over the K-tiles as the cp.async pipeline delivers them, one barrier
// per K-tile (next_tile_stage).
template <class S, unsigned PASSES, class Ctx>
CVZ_HD void matmul_tensor_core(const Ctx& ctx, const MatmulProblem& p) {
    float* const smem = ctx.template shared<float>();
    const unsigned tid = unsigned(linear_thread_id(ctx.thread_idx(), ctx.block_dim()));
    const unsigned lane = tid % 32, warp = tid / 32;
    const unsigned wm0 = (warp / S::WARPS_N) * S::WM, wn0 = (warp % S::WARPS_N) * S::WN;
    const std::uint64_t row0 = std::uint64_t(ctx.block_idx().y) * S::BM, col0 = std::uint64_t(ctx.block_idx().x) * S::BN;
    const bool vec_a = p.k % 4 == 0 && is_aligned16(p.a);
    const bool vec_b = p.n % 4 == 0 && is_aligned16(p.b);
    float acc[S::MI][S::NI][4];
    CVZ_UNROLL for (unsigned mi = 0; mi < S::MI; ++mi) CVZ_UNROLL for (unsigned ni = 0; ni < S::NI; ++ni)
        CVZ_UNROLL for (unsigned r = 0; r < 4; ++r) acc[mi][ni][r] = 0.0f;
    const std::uint32_t tiles = tile_phases(p.k, S::BK);
    start_tile_pipeline<S>(ctx, p, smem, tid, row0, col0, tiles, vec_a, vec_b);
    for (std::uint32_t kt = 0; kt < tiles; ++kt) {
        const float* const stage = next_tile_stage<S>(ctx, p, smem, tid, row0, col0, tiles, kt, vec_a, vec_b);
        CVZ_UNROLL for (unsigned ks = 0; ks < S::BK; ks += MmaShape::K) {
            float a[S::MI][4], b[S::NI][2];
            load_fragments<S>(ctx, stage, lane, wm0, wn0, ks, a, b);
            multiply_k_step<S, PASSES>(ctx, acc, a, b);
        }
    }
    store_tensor_core_outputs<S>(ctx, p, acc, lane, row0 + wm0, col0 + wn0);
}

}  // namespace cvz
