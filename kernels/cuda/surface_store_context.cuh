#pragma once
// A device context whose byte stores land in a CUDA surface (a GL texture mapped for CUDA) instead of
// linear memory, so the unchanged grayscale body writes straight into the texture the view draws
// (ARCHITECTURE.md, invariants 1 and 4). Loads, indices and barriers are DeviceContext's.
#include <cuda_runtime.h>

#include <cstdint>

#include "../core/vec16.h"
#include "device_context.cuh"

namespace cvz {

// Column and row of flat pixel i in a row-major image `width` pixels wide: the inverse of the
// kernels' r * width + c. 32-bit, because GL textures hold fewer than 2^32 texels and a 64-bit
// division costs several times more on the GPU.
struct PixelXY {
    int x;
    int y;
};
__device__ __forceinline__ PixelXY pixel_of_flat_index(std::uint32_t i, std::uint32_t width) {
    return PixelXY{int(i % width), int(i / width)};
}

struct SurfaceStoreContext : DeviceContext {
    cudaSurfaceObject_t surface = 0;
    // The `gray` pointer the body was given: it forms gray + i for pixel i, and store() turns the
    // address back into i. No memory lies behind it (launch_grayscale_to_surface).
    const std::uint8_t* origin = nullptr;
    std::uint32_t width = 1;

    // Hides DeviceContext::store: a GL_R8 texel is one byte, and x is counted in bytes.
    __device__ __forceinline__ void store(std::uint8_t* p, std::uint8_t v) const {
        const PixelXY at = pixel_of_flat_index(std::uint32_t(p - origin), width);
        surf2Dwrite(v, surface, at.x * int(sizeof(std::uint8_t)), at.y);
    }
    // A 16-byte store of 16 consecutive pixels, which may cross a row of the texture: byte by byte.
    __device__ __forceinline__ void store(Vec16* p, Vec16 v) const {
        std::uint8_t* bytes = reinterpret_cast<std::uint8_t*>(p);
#pragma unroll
        for (unsigned j = 0; j < 16; ++j) store(bytes + j, vec16_byte(v, j));
    }
};

}  // namespace cvz
