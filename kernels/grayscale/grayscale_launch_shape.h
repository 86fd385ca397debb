#pragma once
#include <cstdint>
#include <string>

#include "../core/dim3.h"
#include "../core/kernel_variant.h"

namespace cvz {

// The grayscale family's variants, by their index in the table of grayscale_variants.h (which names
// them: "gray_1d", "gray_2d", ...). A new variant adds its enumerator here and its spec there.
enum class GrayscaleVariant : std::uint8_t {
    Gray1d,
    Gray2d,
    Gray1dX4,
    GrayVec16,
    GrayVec16Waves,
    // The names of the lecture's two launches.
    OneD = Gray1d,
    TwoD = Gray2d,
};

// A grayscale launch: which variant, and its block.
struct LaunchShape {
    GrayscaleVariant kind = GrayscaleVariant::Gray1d;
    Dim3 block{256, 1, 1};

    static LaunchShape one_d(unsigned threads) { return {GrayscaleVariant::Gray1d, Dim3{threads, 1, 1}}; }
    static LaunchShape two_d(unsigned bx, unsigned by) { return {GrayscaleVariant::Gray2d, Dim3{bx, by, 1}}; }
    static LaunchShape of(GrayscaleVariant variant, Dim3 block) { return {variant, block}; }
};

inline bool operator==(const LaunchShape& a, const LaunchShape& b) { return a.kind == b.kind && a.block == b.block; }
inline bool operator!=(const LaunchShape& a, const LaunchShape& b) { return !(a == b); }

// "256" for a 1-D block, "16x16" for a 2-D one: the CLI's --block syntax.
std::string to_string(const LaunchShape& shape);

}  // namespace cvz
