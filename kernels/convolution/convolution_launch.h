#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "../core/dim3.h"
#include "../core/kernel_variant.h"
#include "convolution_problem.h"

namespace cvz {

// The convolution family's variants, by their index in the table of convolution_variants.h (which
// names them "conv_naive", "conv_constant", "conv_tiled", "conv_tiled_cached").
enum class ConvolutionVariant : std::uint8_t { Naive, Constant, Tiled, TiledCached };

// How a convolution is launched: the variant and its 2-D block. One thread per output pixel; a block
// computes a block.x x block.y tile of the output (every variant).
struct ConvolutionLaunch {
    ConvolutionVariant kernel = ConvolutionVariant::Naive;
    Dim3 block{16, 16, 1};

    static ConvolutionLaunch of(ConvolutionVariant variant, Dim3 block) { return {variant, block}; }
    // The compiled kernel it runs.
    KernelRef ref() const;
};

std::string to_string(const ConvolutionLaunch& launch);  // "tiled 16x16"

// The grid: cdiv(width, block.x) x cdiv(height, block.y).
Dim3 convolution_grid(const ConvolutionLaunch& launch, std::uint32_t width, std::uint32_t height);

// The outputs one block computes, columns x rows: its block.
Dim3 convolution_output_tile(const ConvolutionLaunch& launch);
// What a block stages in shared memory, columns x rows: conv_tiled the output tile with its halo
// (block + 2R each way, PMPP 7.4), conv_tiled_cached the output tile alone (its halo comes from the
// caches, PMPP 7.5); {0, 0, 1} for the variants that stage nothing.
Dim3 convolution_input_tile(const ConvolutionLaunch& launch, std::uint32_t mask_side);
// True when the variant reads the mask from __constant__ memory (all but conv_naive).
bool convolution_mask_in_constant(ConvolutionVariant variant);

// Dynamic shared memory of the launch for a mask of `mask_side`: the staged tile as floats.
std::size_t convolution_shared_bytes(const ConvolutionLaunch& launch, std::uint32_t mask_side);

// Empty when the launch is valid for a width x height image and a mask of side `mask_side`, else the
// reason (an unknown variant, an even or too large mask side, a block CUDA refuses, an empty image).
std::string validate_convolution_launch(const ConvolutionLaunch& launch, std::uint32_t width, std::uint32_t height,
                                        std::uint32_t mask_side);

}  // namespace cvz
