#pragma once
// What `cudaviz-cli convolution` writes: the float32 output as .npy (shape (H, W)), or as an 8-bit
// grayscale .png with every value clamped to 0..255 and truncated (NaN as 0). Chosen by OUT's
// extension (case-insensitive).
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace cvz {

enum class ConvolutionOutputKind { Npy, Png };

std::optional<ConvolutionOutputKind> convolution_output_kind(const QString& path);

// The PNG's bytes: clamp(v, 0, 255) truncated toward zero; NaN gives 0.
std::vector<std::uint8_t> convolution_to_bytes(const std::vector<float>& out);

// Writes width*height floats to `path`, replacing it atomically. Empty on success, else a sentence
// naming the path and the problem.
QString write_convolution_output(const QString& path, ConvolutionOutputKind kind, const std::vector<float>& out,
                                 std::uint32_t width, std::uint32_t height);

}  // namespace cvz
