#pragma once
// 16-byte vector types for the contexts' generic load<T>/store<T>: a body that loads a Vec16 or a
// Float4 through its context gets one 16-byte access on every backend (LDG.128 / LDS.128 on the GPU,
// one 16-byte access the traced emulator reports, a plain copy on the emulator). The address must be
// 16-byte aligned: bodies check with is_aligned16 and fall back to scalar code when it is not.
#include <cstdint>

#include "host_device.h"

namespace cvz {

// 16 bytes as four little-endian 32-bit words (no type punning: bytes are read and written by shifts,
// which is exact on the host and on the GPU, both little-endian).
struct alignas(16) Vec16 {
    std::uint32_t w[4];
};

// Byte j (0..15) of v.
CVZ_HD constexpr std::uint8_t vec16_byte(const Vec16& v, unsigned j) {
    return std::uint8_t(v.w[j / 4] >> (8 * (j % 4)));
}

// Byte j of 48 bytes held in three Vec16 (j in 0..47).
CVZ_HD constexpr std::uint8_t vec48_byte(const Vec16& a, const Vec16& b, const Vec16& c, unsigned j) {
    return j < 16 ? vec16_byte(a, j) : j < 32 ? vec16_byte(b, j - 16) : vec16_byte(c, j - 32);
}

// Word i (0..11) of 48 bytes held in three Vec16.
CVZ_HD constexpr std::uint32_t vec48_word(const Vec16& a, const Vec16& b, const Vec16& c, unsigned i) {
    return i < 4 ? a.w[i] : i < 8 ? b.w[i - 4] : c.w[i - 8];
}

// Four floats, 16-byte aligned (CUDA's float4 without cuda_runtime.h).
struct alignas(16) Float4 {
    float x, y, z, w;
};

// Two floats, 8-byte aligned (CUDA's float2): a pair of outputs as one 8-byte store.
struct alignas(8) Float2 {
    float x, y;
};

template <class T>
CVZ_HD bool is_aligned16(const T* p) {
    return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

}  // namespace cvz
