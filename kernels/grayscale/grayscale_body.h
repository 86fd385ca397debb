#pragma once
// The grayscale kernel, written once (ARCHITECTURE.md, invariant 1). The GPU wrapper, the emulator
// and the traced emulator all instantiate these bodies with their own context type.
#include <cmath>
#include <cstdint>

#include "../core/index_math.h"
#include "grayscale_image.h"

namespace cvz {

// out = 0.2989 R + 0.5870 G + 0.1140 B in float, truncated to uint8 as in the lecture.
// The order and the fused multiply-adds are explicit so that no compiler contraction can change the
// result: nvcc and g++ compute exactly the same float, hence the same byte.
CVZ_HD float luma_float(float r, float g, float b) {
    float acc = 0.2989f * r;
    acc = fmaf(0.5870f, g, acc);
    acc = fmaf(0.1140f, b, acc);
    return acc;
}

CVZ_HD std::uint8_t luma_u8(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    return std::uint8_t(luma_float(float(r), float(g), float(b)));
}

// Flat index of channel c (0 R, 1 G, 2 B) of pixel i in an image of n pixels.
CVZ_HD constexpr std::uint64_t channel_index(PixelLayout layout, std::uint64_t i, unsigned c, std::uint64_t n) {
    return layout == PixelLayout::Planar ? i + c * n : 3 * i + c;
}

// Reads pixel i through the context (so the traced emulator sees the three loads) and writes its grey.
template <class Ctx>
CVZ_HD void grayscale_pixel(const Ctx& ctx, const GrayscaleImage& im, std::uint64_t i) {
    const std::uint64_t n = im.pixels();
    const std::uint8_t r = ctx.load(im.rgb + channel_index(im.layout, i, 0, n));
    const std::uint8_t g = ctx.load(im.rgb + channel_index(im.layout, i, 1, n));
    const std::uint8_t b = ctx.load(im.rgb + channel_index(im.layout, i, 2, n));
    ctx.store(im.gray + i, luma_u8(r, g, b));
}

// 1-D launch over the flattened image: i = blockIdx.x*blockDim.x + threadIdx.x, guarded by i < n.
template <class Ctx>
CVZ_HD void grayscale_1d(const Ctx& ctx, const GrayscaleImage& im) {
    const std::uint64_t i = global_index_1d(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    if (i < im.pixels()) grayscale_pixel(ctx, im, i);
}

// 2-D launch: column from x, row from y, guarded on both. gridDim.y is capped at 65535, so rows past
// one grid's height are reached by a grid-stride loop over y.
template <class Ctx>
CVZ_HD void grayscale_2d(const Ctx& ctx, const GrayscaleImage& im) {
    const std::uint64_t c = global_col(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim());
    if (c >= im.width) return;
    const std::uint64_t stride = row_stride(ctx.grid_dim(), ctx.block_dim());
    for (std::uint64_t r = global_row(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim()); r < im.height; r += stride)
        grayscale_pixel(ctx, im, r * im.width + c);
}

}  // namespace cvz
