#pragma once
// What a matmul launch needs on an SM (app/models/kernel_resources.h).
#include "app/models/kernel_resources.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

BlockResources matmul_block_resources(const MatmulLaunch& launch);

}  // namespace cvz
