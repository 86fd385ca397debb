#pragma once
#include <cstdint>

#include "dim3.h"

// The index arithmetic of CUDA's execution model, written once. Kernels, the launch plan, the
// overlay and the inspector all call these (ARCHITECTURE.md, invariant 1).
namespace cvz {

// 1-D: i = blockIdx.x * blockDim.x + threadIdx.x
CVZ_HD constexpr std::uint64_t global_index_1d(Dim3 bid, Dim3 tid, Dim3 bdim) {
    return std::uint64_t(bid.x) * bdim.x + tid.x;
}

// 2-D column: c = blockIdx.x * blockDim.x + threadIdx.x
CVZ_HD constexpr std::uint64_t global_col(Dim3 bid, Dim3 tid, Dim3 bdim) {
    return std::uint64_t(bid.x) * bdim.x + tid.x;
}

// 2-D row: r = blockIdx.y * blockDim.y + threadIdx.y
CVZ_HD constexpr std::uint64_t global_row(Dim3 bid, Dim3 tid, Dim3 bdim) {
    return std::uint64_t(bid.y) * bdim.y + tid.y;
}

// Rows covered by one pass of the grid in y. gridDim.y is capped at 65535, so a tall image is
// covered by a grid-stride loop: a thread handles rows r, r + stride, r + 2*stride, ...
CVZ_HD constexpr std::uint64_t row_stride(Dim3 gdim, Dim3 bdim) { return std::uint64_t(gdim.y) * bdim.y; }

// Warp and lane of a thread: warps are 32 consecutive linear thread ids of one block.
CVZ_HD constexpr std::uint64_t warp_of(Dim3 tid, Dim3 bdim) { return linear_thread_id(tid, bdim) / kWarpSize; }
CVZ_HD constexpr unsigned lane_of(Dim3 tid, Dim3 bdim) { return unsigned(linear_thread_id(tid, bdim) % kWarpSize); }

}  // namespace cvz
