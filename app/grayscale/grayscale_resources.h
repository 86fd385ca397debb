#pragma once
// What a grayscale launch needs on an SM (app/models/kernel_resources.h), and the kernel it runs.
#include "app/models/kernel_resources.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

BlockResources grayscale_block_resources(const LaunchShape& shape);

// The compiled kernel a grayscale launch runs.
KernelRef grayscale_kernel_ref(const LaunchShape& shape);

}  // namespace cvz
