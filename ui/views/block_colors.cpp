#include "ui/views/block_colors.h"

#include <algorithm>
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

QColor color_for_warp(std::uint64_t block, std::uint64_t warp, std::uint64_t warps_per_block) {
    const float last = float(std::max<std::uint64_t>(1, warps_per_block) - 1);
    const float ramp = last > 0 ? float(warp) / std::max(1.0f, last) : 0.0f;
    const float value = 0.95f - 0.3f * ramp - 0.2f * float(warp % 2);
    return color_for_id(block, 0.65, double(value));
}

QColor color_for_thread(std::uint64_t thread, std::uint64_t threads_per_block) {
    const float last = float(std::max<std::uint64_t>(1, threads_per_block) - 1);
    const float t = last > 0 ? float(thread) / std::max(1.0f, last) : 0.0f;
    return QColor::fromHsvF(0.8f * t, 0.65, 0.95);
}

}  // namespace cvz
