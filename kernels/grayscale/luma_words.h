#pragma once
// luma_u8 on bytes packed in 32-bit words, for the vector bodies, without the GPU's conversion
// instructions. On the H200, gray_vec16 with luma_u8 issued four conversions per pixel (three
// I2F for R, G, B and one F2I for the result); conversions run at 16 per SM and clock, a quarter
// of the integer rate, and at 7680x4320 they alone take about as long as moving the bytes.
// Here a byte becomes a float by building the float 2^23 + b from its bits and subtracting 2^23
// (exact for b < 2^23), and the result is truncated by adding 2^23 with rounding toward zero, which
// leaves trunc(acc) in the low bits. Each step is exact, so the float sums are those of luma_u8 and
// the bytes are the same on the GPU and on the host (which keeps the plain conversions).
#include <cstdint>

#include "../core/host_device.h"
#include "grayscale_body.h"

namespace cvz {

// float(byte j of w), exactly. On the GPU one byte permute (the byte under the exponent bits of
// 2^23) and one subtraction.
CVZ_HD float word_byte_to_float(std::uint32_t w, unsigned j) {
#if defined(__CUDA_ARCH__)
    return __int_as_float(int(__byte_perm(w, 0x4B000000u, 0x7540u | j))) - 8388608.0f;
#else
    return float((w >> (8 * j)) & 0xFFu);
#endif
}

// trunc(acc) for 0 <= acc < 256 in the low byte of the result (the other bytes are not zero on the GPU).
CVZ_HD std::uint32_t truncated_byte(float acc) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(__fadd_rz(acc, 8388608.0f));
#else
    return std::uint32_t(std::uint8_t(acc));
#endif
}

// A word of the low bytes of four truncated_byte results, b0 lowest.
CVZ_HD std::uint32_t pack_low_bytes(std::uint32_t b0, std::uint32_t b1, std::uint32_t b2, std::uint32_t b3) {
#if defined(__CUDA_ARCH__)
    return __byte_perm(__byte_perm(b0, b1, 0x0040u), __byte_perm(b2, b3, 0x0040u), 0x5410u);
#else
    return (b0 & 0xFFu) | (b1 & 0xFFu) << 8 | (b2 & 0xFFu) << 16 | (b3 & 0xFFu) << 24;
#endif
}

}  // namespace cvz
