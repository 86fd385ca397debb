#pragma once
#include <QImage>

#include <cstdint>
#include <vector>

namespace cvz {

// An image as the kernels take it: width*height pixels, 3 bytes each, interleaved, no row padding
// (QImage pads every scanline to 4 bytes).
struct RgbBuffer {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint8_t> bytes;  // 3 * width * height
};

RgbBuffer to_rgb_buffer(const QImage& image);  // any QImage; converted to RGB888 first

// width*height grey bytes as an 8-bit grey QImage (a deep copy).
QImage gray_to_qimage(const std::vector<std::uint8_t>& gray, std::uint32_t width, std::uint32_t height);

}  // namespace cvz
