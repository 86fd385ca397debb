// The matmul family's GPU occupancy hook: the address of the very __global__ kernel its launchers use
// (matmul_kernels.cuh: same source, same flags, hence the same registers), for occupancy_api.cu.
#include "matmul_family.h"
#include "matmul_kernels.cuh"

namespace cvz {

Status MatmulFamily::kernel_address(std::uint8_t variant, unsigned tile, const void** kernel) {
    return with_variant(MatmulVariants{}, name, MatmulVariant(variant), tile, [kernel](auto body) {
        *kernel = reinterpret_cast<const void*>(matmul_kernel_for<decltype(body)>());
    });
}

}  // namespace cvz
