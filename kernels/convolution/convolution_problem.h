#pragma once
// The convolution family's problem (PMPP chapter 7): the photo's grayscale g (H x W bytes, the
// grayscale family's reference output) convolved with a square mask M of odd side 2R+1:
//   out[r][c] = sum_i sum_j M[i][j] * g[r+i-R][c+j-R],   g = 0 outside the image (ghost cells),
// accumulated in float32 with one fmaf per term, i outer and j inner, ghost terms included (as
// fmaf(M, 0, acc)), so that every variant, block shape and backend gives the same bytes.
#include <cstdint>

#include "../core/host_device.h"

namespace cvz {

// The largest mask side the family takes: 15 (225 floats, 900 bytes of __constant__ memory).
constexpr std::uint32_t kMaxMaskSide = 15;
constexpr std::uint32_t kMaxMaskValues = kMaxMaskSide * kMaxMaskSide;

// One convolution: pointers are host or device memory, as the launcher needs. The variants that
// keep the mask in constant memory read a copy of `mask` there (convolution_device_launch.h says who
// uploads it on the GPU; the emulator traces reads of `mask` as constant-memory reads).
struct ConvolutionProblem {
    const std::uint8_t* gray = nullptr;  // height x width, row-major, no padding
    const float* mask = nullptr;         // mask_side x mask_side, row-major
    float* out = nullptr;                // height x width float32, row-major
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::uint32_t mask_side = 1;  // 2R+1, odd, 1..kMaxMaskSide

    CVZ_HD std::uint32_t radius() const { return mask_side / 2; }
    CVZ_HD std::uint64_t pixels() const { return std::uint64_t(width) * height; }
};

// Row-major flat indices, written once for the kernels, the reference and the views.
CVZ_HD constexpr std::uint64_t pixel_index(const ConvolutionProblem& p, std::uint64_t row, std::uint64_t col) {
    return row * p.width + col;
}
CVZ_HD constexpr std::uint32_t mask_index(const ConvolutionProblem& p, std::uint32_t i, std::uint32_t j) {
    return i * p.mask_side + j;
}

}  // namespace cvz
