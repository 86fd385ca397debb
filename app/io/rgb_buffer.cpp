#include "app/io/rgb_buffer.h"

#include <cstring>

namespace cvz {

RgbBuffer to_rgb_buffer(const QImage& image) {
    const QImage rgb = image.format() == QImage::Format_RGB888 ? image : image.convertToFormat(QImage::Format_RGB888);
    RgbBuffer out;
    out.width = std::uint32_t(rgb.width());
    out.height = std::uint32_t(rgb.height());
    const std::size_t row = std::size_t(out.width) * 3;
    out.bytes.resize(row * out.height);
    for (std::uint32_t y = 0; y < out.height; ++y) std::memcpy(out.bytes.data() + y * row, rgb.constScanLine(int(y)), row);
    return out;
}

QImage gray_to_qimage(const std::vector<std::uint8_t>& gray, std::uint32_t width, std::uint32_t height) {
    QImage img(int(width), int(height), QImage::Format_Grayscale8);
    if (img.isNull()) return img;
    for (std::uint32_t y = 0; y < height; ++y)
        std::memcpy(img.scanLine(int(y)), gray.data() + std::size_t(y) * width, width);
    return img;
}

}  // namespace cvz
