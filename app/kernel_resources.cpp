#include "kernel_resources.h"

namespace cvz {

BlockResources grayscale_block_resources(const LaunchShape& shape) {
    return {int(shape.block.volume()),
            shape.kind == GridKind::OneD ? KernelRegisterTable::kGrayscale1d : KernelRegisterTable::kGrayscale2d, 0};
}

BlockResources matmul_block_resources(const MatmulLaunch& launch) {
    return {int(launch.block_shape().volume()),
            launch.kernel == MatmulKernel::Naive ? KernelRegisterTable::kMatmulNaive : KernelRegisterTable::matmul_tiled(launch.tile),
            int(launch.shared_bytes())};
}

}  // namespace cvz
