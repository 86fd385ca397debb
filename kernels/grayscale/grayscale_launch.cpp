#include "grayscale_launch.h"

#include <algorithm>

#include "../core/launch_limits.h"
#include "grayscale_variants.h"

namespace cvz {

BlockRule grayscale_rule(const LaunchShape& shape) {
    const KernelInfo* info = grayscale_variant_info(shape.kind);
    return info ? info->block : BlockRule::OneD;
}

unsigned grayscale_items_per_thread(const LaunchShape& shape) {
    const KernelInfo* info = grayscale_variant_info(shape.kind);
    return info ? std::max(1u, info->items_per_thread) : 1u;
}

std::size_t grayscale_shared_bytes(const LaunchShape& shape) {
    std::size_t bytes = 0;
    with_grayscale_variant(shape.kind, [&](auto body) { bytes = decltype(body)::shared_bytes(shape.block); });
    return bytes;
}

std::string to_string(const LaunchShape& shape) {
    if (grayscale_rule(shape) == BlockRule::OneD) return std::to_string(shape.block.x);
    return std::to_string(shape.block.x) + "x" + std::to_string(shape.block.y);
}

Dim3 grayscale_grid(const LaunchShape& shape, std::uint32_t width, std::uint32_t height) {
    const LaunchLimits limits;
    const std::uint64_t items = grayscale_items_per_thread(shape);
    if (grayscale_rule(shape) == BlockRule::OneD) {
        std::uint64_t blocks = cdiv(std::uint64_t(width) * height, std::max(1u, shape.block.x) * items);
        const KernelInfo* info = grayscale_variant_info(shape.kind);
        if (info && info->grid_threads) blocks = std::min(blocks, cdiv(info->grid_threads, std::max(1u, shape.block.x)));
        return Dim3{unsigned(std::min<std::uint64_t>(blocks, 0xFFFFFFFFull)), 1, 1};
    }
    const std::uint64_t gx = cdiv(width, std::max(1u, shape.block.x) * items);
    const std::uint64_t gy = std::min<std::uint64_t>(cdiv(height, std::max(1u, shape.block.y)), limits.max_grid.y);
    return Dim3{unsigned(std::min<std::uint64_t>(gx, 0xFFFFFFFFull)), unsigned(gy), 1};
}

std::string validate_grayscale_launch(const LaunchShape& shape, std::uint32_t width, std::uint32_t height) {
    const KernelInfo* info = grayscale_variant_info(shape.kind);
    if (!info) return "there is no grayscale kernel variant number " + std::to_string(int(shape.kind));
    if (width == 0 || height == 0) return "the image is empty (" + std::to_string(width) + "x" + std::to_string(height) + ")";
    if (info->block == BlockRule::OneD && (shape.block.y != 1 || shape.block.z != 1))
        return "a 1-D launch needs blockDim.y = blockDim.z = 1";
    if (info->block == BlockRule::Fixed && !(shape.block == info->fixed_block))
        return info->name + " runs with a fixed block of " + std::to_string(info->fixed_block.x) + "x" +
               std::to_string(info->fixed_block.y) + " threads";
    if (std::string e = validate_block(shape.block); !e.empty()) return e;
    const LaunchLimits limits;
    const Dim3 grid = grayscale_grid(shape, width, height);
    if (grid.x > limits.max_grid.x || grid.x == 0xFFFFFFFFu) {
        const std::uint64_t per = std::uint64_t(shape.block.x) * std::max(1u, info->items_per_thread);
        const std::uint64_t gx = info->block == BlockRule::OneD ? cdiv(std::uint64_t(width) * height, per) : cdiv(width, per);
        return "the grid would need " + std::to_string(gx) + " blocks in x, more than CUDA's limit of " +
               std::to_string(limits.max_grid.x);
    }
    return {};
}

std::string validate_grayscale_layout(const LaunchShape& shape, PixelLayout layout) {
    const KernelInfo* info = grayscale_variant_info(shape.kind);
    if (!info) return "there is no grayscale kernel variant number " + std::to_string(int(shape.kind));
    const char* name = layout == PixelLayout::Planar ? "planar" : "interleaved";
    for (const std::string& l : info->layouts)
        if (l == name) return {};
    return info->name + " does not read " + name + " pixels";
}

}  // namespace cvz
