#pragma once
#include <QImage>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "app/io/image_files.h"

namespace cvz {

// What `cudaviz-cli grayscale --out` and the GUI's File > Save Result As write: one writer, so both
// give the same bytes. Chosen by the file's extension (case-insensitive).
enum class GrayOutputKind {
    Png,  // 8-bit grayscale PNG (QImage::Format_Grayscale8)
    Npy,  // NumPy uint8 array of shape (height, width)
};

std::optional<GrayOutputKind> gray_output_kind(const QString& path);

// Writes width*height grey bytes to `path`, replacing it atomically. Empty on success, else a sentence
// naming the path and the problem.
QString write_gray_output(const QString& path, GrayOutputKind kind, const std::vector<std::uint8_t>& gray,
                          std::uint32_t width, std::uint32_t height);


// The grey bytes of a Format_Grayscale8 image, row by row without the scanline padding (empty for
// any other format).
std::vector<std::uint8_t> gray_bytes(const QImage& image);

}  // namespace cvz
