#pragma once
#include <QString>

#include "kernels/core/dim3_text.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

// A launch configuration as the user gives it: "256" (1-D threads per block) or "16x16" (2-D
// blockDim.x x blockDim.y). Parsing and validation with sentences a user can act on.
struct LaunchConfigParse {
    LaunchShape shape;
    QString error;  // empty when valid
    bool ok() const { return error.isEmpty(); }
};

LaunchConfigParse parse_launch_config(const QString& text);

// Empty when `shape` is a block CUDA accepts (positive, <= 1024 threads, each dimension in range).
QString validate_launch_config(const LaunchShape& shape);

}  // namespace cvz
