// The CUDA occupancy API asked about cudaviz's kernels.
//
// The API takes the address of a __global__ function. The kernels the app launches live in anonymous
// namespaces of grayscale_cuda.cu and matmul_cuda.cu, out of reach from here, so this file declares
// kernels that are token for token the same: the same bodies (grayscale_body.h, matmul_body.h), the
// same DeviceContext, the same parameters and the same __launch_bounds__. Compiled with the same
// flags they are the same machine code (checked with `cuobjdump -sass` on both objects: the SASS
// differs only in the mangled names), hence the same registers and the same occupancy. A change to a
// launcher's kernel declaration must be made here too.
#include "../grayscale/grayscale_body.h"
#include "../matmul/matmul_body.h"
#include "cuda_check.h"
#include "device_context.cuh"
#include "occupancy_api.h"

namespace cvz {

namespace {

// As in grayscale_cuda.cu (instantiated there with DeviceContext for linear memory).
template <class Ctx>
__global__ void grayscale_1d_kernel(GrayscaleImage im, Ctx ctx) {
    grayscale_1d(ctx, im);
}
template <class Ctx>
__global__ void grayscale_2d_kernel(GrayscaleImage im, Ctx ctx) {
    grayscale_2d(ctx, im);
}

// As in matmul_cuda.cu.
__global__ void matmul_naive_kernel(MatmulProblem p) { matmul_naive(DeviceContext{}, p); }

template <unsigned TILE>
__global__ void __launch_bounds__(TILE * TILE) matmul_tiled_kernel(MatmulProblem p) {
    matmul_tiled<TILE>(DeviceContext{}, p);
}

const void* kernel_address(KernelId id) {
    switch (id) {
        case KernelId::Grayscale1d: return reinterpret_cast<const void*>(&grayscale_1d_kernel<DeviceContext>);
        case KernelId::Grayscale2d: return reinterpret_cast<const void*>(&grayscale_2d_kernel<DeviceContext>);
        case KernelId::MatmulNaive: return reinterpret_cast<const void*>(&matmul_naive_kernel);
        case KernelId::MatmulTiled8: return reinterpret_cast<const void*>(&matmul_tiled_kernel<8>);
        case KernelId::MatmulTiled16: return reinterpret_cast<const void*>(&matmul_tiled_kernel<16>);
        case KernelId::MatmulTiled32: return reinterpret_cast<const void*>(&matmul_tiled_kernel<32>);
    }
    return nullptr;
}

}  // namespace

Status cuda_kernel_occupancy(KernelId id, unsigned block_threads, std::size_t dynamic_shared, int* blocks_per_sm,
                             int* regs_per_thread) {
    const void* f = kernel_address(id);
    if (!f) return Status::error(ErrorKind::InvalidInput, "no such kernel");
    if (block_threads == 0 || block_threads > 0x7fffffffu)
        return Status::error(ErrorKind::InvalidInput, "a block of " + std::to_string(block_threads) + " threads");
    const std::string what = std::string(to_string(id)) + ", " + std::to_string(block_threads) + " threads, " +
                             std::to_string(dynamic_shared) + " bytes of dynamic shared memory";
    cudaFuncAttributes attr{};
    if (Status s = cuda_status(cudaFuncGetAttributes(&attr, f), ("cudaFuncGetAttributes (" + what + ")").c_str()); !s)
        return s;
    int blocks = 0;
    if (Status s = cuda_status(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, int(block_threads), dynamic_shared),
                               ("cudaOccupancyMaxActiveBlocksPerMultiprocessor (" + what + ")").c_str());
        !s)
        return s;
    if (blocks_per_sm) *blocks_per_sm = blocks;
    if (regs_per_thread) *regs_per_thread = attr.numRegs;
    return Status::ok();
}

}  // namespace cvz
