#include "grayscale_planar.h"

namespace cvz {

std::vector<std::uint8_t> interleaved_to_planar(const std::uint8_t* rgb, std::uint64_t n) {
    std::vector<std::uint8_t> planar(3 * n);
    for (std::uint64_t i = 0; i < n; ++i)
        for (unsigned c = 0; c < 3; ++c) planar[c * n + i] = rgb[3 * i + c];
    return planar;
}

}  // namespace cvz
