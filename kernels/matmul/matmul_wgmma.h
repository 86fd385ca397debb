#pragma once
// The matmul ladder's Hopper rungs: the tensor-core rungs on wgmma (warpgroup MMA, wgmma_tf32.h) instead
// of mma.sync. A 128 x 128 block tile, 256 threads = two warpgroups, each owning 64 rows of the tile
// and all 128 columns: one m64n128k8 wgmma per k-step of 8, its accumulators 64 registers a thread
// instead of mma.sync's fragments of A and B in registers (the mma.sync 3xTF32 rung is register-bound:
// 255 registers and spills).
//
// K goes 32 at a time through two shared stages. Every thread copies its share of each K tile of A and B
// by cp.async into raw slots of its own (16 bytes at a time where a row is whole 16-byte vectors, else
// 4; zeros past M, N and K) a tile ahead; while the wgmmas of tile kt run, it reads tile kt + 1 from its
// slots, starts the copies of tile kt + 2 into them, and rounds tile kt + 1 to TF32 into the other
// stage, K-major with the 128-byte swizzle (sw128_index) that wgmma's descriptors read:
// A's rows are K-major already; B is transposed on the way (a thread holds a 4 x 4 block of B, rows
// k, columns n, and stores its columns as 16-byte rows of K). The thread-to-chunk maps put the 8
// lanes of each 16-byte store phase on 8 different chunks of the swizzle, free of bank conflicts.
//  - PASSES = 1 (matmul_tf32_wgmma): A and B rounded to TF32 (cvt.rna), the wgmmas accumulate into
//    the output's sum over all of K: per output the same chain of k8 sums as matmul_tf32's mma.sync,
//    hence the same bytes.
//  - PASSES = 3 (matmul_3xtf32_wgmma): x = big + small (split_tf32), and fin = big with Inf and NaN
//    made 0 (the factor beside a small part, as in warp_mma_3xtf32); per K tile of 32 a sum of its own
//    started at zero: small x fin over the tile's four k-steps, then fin x small, then big x big
//    (wgmma_k_tile says why in that order), added to the output's sum by an fp32 add. A sum per tile
//    rather than per k-step (matmul_3xtf32's) takes a quarter of the adds and waits; the probe measured
//    0.18x SGEMM's error at 4096^3 that way (docs/measurements/2026-12-03-wgmma-probe-h200.md), where
//    carrying one sum through all of K gives 8.7x.
// Shared memory per stage: PARTS tiles of A (128 x 32) then PARTS of B (128 x 32, K-major), 16 KiB
// each, 1024-byte aligned (the swizzle's atoms), then 32 KiB of raw slots: 3xTF32 224 KiB for two
// stages (the H200 allows 227 a block), TF32 96 KiB.
// The first version fetched the next tile into registers at the start of each tile and stored it at
// its end: every tile waited for its loads' full latency (H200, 4096^3: 3xTF32 84.4% of cuBLAS SGEMM,
// TF32 155.8%).
//
// GPU and emulator: the fetch, the rounding and the stores are the same code; the emulator's wgmma
// reads the same swizzled tiles and sums with the H200's rule (wgmma_tf32.h), so both give the same
// bytes. The GPU runs them on compute capability 9.0 only (sm_90a code).
#include <cstddef>
#include <cstdint>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "matmul_problem.h"
#include "mma_tf32.h"
#include "wgmma_tf32.h"

