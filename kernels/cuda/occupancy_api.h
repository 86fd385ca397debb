#pragma once
// The CUDA occupancy API for cudaviz's kernels, in plain types (no cuda_runtime.h), so that app/ can
// ask the device when there is one and fall back to the model of app/occupancy_model.h when not.
#include <cstddef>

#include "../core/kernel_variant.h"
#include "../core/status.h"
#include "../core/variant_dispatch.h"

namespace cvz {

// Which compiled kernel the occupancy API is asked about: a catalogue reference (family, variant,
// TILE). to_string(KernelRef) is in kernels/catalogue/kernel_catalogue.h.
using KernelId = KernelRef;

// Asks the CUDA runtime, for the current device, how many blocks of `block_threads` threads with
// `dynamic_shared` bytes of dynamic shared memory of kernel `id` one SM holds at once
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) and how many registers a thread of it uses
// (cudaFuncGetAttributes' numRegs). Either out-pointer may be null. A block the kernel cannot run
// comes back as 0 blocks or as CUDA's refusal. An unknown variant or TILE: ErrorKind::InvalidInput.
// Without the toolkit or a device: ErrorKind::Unavailable.
Status cuda_kernel_occupancy(KernelRef id, unsigned block_threads, std::size_t dynamic_shared, int* blocks_per_sm,
                             int* regs_per_thread);

// Registers per thread and static shared bytes of the compiled kernel, from cudaFuncGetAttributes on
// the current device. Errors as cuda_kernel_occupancy.
Status cuda_kernel_resources(KernelRef id, KernelResources* out);

}  // namespace cvz
