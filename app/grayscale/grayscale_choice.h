#pragma once
// The grayscale session's launch (LaunchShape: a variant and its block) as the launch panel edits it
// (a LaunchChoice), and back. The pixel layout belongs to the problem, not to the choice: the image
// page keeps it.
#include "app/family/launch_choice.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

LaunchChoice grayscale_choice(const LaunchShape& shape);

// The shape a choice of a grayscale variant runs: its variant, and the block its rule launches
// (launched_block). The choice is of the grayscale family (the image page binds only that one).
LaunchShape grayscale_shape(const LaunchChoice& choice);

}  // namespace cvz
