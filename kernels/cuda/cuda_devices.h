#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../core/status.h"

namespace cvz {

// What the CUDA runtime reports of one device (cudaGetDeviceProperties), in plain types.
struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    std::uint64_t global_mem_bytes = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int regs_per_sm = 0;
    std::size_t shared_mem_per_sm = 0;
    std::size_t shared_mem_per_block = 0;
    int warp_size = 32;
};

// The CUDA devices of this machine. `built_with_cuda` is false when cudaviz was compiled without the
// toolkit; `status` carries the runtime's error when it could not be asked (no driver, say).
struct CudaInventory {
    bool built_with_cuda = false;
    int runtime_version = 0;  // e.g. 13000
    int driver_version = 0;
    std::vector<CudaDeviceInfo> devices;
    Status status;
};

CudaInventory query_cuda_devices();

}  // namespace cvz
