#pragma once
// The CUDA occupancy API for cudaviz's kernels, in plain types (no cuda_runtime.h), so that app/ can
// ask the device when there is one and fall back to the model of app/occupancy_model.h when not.
#include <cstddef>

#include "../core/status.h"

namespace cvz {

// Every __global__ kernel the app launches, as the occupancy API needs to name it.
enum class KernelId { Grayscale1d, Grayscale2d, MatmulNaive, MatmulTiled8, MatmulTiled16, MatmulTiled32 };

inline const char* to_string(KernelId id) {
    switch (id) {
        case KernelId::Grayscale1d: return "grayscale 1-D";
        case KernelId::Grayscale2d: return "grayscale 2-D";
        case KernelId::MatmulNaive: return "matmul naive";
        case KernelId::MatmulTiled8: return "matmul tiled TILE=8";
        case KernelId::MatmulTiled16: return "matmul tiled TILE=16";
        case KernelId::MatmulTiled32: return "matmul tiled TILE=32";
    }
    return "unknown kernel";
}

// Asks the CUDA runtime, for the current device, how many blocks of `block_threads` threads with
// `dynamic_shared` bytes of dynamic shared memory of kernel `id` one SM holds at once
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) and how many registers a thread of it uses
// (cudaFuncGetAttributes' numRegs). Either out-pointer may be null. A block the kernel cannot run
// comes back as 0 blocks or as CUDA's refusal. Without the toolkit or a device: ErrorKind::Unavailable.
Status cuda_kernel_occupancy(KernelId id, unsigned block_threads, std::size_t dynamic_shared, int* blocks_per_sm,
                             int* regs_per_thread);

}  // namespace cvz
