#pragma once
#include <cstdint>

#include "kernels/matmul/matmul_launch.h"

namespace cvz {

// Memory traffic of a matmul kernel, in element accesses: the naive kernel reads K elements of A and
// K of B per output straight from global memory; the tiled kernel reads each element once per tile
// into shared memory and then K times from there.
struct MatmulTraffic {
    std::uint64_t global_loads = 0;
    std::uint64_t global_stores = 0;
    std::uint64_t shared_loads = 0;
    std::uint64_t shared_stores = 0;
    std::uint64_t max_global_loads_per_thread = 0;
    std::uint64_t barriers = 0;  // __syncthreads() calls, summed over threads
};

// Closed forms: naive 2*M*N*K global loads (2K per thread); tiled M*gx*K + N*gy*K global loads (at most
// 2*ceil(K/TILE) per thread) and 2*TILE shared loads per thread per phase.
MatmulTraffic predicted_matmul_traffic(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n);

// Counted: runs the kernel body on the emulator through a traced context and counts every access
// (all zero for an unknown variant or TILE, which validate_matmul_launch refuses).
MatmulTraffic measured_matmul_traffic(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n);

}  // namespace cvz