namespace cvz {

template <unsigned PASSES_, unsigned STAGES_>
struct WgmmaTiles {
    static constexpr unsigned PASSES = PASSES_, STAGES = STAGES_;
    static constexpr unsigned WARPGROUPS = 2;
    static constexpr unsigned BM = WARPGROUPS * WgmmaShape::M, BN = WgmmaShape::N, BK = WgmmaShape::ROW_FLOATS;
    static constexpr unsigned THREADS = WARPGROUPS * WgmmaShape::THREADS;
    static constexpr unsigned PARTS = PASSES == 1 ? 1 : 3;  // big; or big, small, fin
    static constexpr unsigned A_FLOATS = BM * BK, B_FLOATS = BN * BK;
    static constexpr unsigned STAGE_FLOATS = PARTS * (A_FLOATS + B_FLOATS);
    static constexpr unsigned ALIGN_BYTES = 1024;
    static constexpr unsigned RAW_FLOATS = A_FLOATS + B_FLOATS;  // the threads' raw (fp32) slots of one tile
    static constexpr std::size_t SHARED_BYTES = (std::size_t(STAGES) * STAGE_FLOATS + RAW_FLOATS) * sizeof(float) + ALIGN_BYTES;
    static constexpr unsigned A_CHUNKS = A_FLOATS / 4 / THREADS;  // 16-byte chunks of A a thread fetches
    static constexpr unsigned B_ROWS = 4;                         // rows of K of a thread's 4 x 4 block of B
    static_assert(PASSES == 1 || PASSES == 3, "one TF32 pass or three");
    static_assert(STAGES >= 2, "the next tile stored while the current one is multiplied");
    static_assert(A_CHUNKS * THREADS * 4 == A_FLOATS, "whole chunks of A per thread");
    static_assert(THREADS / 32 * 4 * 4 == BN && BK == 8 * 4, "B: 8 warps of 8 x 4 blocks of 4 x 4");
    static_assert((A_FLOATS * sizeof(float)) % ALIGN_BYTES == 0, "every tile on a swizzle atom");
};

// A stage's tile of part `part` (0 big, 1 small, 2 fin) of A or of B.
template <class S>
CVZ_HD float* wgmma_a_tile(float* stage, unsigned part) { return stage + part * S::A_FLOATS; }
template <class S>
CVZ_HD float* wgmma_b_tile(float* stage, unsigned part) { return stage + S::PARTS * S::A_FLOATS + part * S::B_FLOATS; }

// Which 16-byte chunk of the A tile (row, first k) chunk v of thread tid is: 8 consecutive threads
// take the 8 chunks of one row.
CVZ_HD constexpr unsigned wgmma_a_chunk_row(unsigned tid, unsigned v, unsigned threads) { return (tid + v * threads) / 8; }
CVZ_HD constexpr unsigned wgmma_a_chunk_k(unsigned tid, unsigned v, unsigned threads) { return (tid + v * threads) % 8 * 4; }
// Thread tid's 4 x 4 block of the B tile: rows of K 4 (lane % 8) .. + 3, columns 4 (4 warp + lane / 8) .. + 3.
CVZ_HD constexpr unsigned wgmma_b_block_k(unsigned tid) { return (tid % 32) % 8 * 4; }
CVZ_HD constexpr unsigned wgmma_b_block_n(unsigned tid) { return (tid / 32 * 4 + (tid % 32) / 8) * 4; }

// Thread tid's raw (fp32) copy of its share of a K tile: A chunk v at raw_a + 4 (v THREADS + tid), row i
// of its B block at raw_b + 4 (i THREADS + tid). Only the thread that copies a slot reads it, so the
// raw area needs no barrier: the thread waits for its own copies (cp.async.wait_group) and may refill
// a slot as soon as it has read it. Consecutive threads' slots are consecutive 16 bytes: no conflicts.
template <class S>
CVZ_HD constexpr unsigned wgmma_raw_slot(unsigned tid, unsigned v) { return 4 * (v * S::THREADS + tid); }

// Four floats of A or B from global memory into a raw slot by cp.async: 16 bytes at once when `vec`
// (the row is whole 16-byte vectors, so the chunk is wholly inside or wholly outside), else 4 at a time;
// zeros past the matrix.
template <class Ctx>
CVZ_HD void wgmma_copy4(const Ctx& ctx, float* slot, const float* row, std::uint64_t first, std::uint64_t size,
                        bool row_inside, bool vec) {
    if (vec) {
        const bool in = row_inside && first < size;
        copy_async16(ctx, slot, in ? row + first : row, in);
    } else {
        CVZ_UNROLL for (unsigned q = 0; q < 4; ++q) {
            const bool in = row_inside && first + q < size;
            copy_async4(ctx, slot + q, in ? row + first + q : row, in);
        }
    }
}

// Starts the copies of this thread's share of the K tile at k0 into its raw slots (one commit group):
// A_CHUNKS chunks of A (4 consecutive k of one row) and its 4 x 4 block of B (rows k = block k + i).
template <class S, class Ctx>
CVZ_HD void wgmma_copy_tile(const Ctx& ctx, const MatmulProblem& p, float* raw, unsigned tid, std::uint64_t row0,
                            std::uint64_t col0, std::uint64_t k0, bool vec_a, bool vec_b) {
    float* const raw_b = raw + S::A_FLOATS;
    CVZ_UNROLL for (unsigned v = 0; v < S::A_CHUNKS; ++v) {
        const std::uint64_t r = row0 + wgmma_a_chunk_row(tid, v, S::THREADS);
        const bool in = r < p.m;
        wgmma_copy4(ctx, raw + wgmma_raw_slot<S>(tid, v), p.a + a_index(p, in ? r : 0, 0),
                    k0 + wgmma_a_chunk_k(tid, v, S::THREADS), p.k, in, vec_a);
    }
    const std::uint64_t n0 = col0 + wgmma_b_block_n(tid);
    CVZ_UNROLL for (unsigned i = 0; i < S::B_ROWS; ++i) {
        const std::uint64_t k = k0 + wgmma_b_block_k(tid) + i;
        const bool in = k < p.k;
        wgmma_copy4(ctx, raw_b + wgmma_raw_slot<S>(tid, i), p.b + b_index(p, in ? k : 0, 0), n0, p.n, in, vec_b);
    }
    async_commit(ctx);
}

// This thread's raw slots, once its copies have landed, into registers: a[v] its A chunks, b[i] the rows
// of its B block.
template <class S, class Ctx>
CVZ_HD void wgmma_read_raw(const Ctx& ctx, const float* raw, unsigned tid, float (&a)[S::A_CHUNKS][4], float (&b)[S::B_ROWS][4]) {
    const auto read4 = [&](const float* slot, float (&out)[4]) {
        const Float4 f = ctx.load(reinterpret_cast<const Float4*>(slot));
        out[0] = f.x, out[1] = f.y, out[2] = f.z, out[3] = f.w;
    };
    CVZ_UNROLL for (unsigned v = 0; v < S::A_CHUNKS; ++v) read4(raw + wgmma_raw_slot<S>(tid, v), a[v]);
    CVZ_UNROLL for (unsigned i = 0; i < S::B_ROWS; ++i) read4(raw + S::A_FLOATS + wgmma_raw_slot<S>(tid, i), b[i]);
}

// Four consecutive k of one row of a tile, rounded, into the stage's parts at swizzled float index
// `at`: big (PASSES 1), or big, small and fin (PASSES 3), each one 16-byte store.
template <class S, class Ctx>
CVZ_HD void wgmma_store4(const Ctx& ctx, float* part0, unsigned part_floats, unsigned at, const float (&x)[4]) {
    float big[4], small[4], fin[4];
    CVZ_UNROLL for (unsigned q = 0; q < 4; ++q) {
        if constexpr (S::PASSES == 1) {
            big[q] = round_to_tf32(x[q]);
        } else {
            const Tf32Split s = split_tf32(x[q]);
            big[q] = s.big, small[q] = s.small, fin[q] = finite_or_zero(s.big);
        }
    }
    ctx.store(reinterpret_cast<Float4*>(part0 + at), Float4{big[0], big[1], big[2], big[3]});
    if constexpr (S::PASSES == 3) {
        ctx.store(reinterpret_cast<Float4*>(part0 + part_floats + at), Float4{small[0], small[1], small[2], small[3]});
        ctx.store(reinterpret_cast<Float4*>(part0 + 2 * part_floats + at), Float4{fin[0], fin[1], fin[2], fin[3]});
    }
}

// The fetched tile, rounded and swizzled into `stage`; B's 4 x 4 block goes column by column, each a
// 16-byte row of K of the K-major tile.
template <class S, class Ctx>
CVZ_HD void wgmma_store_tile(const Ctx& ctx, float* stage, unsigned tid, const float (&a)[S::A_CHUNKS][4],
                             const float (&b)[S::B_ROWS][4]) {
    CVZ_UNROLL for (unsigned v = 0; v < S::A_CHUNKS; ++v)
        wgmma_store4<S>(ctx, wgmma_a_tile<S>(stage, 0), S::A_FLOATS,
                        sw128_index(wgmma_a_chunk_row(tid, v, S::THREADS), wgmma_a_chunk_k(tid, v, S::THREADS)), a[v]);
    CVZ_UNROLL for (unsigned j = 0; j < 4; ++j) {
        const float column[4] = {b[0][j], b[1][j], b[2][j], b[3][j]};
        wgmma_store4<S>(ctx, wgmma_b_tile<S>(stage, 0), S::B_FLOATS,
                        sw128_index(wgmma_b_block_n(tid) + j, wgmma_b_block_k(tid)), column);
    }
}

// The wgmmas of one K tile for warpgroup wg (rows 64 wg ..+63 of the block), into d: per k-step one
// (TF32); or (3xTF32) small x fin over the tile's k-steps, then fin x small, then big x big. Each wgmma
// truncates the sum it adds to (mma_tf32.h): the small terms (about 2^-11 of the big) first, so that
// their eight truncations act on a small sum, and the big sum is truncated four times a tile, not twelve
// (interleaved per k-step, as matmul_3xtf32 does per step of 8, the error at K = 33 was 2.2x fp32's).
template <class S, class Ctx>
CVZ_HD void wgmma_k_tile(const Ctx& ctx, float (&d)[WgmmaShape::C_REGS], float* stage, unsigned wg, unsigned t) {
    const unsigned a_rows = wg * WgmmaShape::M * S::BK;
    // Pass q multiplies A's part parts[q][0] by B's part parts[q][1] (0 big, 1 small, 2 fin).
    constexpr unsigned parts[3][2] = {{1, 2}, {2, 1}, {0, 0}};
    constexpr unsigned first = S::PASSES == 1 ? 2 : 0;
    CVZ_UNROLL for (unsigned q = first; q < 3; ++q)
        CVZ_UNROLL for (unsigned ks = 0; ks < S::BK; ks += WgmmaShape::K)
            warpgroup_mma_tf32(ctx, d, wgmma_a_tile<S>(stage, parts[q][0]) + a_rows, wgmma_b_tile<S>(stage, parts[q][1]), ks, t);
}

// Writes the warpgroup's accumulators (wgmma_c_row / wgmma_c_col): pairs of columns as one 8-byte store
// when N is even and C 8-byte aligned.
template <class Ctx>
CVZ_HD void wgmma_store_outputs(const Ctx& ctx, const MatmulProblem& p, const float (&acc)[WgmmaShape::C_REGS], unsigned t,
                                std::uint64_t r0, std::uint64_t c0) {
    const bool pairs = p.n % 2 == 0 && (reinterpret_cast<std::uintptr_t>(p.c) & 7u) == 0;
    CVZ_UNROLL for (unsigned reg = 0; reg < WgmmaShape::C_REGS; reg += 2) {
        const std::uint64_t r = r0 + wgmma_c_row(t, reg), c = c0 + wgmma_c_col(t, reg);
        if (r >= p.m || c >= p.n) continue;
        if (pairs) {
            ctx.store(reinterpret_cast<Float2*>(p.c + c_index(p, r, c)), Float2{acc[reg], acc[reg + 1]});
        } else {
            ctx.store(p.c + c_index(p, r, c), acc[reg]);
            if (c + 1 < p.n) ctx.store(p.c + c_index(p, r, c + 1), acc[reg + 1]);
        }
    }
}

// This thread's share of K tile `next` from its raw slots (its copies waited for) into `stage`,
// rounded and swizzled, then the copies of tile next + 1 started into the slots it has just read.
template <class S, class Ctx>
CVZ_HD void wgmma_stage_next(const Ctx& ctx, const MatmulProblem& p, float* raw, float* stage, unsigned tid,
                             std::uint64_t row0, std::uint64_t col0, std::uint32_t next, std::uint32_t tiles, bool vec_a,
                             bool vec_b) {
    async_wait<0>(ctx);
    float a[S::A_CHUNKS][4], b[S::B_ROWS][4];
    wgmma_read_raw<S>(ctx, raw, tid, a, b);
    if (next + 1 < tiles) wgmma_copy_tile<S>(ctx, p, raw, tid, row0, col0, std::uint64_t(next + 1) * S::BK, vec_a, vec_b);
    wgmma_store_tile<S>(ctx, stage, tid, a, b);
    fence_shared_async(ctx);
}

// The body: K tile kt's wgmmas run while this thread rounds and swizzles tile kt + 1 (copied into its
// raw slots by cp.async during the previous tile) into the other stage and starts the copies of tile
// kt + 2; one barrier per tile (after it, tile kt + 1 is in place and every warpgroup's wgmmas on tile kt
// are done).
template <class S, class Ctx>
CVZ_HD void matmul_wgmma(const Ctx& ctx, const MatmulProblem& p) {
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(ctx.template shared<unsigned char>());
    float* const smem = reinterpret_cast<float*>((base + S::ALIGN_BYTES - 1) / S::ALIGN_BYTES * S::ALIGN_BYTES);
    float* const raw = smem + S::STAGES * S::STAGE_FLOATS;
    const unsigned tid = unsigned(linear_thread_id(ctx.thread_idx(), ctx.block_dim()));
    const unsigned wg = tid / WgmmaShape::THREADS, t = tid % WgmmaShape::THREADS;
    const std::uint64_t row0 = std::uint64_t(ctx.block_idx().y) * S::BM, col0 = std::uint64_t(ctx.block_idx().x) * S::BN;
    const bool vec_a = p.k % 4 == 0 && is_aligned16(p.a);
    const bool vec_b = p.n % 4 == 0 && is_aligned16(p.b);
    float acc[WgmmaShape::C_REGS];
    CVZ_UNROLL for (unsigned r = 0; r < WgmmaShape::C_REGS; ++r) acc[r] = 0.0f;
    const std::uint32_t tiles = tile_phases(p.k, S::BK);
    wgmma_copy_tile<S>(ctx, p, raw, tid, row0, col0, 0, vec_a, vec_b);
    wgmma_stage_next<S>(ctx, p, raw, smem, tid, row0, col0, 0, tiles, vec_a, vec_b);
    ctx.sync();
    for (std::uint32_t kt = 0; kt < tiles; ++kt) {
        float* const stage = smem + (kt % S::STAGES) * S::STAGE_FLOATS;
        // TF32 sums into the outputs' accumulators, 3xTF32 into the tile's own sum from zero.
        float part[WgmmaShape::C_REGS];
        float (&d)[WgmmaShape::C_REGS] = *(S::PASSES == 1 ? &acc : &part);
        if constexpr (S::PASSES == 3)
            CVZ_UNROLL for (unsigned r = 0; r < WgmmaShape::C_REGS; ++r) part[r] = 0.0f;
        wgmma_fence(ctx);
        wgmma_k_tile<S>(ctx, d, stage, wg, t);
        wgmma_commit(ctx);
        if (kt + 1 < tiles)
            wgmma_stage_next<S>(ctx, p, raw, smem + ((kt + 1) % S::STAGES) * S::STAGE_FLOATS, tid, row0, col0, kt + 1, tiles,
                                vec_a, vec_b);
        wgmma_wait<0>(ctx);
        if constexpr (S::PASSES == 3)
            CVZ_UNROLL for (unsigned r = 0; r < WgmmaShape::C_REGS; ++r) acc[r] = acc[r] + part[r];
        ctx.sync();
    }
    wgmma_store_outputs(ctx, p, acc, t, row0 + wg * WgmmaShape::M, col0);
}

}  // namespace cvz
