#include "block_colors.h"

#include <cmath>

namespace cvz {

namespace {
constexpr double kGolden = 0.61803398874989484820;
}

QColor color_for_id(std::uint64_t id, double saturation, double value) {
    // fract(id * golden) in float, as the shader computes it (ids below 2^24 are exact in float).
    const float h = float(std::uint32_t(id % 16777216u)) * float(kGolden);
    return QColor::fromHsvF(h - std::floor(h), saturation, value);
}

QColor color_for_warp(std::uint64_t block, std::uint64_t warp) {
    return color_for_id(block, 0.65, 0.95 - 0.5 * double(warp % 32) / 31.0);
}

}  // namespace cvz
