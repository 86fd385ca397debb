#include "app/matmul/matmul_resources.h"

namespace cvz {

BlockResources matmul_block_resources(const MatmulLaunch& launch) {
    return block_resources(launch.ref(), launch.block_shape(), launch.shared_bytes());
}

}  // namespace cvz
