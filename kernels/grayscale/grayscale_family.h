#pragma once
// The grayscale family as the kernels layer registers it (kernels/catalogue/families.h): its name,
// problem type, variant table, GPU occupancy hook and the notes on its memory figures.
#include <cstdint>
#include <string>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/status.h"
#include "grayscale_variants.h"

namespace cvz {

struct GrayscaleFamily {
    static constexpr KernelFamily id = KernelFamily::Grayscale;
    static constexpr const char* name = "grayscale";
    static constexpr const char* problem = "GrayscaleImage";
    using Variant = GrayscaleVariant;
    using Variants = GrayscaleVariants;
    static const std::vector<KernelInfo>& catalogue() { return grayscale_catalogue(); }
    // The address of the __global__ kernel of a variant, for CUDA's occupancy API
    // (grayscale_occupancy.cu; Unavailable without the toolkit).
    static Status kernel_address(std::uint8_t variant, unsigned tile, const void** kernel);
    // How the compiled code changes the trace's figures of variant `name`; empty when not measured.
    static std::string counter_note(const std::string& name);
};

}  // namespace cvz
