#pragma once
#include <QColor>

#include <cstdint>

namespace cvz {

// Deterministic colours (after Tracy): the hue comes from the id through the golden ratio, so
// neighbouring blocks differ and the same block has the same colour in every view. The overlay
// shader (resources/shaders/image.frag, id_color) computes exactly the same function.
QColor color_for_id(std::uint64_t id, double saturation = 0.65, double value = 0.95);

// The colour of a warp inside its block: the block's hue, darker for later warps.
QColor color_for_warp(std::uint64_t block, std::uint64_t warp);

}  // namespace cvz
