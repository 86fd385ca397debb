#pragma once
// The grayscale launch (LaunchShape, GridKind) lives with its family in kernels/grayscale/; this header
// keeps the old include path working and formats a Dim3.
#include <string>

#include "../grayscale/grayscale_launch_shape.h"
#include "dim3.h"

namespace cvz {

// "64x32x1": a dim3 in error messages.
std::string to_string(Dim3 d);

}  // namespace cvz
