#pragma once
#include <cstdint>
#include <vector>

namespace cvz {

// Interleaved RGB (R G B R G B ...) to the lecture's planar C x H x W (all R, then all G, then all B).
std::vector<std::uint8_t> interleaved_to_planar(const std::uint8_t* rgb, std::uint64_t pixels);

}  // namespace cvz
