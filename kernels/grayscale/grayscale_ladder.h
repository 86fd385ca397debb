#pragma once
// The grayscale ladder's bodies beyond the lecture's one pixel per thread (grayscale_body.h). Each
// computes every pixel with luma_u8, so each is bit-identical to the lecture's kernel; they differ
// only in how many pixels a thread handles and how the bytes move.
#include <cstdint>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "grayscale_body.h"

namespace cvz {

// Several consecutive pixels per thread: thread t handles pixels t*P .. t*P+P-1 (those below n).
template <unsigned P, class Ctx>
CVZ_HD void grayscale_1d_items(const Ctx& ctx, const GrayscaleImage& im) {
    const std::uint64_t n = im.pixels();
    const std::uint64_t first = global_index_1d(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim()) * P;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j < P; ++j)
        if (first + j < n) grayscale_pixel(ctx, im, first + j);
}

// True when the 16-pixel vector path is safe for this image: the buffers are 16-byte aligned (every
// cudaMalloc is 256-byte aligned; the emulator's buffers come from operator new, 16 on x86-64) and,
// for planar pixels, the G and B planes (at n and 2n) are too, i.e. n is a multiple of 16. Otherwise
// the body takes the scalar path: slower, never wrong, never a misaligned access.
CVZ_HD bool grayscale_vec16_ok(const GrayscaleImage& im) {
    return is_aligned16(im.rgb) && is_aligned16(im.gray) && (im.layout == PixelLayout::Interleaved || im.pixels() % 16 == 0);
}

// 16 pixels q*16 .. q*16+15 with 16-byte accesses: three loads (the three planes, or the 48
// interleaved bytes) and one store.
template <class Ctx>
CVZ_HD void grayscale_16_vector(const Ctx& ctx, const GrayscaleImage& im, std::uint64_t q) {
    const std::uint64_t n = im.pixels();
    Vec16 x, y, z;
    if (im.layout == PixelLayout::Planar) {
        x = ctx.load(reinterpret_cast<const Vec16*>(im.rgb + 16 * q));
        y = ctx.load(reinterpret_cast<const Vec16*>(im.rgb + n + 16 * q));
        z = ctx.load(reinterpret_cast<const Vec16*>(im.rgb + 2 * n + 16 * q));
    } else {
        const Vec16* src = reinterpret_cast<const Vec16*>(im.rgb + 48 * q);
        x = ctx.load(src);
        y = ctx.load(src + 1);
        z = ctx.load(src + 2);
    }
    Vec16 out{{0, 0, 0, 0}};
    const bool planar = im.layout == PixelLayout::Planar;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j < 16; ++j) {
        const std::uint8_t r = planar ? vec16_byte(x, j) : vec48_byte(x, y, z, 3 * j);
        const std::uint8_t g = planar ? vec16_byte(y, j) : vec48_byte(x, y, z, 3 * j + 1);
        const std::uint8_t b = planar ? vec16_byte(z, j) : vec48_byte(x, y, z, 3 * j + 2);
        out.w[j / 4] |= std::uint32_t(luma_u8(r, g, b)) << (8 * (j % 4));
    }
    ctx.store(reinterpret_cast<Vec16*>(im.gray + 16 * q), out);
}

// 16 consecutive pixels per thread with 16-byte loads and stores, in a grid-stride loop: thread t
// handles chunks t, t + gridDim.x*blockDim.x, ... of 16 pixels. The last chunk when n is not a
// multiple of 16 (and every chunk when grayscale_vec16_ok says no) is done pixel by pixel.
template <class Ctx>
CVZ_HD void grayscale_vec16(const Ctx& ctx, const GrayscaleImage& im) {
    const std::uint64_t n = im.pixels();
    const std::uint64_t full = n / 16;
    const bool vec = grayscale_vec16_ok(im);
    const std::uint64_t stride = std::uint64_t(ctx.grid_dim().x) * ctx.block_dim().x;
    for (std::uint64_t q = global_index_1d(ctx.block_idx(), ctx.thread_idx(), ctx.block_dim()); q * 16 < n; q += stride) {
        if (vec && q < full) {
            grayscale_16_vector(ctx, im, q);
        } else {
            for (std::uint64_t i = q * 16; i < q * 16 + 16 && i < n; ++i) grayscale_pixel(ctx, im, i);
        }
    }
}

}  // namespace cvz
