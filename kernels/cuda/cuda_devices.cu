#include "cuda_check.h"
#include "cuda_devices.h"

namespace cvz {

CudaInventory query_cuda_devices() {
    CudaInventory inv;
    inv.built_with_cuda = true;
    cudaRuntimeGetVersion(&inv.runtime_version);
    cudaDriverGetVersion(&inv.driver_version);
    int count = 0;
    inv.status = cuda_status(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    if (!inv.status) return inv;
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p{};
        inv.status = cuda_status(cudaGetDeviceProperties(&p, d), "cudaGetDeviceProperties");
        if (!inv.status) return inv;
        CudaDeviceInfo info;
        info.index = d;
        info.name = p.name;
        info.cc_major = p.major;
        info.cc_minor = p.minor;
        info.sm_count = p.multiProcessorCount;
        info.global_mem_bytes = p.totalGlobalMem;
        info.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
        info.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
        info.regs_per_sm = p.regsPerMultiprocessor;
        info.shared_mem_per_sm = p.sharedMemPerMultiprocessor;
        info.shared_mem_per_block = p.sharedMemPerBlockOptin;  // the most a kernel may opt in to (227 KiB on the H200)
        info.warp_size = p.warpSize;
        inv.devices.push_back(info);
    }
    return inv;
}

}  // namespace cvz
