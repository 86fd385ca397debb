#include "app/grayscale/pixel_layout_option.h"

namespace cvz::cli {

std::optional<PixelLayout> parse_pixel_layout(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == "interleaved") return PixelLayout::Interleaved;
    if (t == "planar") return PixelLayout::Planar;
    return std::nullopt;
}

}  // namespace cvz::cli
