// The grayscale family's GPU occupancy hook: the address of the very __global__ kernel its launchers use
// (grayscale_kernels.cuh: same source, same flags, hence the same registers), for occupancy_api.cu.
#include "grayscale_family.h"
#include "grayscale_kernels.cuh"

namespace cvz {

Status GrayscaleFamily::kernel_address(std::uint8_t variant, unsigned tile, const void** kernel) {
    return with_variant(GrayscaleVariants{}, name, GrayscaleVariant(variant), tile, [kernel](auto body) {
        *kernel = reinterpret_cast<const void*>(&grayscale_kernel<decltype(body), DeviceContext>);
    });
}

}  // namespace cvz
