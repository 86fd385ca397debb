#include "launch_limits.h"

namespace cvz {

namespace {
std::string dim_error(const char* what, char axis, unsigned value, unsigned max) {
    return std::string(what) + "." + axis + " = " + std::to_string(value) + " is outside 1.." +
           std::to_string(max);
}
}  // namespace

std::string validate_block(Dim3 block, const LaunchLimits& limits) {
    if (block.x < 1 || block.x > limits.max_block.x) return dim_error("blockDim", 'x', block.x, limits.max_block.x);
    if (block.y < 1 || block.y > limits.max_block.y) return dim_error("blockDim", 'y', block.y, limits.max_block.y);
    if (block.z < 1 || block.z > limits.max_block.z) return dim_error("blockDim", 'z', block.z, limits.max_block.z);
    if (block.volume() > limits.max_threads_per_block)
        return "a block of " + std::to_string(block.x) + "x" + std::to_string(block.y) + "x" +
               std::to_string(block.z) + " = " + std::to_string(block.volume()) +
               " threads exceeds the limit of " + std::to_string(limits.max_threads_per_block) +
               " threads per block";
    return {};
}

std::string validate_grid(Dim3 grid, const LaunchLimits& limits) {
    if (grid.x < 1 || grid.x > limits.max_grid.x) return dim_error("gridDim", 'x', grid.x, limits.max_grid.x);
    if (grid.y < 1 || grid.y > limits.max_grid.y) return dim_error("gridDim", 'y', grid.y, limits.max_grid.y);
    if (grid.z < 1 || grid.z > limits.max_grid.z) return dim_error("gridDim", 'z', grid.z, limits.max_grid.z);
    return {};
}

}  // namespace cvz
