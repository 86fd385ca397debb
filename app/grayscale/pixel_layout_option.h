#pragma once
#include <QString>

#include <optional>

#include "kernels/grayscale/grayscale_image.h"

namespace cvz::cli {

// --layout: "interleaved" (R G B R G B ..., as files store pixels) or "planar" (the lecture's C x H x W).
std::optional<PixelLayout> parse_pixel_layout(const QString& text);

}  // namespace cvz::cli
