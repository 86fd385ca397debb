#pragma once
// The grayscale ladder's bodies beyond the lecture's one pixel per thread (grayscale_body.h). Each
// computes every pixel with luma_u8, so each is bit-identical to the lecture's kernel; they differ
// only in how many pixels a thread handles and how the bytes move.
#include <cstdint>

#include "../core/index_math.h"
#include "../core/vec16.h"
#include "grayscale_body.h"
#include "luma_words.h"

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

// The grey bytes of 16 pixels held in x, y, z: three planes (R, G, B: pixel j is byte j of each) or
// 48 interleaved bytes (pixel j is bytes 3j, 3j + 1, 3j + 2), by luma_words.h's exact shortcuts.
template <bool PLANAR>
CVZ_HD Vec16 luma_16(const Vec16& x, const Vec16& y, const Vec16& z) {
    Vec16 out;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned q = 0; q < 4; ++q) {  // output word q: pixels 4q .. 4q + 3
        std::uint32_t grey[4];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (unsigned e = 0; e < 4; ++e) {
            float c[3];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (unsigned ch = 0; ch < 3; ++ch) {
                const unsigned byte = 3 * (4 * q + e) + ch;  // interleaved: byte of the 48
                c[ch] = PLANAR ? word_byte_to_float((ch == 0 ? x : ch == 1 ? y : z).w[q], e)
                               : word_byte_to_float(vec48_word(x, y, z, byte / 4), byte % 4);
            }
            grey[e] = truncated_byte(luma_float(c[0], c[1], c[2]));
        }
        out.w[q] = pack_low_bytes(grey[0], grey[1], grey[2], grey[3]);
    }
    return out;
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
    const Vec16 out = im.layout == PixelLayout::Planar ? luma_16<true>(x, y, z) : luma_16<false>(x, y, z);
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
