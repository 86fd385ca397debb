#pragma once
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace cvz::cli {

// What `grayscale` writes, chosen by OUT's extension (case-insensitive).
enum class GrayOutputKind {
    Png,  // 8-bit grayscale PNG (QImage::Format_Grayscale8)
    Npy,  // NumPy uint8 array of shape (height, width)
};

std::optional<GrayOutputKind> gray_output_kind(const QString& path);

// Writes width*height grey bytes to `path`, replacing it atomically. Empty on success, else a sentence
// naming the path and the problem.
QString write_gray_output(const QString& path, GrayOutputKind kind, const std::vector<std::uint8_t>& gray,
                          std::uint32_t width, std::uint32_t height);

}  // namespace cvz::cli
