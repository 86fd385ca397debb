#include "app/convolution/convolution_output.h"

#include <QFileInfo>

#include <cmath>

#include "app/grayscale/gray_output.h"
#include "app/io/npy_writer.h"

namespace cvz {

std::optional<ConvolutionOutputKind> convolution_output_kind(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("npy")) return ConvolutionOutputKind::Npy;
    if (suffix == QLatin1String("png")) return ConvolutionOutputKind::Png;
    return std::nullopt;
}

std::vector<std::uint8_t> convolution_to_bytes(const std::vector<float>& out) {
    std::vector<std::uint8_t> bytes(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const float v = out[i];
        bytes[i] = !(v > 0.0f) ? 0 : v >= 255.0f ? 255 : std::uint8_t(v);  // NaN fails v > 0
    }
    return bytes;
}

QString write_convolution_output(const QString& path, ConvolutionOutputKind kind, const std::vector<float>& out,
                                 std::uint32_t width, std::uint32_t height) {
    if (kind == ConvolutionOutputKind::Npy) return write_npy_f32(path, out.data(), height, width);
    return write_gray_output(path, GrayOutputKind::Png, convolution_to_bytes(out), width, height);
}

}  // namespace cvz
