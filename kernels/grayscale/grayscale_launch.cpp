#include "grayscale_launch.h"

#include <algorithm>

#include "../core/launch_limits.h"

namespace cvz {

Dim3 grayscale_grid(const LaunchShape& shape, std::uint32_t width, std::uint32_t height) {
    const LaunchLimits limits;
    if (shape.kind == GridKind::OneD) {
        const std::uint64_t blocks = cdiv(std::uint64_t(width) * height, std::max(1u, shape.block.x));
        return Dim3{unsigned(std::min<std::uint64_t>(blocks, 0xFFFFFFFFull)), 1, 1};
    }
    const std::uint64_t gx = cdiv(width, std::max(1u, shape.block.x));
    const std::uint64_t gy = std::min<std::uint64_t>(cdiv(height, std::max(1u, shape.block.y)), limits.max_grid.y);
    return Dim3{unsigned(std::min<std::uint64_t>(gx, 0xFFFFFFFFull)), unsigned(gy), 1};
}

std::string validate_grayscale_launch(const LaunchShape& shape, std::uint32_t width, std::uint32_t height) {
    if (width == 0 || height == 0) return "the image is empty (" + std::to_string(width) + "x" + std::to_string(height) + ")";
    if (shape.kind == GridKind::OneD && (shape.block.y != 1 || shape.block.z != 1))
        return "a 1-D launch needs blockDim.y = blockDim.z = 1";
    if (std::string e = validate_block(shape.block); !e.empty()) return e;
    const LaunchLimits limits;
    const std::uint64_t n = std::uint64_t(width) * height;
    const std::uint64_t gx = shape.kind == GridKind::OneD ? cdiv(n, shape.block.x) : cdiv(width, shape.block.x);
    if (gx > limits.max_grid.x)
        return "the grid would need " + std::to_string(gx) + " blocks in x, more than CUDA's limit of " +
               std::to_string(limits.max_grid.x);
    return {};
}

}  // namespace cvz
