#pragma once
// The convolution kernels, each written once (ARCHITECTURE.md, invariant 1). One thread per output
// pixel, row from y and column from x. Every variant makes the same fmaf calls in the same order
// (i outer, j inner, a ghost cell as fmaf(M, 0, acc)), with the same operands: the pixel as a float
// (exact for a byte), the mask value. So all variants, block shapes, the emulator and the GPU give
// the same bytes; they differ only in where the operands come from.
#include <cmath>
#include <cstdint>

#include "../core/index_math.h"
#include "convolution_problem.h"

#if defined(__CUDACC__)
#include "convolution_constant.cuh"
#endif

namespace cvz {

// Where a body reads the mask from.
enum class MaskSpace { Global, Constant };

// M[k] (k = i * side + j). Constant: on the GPU the __constant__ copy (each warp's request is one
// address, a broadcast); on the host p.mask, which the traced launch registers as constant memory.
template <MaskSpace SPACE, class Ctx>
CVZ_HD float conv_mask_at(const Ctx& ctx, const ConvolutionProblem& p, std::uint32_t k) {
#if defined(__CUDA_ARCH__)
    if constexpr (SPACE == MaskSpace::Constant) return conv_constant_mask[k];
#endif
    return ctx.load(p.mask + k);
}

// True when (row, col) is in the image; rows and columns may be negative (the halo of the border).
CVZ_HD bool conv_inside(const ConvolutionProblem& p, std::int64_t row, std::int64_t col) {
    return row >= 0 && col >= 0 && row < std::int64_t(p.height) && col < std::int64_t(p.width);
}

// conv_naive and conv_constant: every input pixel of the window from global memory (through the
// caches), the mask from global or constant memory.
template <MaskSpace SPACE, class Ctx>
CVZ_HD void conv_direct(const Ctx& ctx, const ConvolutionProblem& p) {
    const std::uint64_t r = global_row(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    const std::uint64_t c = global_col(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    if (r >= p.height || c >= p.width) return;
    const std::int64_t rad = p.radius();
    float acc = 0.0f;
    for (std::uint32_t i = 0; i < p.mask_side; ++i) {
        const std::int64_t gr = std::int64_t(r) + i - rad;
        for (std::uint32_t j = 0; j < p.mask_side; ++j) {
            const std::int64_t gc = std::int64_t(c) + j - rad;
            // The mask and the pixel on their own lines: two access sites (memory_trace.h), the
            // pixel's guarded by the ghost test.
            const float m = conv_mask_at<SPACE>(ctx, p, mask_index(p, i, j));
            float g = 0.0f;
            if (conv_inside(p, gr, gc)) g = float(ctx.load(p.gray + std::uint64_t(gr) * p.width + std::uint64_t(gc)));
            acc = fmaf(m, g, acc);
        }
    }
    ctx.store(p.out + pixel_index(p, r, c), acc);
}

// conv_tiled (PMPP 7.4, with the block the size of the output tile): the block stages its input
// tile, the output tile and a halo of R each way ((bx+2R) x (by+2R) floats, ghost cells as 0),
// each thread loading the tile's elements tid, tid + bx*by, ... in row order (coalesced rows);
// a barrier; then every thread reads its window from shared memory and the mask from constant memory.
template <class Ctx>
CVZ_HD void conv_tiled(const Ctx& ctx, const ConvolutionProblem& p) {
    float* tile = ctx.template shared<float>();
    const Dim3 b = ctx.block_dim(), t = ctx.thread_idx(), bi = ctx.block_idx();
    const std::uint32_t rad = p.radius();
    const std::uint32_t tw = b.x + 2 * rad, th = b.y + 2 * rad;
    const std::int64_t row0 = std::int64_t(bi.y) * b.y - rad, col0 = std::int64_t(bi.x) * b.x - rad;
    const std::uint32_t threads = b.x * b.y;
    for (std::uint32_t k = t.y * b.x + t.x; k < tw * th; k += threads) {
        const std::int64_t gr = row0 + k / tw, gc = col0 + k % tw;
        float v = 0.0f;
        if (conv_inside(p, gr, gc)) v = float(ctx.load(p.gray + std::uint64_t(gr) * p.width + std::uint64_t(gc)));
        ctx.store(tile + k, v);
    }
    ctx.sync();
    const std::uint64_t r = global_row(bi, t, b), c = global_col(bi, t, b);
    if (r >= p.height || c >= p.width) return;
    float acc = 0.0f;
    for (std::uint32_t i = 0; i < p.mask_side; ++i) {
        for (std::uint32_t j = 0; j < p.mask_side; ++j) {
            const float m = conv_mask_at<MaskSpace::Constant>(ctx, p, mask_index(p, i, j));
            const float g = ctx.load(tile + (t.y + i) * tw + t.x + j);
            acc = fmaf(m, g, acc);
        }
    }
    ctx.store(p.out + pixel_index(p, r, c), acc);
}

// conv_tiled_cached (PMPP 7.5): the block stages only its own pixels (bx x by floats, 0 past the
// image), a barrier; a window's pixel inside the block's tile comes from shared memory, one in the
// halo from global memory (on the GPU mostly an L1 hit: the neighbouring blocks load those rows too),
// a ghost cell is 0.
template <class Ctx>
CVZ_HD void conv_tiled_cached(const Ctx& ctx, const ConvolutionProblem& p) {
    float* tile = ctx.template shared<float>();
    const Dim3 b = ctx.block_dim(), t = ctx.thread_idx(), bi = ctx.block_idx();
    const std::uint64_t r = global_row(bi, t, b), c = global_col(bi, t, b);
    const bool mine = r < p.height && c < p.width;
    float v = 0.0f;
    if (mine) v = float(ctx.load(p.gray + pixel_index(p, r, c)));
    ctx.store(tile + t.y * b.x + t.x, v);
    ctx.sync();
    if (!mine) return;
    const std::int64_t rad = p.radius();
    const std::int64_t row0 = std::int64_t(bi.y) * b.y, col0 = std::int64_t(bi.x) * b.x;
    float acc = 0.0f;
    for (std::uint32_t i = 0; i < p.mask_side; ++i) {
        const std::int64_t gr = std::int64_t(r) + i - rad, sy = gr - row0;
        for (std::uint32_t j = 0; j < p.mask_side; ++j) {
            const std::int64_t gc = std::int64_t(c) + j - rad, sx = gc - col0;
            const float m = conv_mask_at<MaskSpace::Constant>(ctx, p, mask_index(p, i, j));
            float g = 0.0f;
            if (sy >= 0 && sx >= 0 && sy < std::int64_t(b.y) && sx < std::int64_t(b.x))
                g = ctx.load(tile + std::uint64_t(sy) * b.x + std::uint64_t(sx));
            else if (conv_inside(p, gr, gc))
                g = float(ctx.load(p.gray + std::uint64_t(gr) * p.width + std::uint64_t(gc)));
            acc = fmaf(m, g, acc);
        }
    }
    ctx.store(p.out + pixel_index(p, r, c), acc);
}

}  // namespace cvz
