#pragma once
#include <QRect>

#include <cstdint>

#include "app/models/launch_plan.h"

namespace cvz {

// The image-pixel rectangle that a block, or one warp of it, covers in the first grid-stride pass
// (it may reach past the image, over idle threads): what View > Zoom to Block and Zoom to Warp
// frame. The inverse of LaunchPlan::thread_of_pixel: 1-D, the block's (warp's) run of the flattened
// image, one row's part of it or the whole rows it touches; 2-D, its columns (items per thread
// included) and rows. An empty rectangle for a block or warp the launch does not have.
QRect block_extent(const LaunchPlan& plan, std::uint64_t linear_block);
QRect warp_extent(const LaunchPlan& plan, std::uint64_t linear_block, std::uint64_t warp);

}  // namespace cvz
