#pragma once
#include <cstdint>

#include "host_device.h"

namespace cvz {

// The emulator's and the kernels' view of CUDA's dim3. Named apart from CUDA's own type so that
// kernels/ compiles without cuda_runtime.h; the GPU context converts the built-ins into it.
struct Dim3 {
    unsigned x = 1;
    unsigned y = 1;
    unsigned z = 1;

    CVZ_HD constexpr std::uint64_t volume() const {
        return std::uint64_t(x) * std::uint64_t(y) * std::uint64_t(z);
    }
};

CVZ_HD constexpr bool operator==(Dim3 a, Dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// Ceiling division, the lecture's cdiv: how many blocks of `per` cover `n` items.
CVZ_HD constexpr std::uint64_t cdiv(std::uint64_t n, std::uint64_t per) { return (n + per - 1) / per; }

// Linear id of a thread inside its block, x fastest, as CUDA numbers threads into warps.
CVZ_HD constexpr std::uint64_t linear_thread_id(Dim3 tid, Dim3 bdim) {
    return (std::uint64_t(tid.z) * bdim.y + tid.y) * bdim.x + tid.x;
}

// Linear id of a block inside the grid, x fastest.
CVZ_HD constexpr std::uint64_t linear_block_id(Dim3 bid, Dim3 gdim) {
    return (std::uint64_t(bid.z) * gdim.y + bid.y) * gdim.x + bid.x;
}

constexpr unsigned kWarpSize = 32;

}  // namespace cvz
