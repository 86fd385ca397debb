#include "app/grayscale/gray_output.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

#include "app/io/npy_writer.h"
#include "app/io/rgb_buffer.h"

namespace cvz {

namespace {

QString cannot_write(const QString& path, const QString& why) { return cannot_write_message(path, why); }

QString write_png(const QString& path, const std::vector<std::uint8_t>& gray, std::uint32_t width,
                  std::uint32_t height) {
    QImage image = gray_to_qimage(gray, width, height);
    if (image.isNull()) return cannot_write(path, "not enough memory for the image");
    // A fixed resolution (96 dpi) in the pHYs chunk: QImage takes the screen's, or a default without
    // one, and the CLI and the GUI must write the same bytes.
    constexpr int kDotsPerMeter = 3780;
    image.setDotsPerMeterX(kDotsPerMeter);
    image.setDotsPerMeterY(kDotsPerMeter);
    return write_png_file(path, image);
}

}  // namespace

std::optional<GrayOutputKind> gray_output_kind(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png") return GrayOutputKind::Png;
    if (suffix == "npy") return GrayOutputKind::Npy;
    return std::nullopt;
}

QString write_gray_output(const QString& path, GrayOutputKind kind, const std::vector<std::uint8_t>& gray,
                          std::uint32_t width, std::uint32_t height) {
    if (gray.size() != std::size_t(width) * height)
        return cannot_write(path,
                            QString("expected %1 x %2 grey bytes, got %3").arg(width).arg(height).arg(gray.size()));
    if (kind == GrayOutputKind::Npy) return write_npy_u8(path, gray.data(), height, width);
    return write_png(path, gray, width, height);
}

std::vector<std::uint8_t> gray_bytes(const QImage& image) {
    if (image.format() != QImage::Format_Grayscale8) return {};
    std::vector<std::uint8_t> bytes(std::size_t(image.width()) * std::size_t(image.height()));
    for (int y = 0; y < image.height(); ++y)
        std::copy_n(image.constScanLine(y), image.width(), bytes.begin() + std::ptrdiff_t(y) * image.width());
    return bytes;
}

}  // namespace cvz
