// The CUDA occupancy API asked about cudaviz's kernels: the very kernels the launchers use, from
// grayscale_kernels.cuh and matmul_kernels.cuh (same source, same flags, hence the same registers).
#include "../grayscale/grayscale_kernels.cuh"
#include "../matmul/matmul_kernels.cuh"
#include "cuda_check.h"
#include "device_context.cuh"
#include "occupancy_api.h"

namespace cvz {

namespace {

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
