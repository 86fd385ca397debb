#pragma once
// The matmul __global__ kernel, declared once for every .cu that launches it or asks CUDA about it
// (the launchers, the unvalidated launcher for CUDA's own refusals, the timing sweep, the occupancy
// API): one template over the variant's body (matmul_variants.h). In an anonymous namespace: each
// translation unit compiles its own copy (there is no separable compilation), from this one source.
#include "../cuda/device_context.cuh"
#include "matmul_variants.h"

namespace cvz {
namespace {

template <class Body>
__global__ void __launch_bounds__(Body::max_threads) matmul_kernel(MatmulProblem p) {
    Body::run(DeviceContext{}, p);
}

// A body that asks for MIN_BLOCKS blocks an SM (its min_blocks) gets them as __launch_bounds__'s second
// argument. The others keep the one-argument form: an explicit 1 changes ptxas's register choice
// (matmul_naive: 32 registers become 56, and runs slower).
template <class Body, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(Body::max_threads, MIN_BLOCKS) matmul_kernel(MatmulProblem p) {
    Body::run(DeviceContext{}, p);
}

// Split-K's second pass: the slices' partial sums added to C in order (matmul_split_k.h).
__global__ void __launch_bounds__(kSplitKReduceThreads) matmul_split_k_reduce_kernel(MatmulProblem p, unsigned slices) {
    matmul_split_k_reduce(DeviceContext{}, p, slices);
}

// The compiled kernel of a body, for launches and for CUDA's questions about it.
template <class Body>
constexpr auto matmul_kernel_for() {
    if constexpr (has_min_blocks<Body>::value) return &matmul_kernel<Body, Body::min_blocks>;
    else return &matmul_kernel<Body>;
}

// Dynamic shared memory above the 48 KiB a kernel gets without asking: the kernel opts in to `bytes`
// (up to the device's cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 KiB on the H200) before a launch.
constexpr std::size_t kSharedBytesWithoutOptIn = 48 * 1024;
template <class Kernel>
cudaError_t allow_dynamic_shared(Kernel kernel, std::size_t bytes) {
    if (bytes <= kSharedBytesWithoutOptIn) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
}

}  // namespace
}  // namespace cvz
