#pragma once
#include "kernels/core/kernel_variant.h"
#include "kernels/core/variant_dispatch.h"
#include "app/models/occupancy_model.h"

namespace cvz {

// Registers per thread and static shared bytes of a compiled kernel: from the compiled kernel
// (cudaFuncGetAttributes) when a CUDA device exists, else from the families' table of ptxas figures
// (table_kernel_resources, checked against the build's `ptxas -v` by tst_kernel_resources).
// Each kernel is asked once per process. An unknown variant or TILE gives zeros.
KernelResources kernel_resources(const KernelRef& ref);

// What one block of a launch needs on an SM: its threads, the kernel's registers, and its static plus
// dynamic shared memory.
BlockResources block_resources(const KernelRef& ref, Dim3 block, std::size_t dynamic_shared_bytes);
// A family's launch: app/<family>/<family>_resources.h.

}  // namespace cvz
