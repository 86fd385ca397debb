#include "convolution_launch.h"

#include "../core/launch_limits.h"
#include "convolution_mask.h"
#include "convolution_variants.h"

namespace cvz {

KernelRef ConvolutionLaunch::ref() const { return {KernelFamily::Convolution, std::uint8_t(kernel), 0}; }

std::string to_string(const ConvolutionLaunch& l) {
    const KernelInfo* info = convolution_variant_info(l.kernel);
    const std::string block = std::to_string(l.block.x) + "x" + std::to_string(l.block.y);
    return (info ? info->label : "convolution variant " + std::to_string(int(l.kernel))) + " " + block;
}

Dim3 convolution_grid(const ConvolutionLaunch& l, std::uint32_t width, std::uint32_t height) {
    if (l.block.x == 0 || l.block.y == 0) return Dim3{0, 0, 1};
    return Dim3{unsigned(cdiv(width, l.block.x)), unsigned(cdiv(height, l.block.y)), 1};
}

Dim3 convolution_output_tile(const ConvolutionLaunch& l) { return Dim3{l.block.x, l.block.y, 1}; }

Dim3 convolution_input_tile(const ConvolutionLaunch& l, std::uint32_t mask_side) {
    Dim3 tile{0, 0, 1};
    with_convolution_variant(l.kernel, [&](auto body) {
        using Body = decltype(body);
        if constexpr (Body::staging == ConvolutionStaging::TileWithHalo)
            tile = Dim3{l.block.x + mask_side - 1, l.block.y + mask_side - 1, 1};
        else if constexpr (Body::staging == ConvolutionStaging::TileOnly)
            tile = Dim3{l.block.x, l.block.y, 1};
    });
    return tile;
}

bool convolution_mask_in_constant(ConvolutionVariant variant) {
    bool constant = false;
    with_convolution_variant(variant, [&](auto body) { constant = decltype(body)::constant_mask; });
    return constant;
}

std::size_t convolution_shared_bytes(const ConvolutionLaunch& l, std::uint32_t mask_side) {
    std::size_t bytes = 0;
    with_convolution_variant(l.kernel, [&](auto body) { bytes = decltype(body)::shared_bytes(l.block, mask_side); });
    return bytes;
}

std::string validate_convolution_launch(const ConvolutionLaunch& l, std::uint32_t width, std::uint32_t height,
                                        std::uint32_t mask_side) {
    if (!convolution_variant_info(l.kernel))
        return "there is no convolution kernel variant number " + std::to_string(int(l.kernel));
    if (width == 0 || height == 0)
        return "the image is empty (" + std::to_string(width) + "x" + std::to_string(height) + ")";
    if (std::string e = validate_mask_shape(mask_side, mask_side); !e.empty()) return e;
    if (l.block.z != 1) return "a convolution launch has blockDim.z = 1";
    if (std::string e = validate_block(l.block); !e.empty()) return e;
    // 48 KiB: what a block may take without opting in to more (cudaFuncSetAttribute), which the
    // launchers do not do.
    const std::size_t shared = convolution_shared_bytes(l, mask_side);
    if (shared > 48 * 1024)
        return "the block's tile takes " + std::to_string(shared) + " bytes of shared memory, more than 49152";
    return validate_grid(convolution_grid(l, width, height));
}

}  // namespace cvz
