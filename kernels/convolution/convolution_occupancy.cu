// The convolution family's GPU occupancy hook: the address of the very __global__ kernel its launchers use
// (convolution_kernels.cuh: same source, same flags, hence the same registers), for occupancy_api.cu.
#include "convolution_family.h"
#include "convolution_kernels.cuh"

namespace cvz {

Status ConvolutionFamily::kernel_address(std::uint8_t variant, unsigned tile, const void** kernel) {
    return with_variant(ConvolutionVariants{}, name, ConvolutionVariant(variant), tile, [kernel](auto body) {
        *kernel = reinterpret_cast<const void*>(&convolution_kernel<decltype(body)>);
    });
}

}  // namespace cvz
