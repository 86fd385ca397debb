#pragma once
// The convolution family as the kernels layer registers it (kernels/catalogue/families.h): its name,
// problem type, variant table, GPU occupancy hook and the notes on its memory figures.
#include <cstdint>
#include <string>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/status.h"
#include "convolution_variants.h"

namespace cvz {

struct ConvolutionFamily {
    static constexpr KernelFamily id = KernelFamily::Convolution;
    static constexpr const char* name = "convolution";
    static constexpr const char* problem = "ConvolutionProblem";
    using Variant = ConvolutionVariant;
    using Variants = ConvolutionVariants;
    static const std::vector<KernelInfo>& catalogue() { return convolution_catalogue(); }
    // The address of the __global__ kernel of a variant, for CUDA's occupancy API
    // (convolution_occupancy.cu; Unavailable without the toolkit).
    static Status kernel_address(std::uint8_t variant, unsigned tile, const void** kernel);
    // How the compiled code changes the trace's figures of variant `name`; empty when not measured.
    static std::string counter_note(const std::string& name);
};

}  // namespace cvz
