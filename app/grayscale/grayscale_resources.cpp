#include "app/grayscale/grayscale_resources.h"

#include "kernels/grayscale/grayscale_launch.h"

namespace cvz {

KernelRef grayscale_kernel_ref(const LaunchShape& shape) {
    return {KernelFamily::Grayscale, std::uint8_t(shape.kind), 0};
}

BlockResources grayscale_block_resources(const LaunchShape& shape) {
    return block_resources(grayscale_kernel_ref(shape), shape.block, grayscale_shared_bytes(shape));
}

}  // namespace cvz
