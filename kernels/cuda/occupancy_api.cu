// The CUDA occupancy API asked about cudaviz's kernels: the very kernels the launchers use, whose
// addresses each family's occupancy hook gives (FamilyDescriptor::kernel_address).
#include <cuda_runtime.h>

#include "../catalogue/family_descriptor.h"
#include "../catalogue/kernel_catalogue.h"
#include "cuda_check.h"
#include "occupancy_api.h"

namespace cvz {

namespace {

// The address of the __global__ kernel that runs `id`, from its family's hook.
Status kernel_address(KernelRef id, const void** f) {
    const FamilyDescriptor* d = family_descriptor(id.family);
    if (!d) return Status::error(ErrorKind::InvalidInput, "there is no such kernel family");
    return d->kernel_address(id.variant, id.tile, f);
}

Status attributes(KernelRef id, const std::string& what, const void** f, cudaFuncAttributes* attr) {
    if (Status s = kernel_address(id, f); !s) return s;
    return cuda_status(cudaFuncGetAttributes(attr, *f), ("cudaFuncGetAttributes (" + what + ")").c_str());
}

}  // namespace

Status cuda_kernel_occupancy(KernelRef id, unsigned block_threads, std::size_t dynamic_shared, int* blocks_per_sm,
                             int* regs_per_thread) {
    if (block_threads == 0 || block_threads > 0x7fffffffu)
        return Status::error(ErrorKind::InvalidInput, "a block of " + std::to_string(block_threads) + " threads");
    const std::string what = to_string(id) + ", " + std::to_string(block_threads) + " threads, " +
                             std::to_string(dynamic_shared) + " bytes of dynamic shared memory";
    const void* f = nullptr;
    cudaFuncAttributes attr{};
    if (Status s = attributes(id, what, &f, &attr); !s) return s;
    int blocks = 0;
    if (Status s = cuda_status(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, int(block_threads), dynamic_shared),
                               ("cudaOccupancyMaxActiveBlocksPerMultiprocessor (" + what + ")").c_str());
        !s)
        return s;
    if (blocks_per_sm) *blocks_per_sm = blocks;
    if (regs_per_thread) *regs_per_thread = attr.numRegs;
    return Status::ok();
}

Status cuda_kernel_resources(KernelRef id, KernelResources* out) {
    const void* f = nullptr;
    cudaFuncAttributes attr{};
    if (Status s = attributes(id, to_string(id), &f, &attr); !s) return s;
    if (out) *out = KernelResources{attr.numRegs, int(attr.sharedSizeBytes)};
    return Status::ok();
}

}  // namespace cvz
