#pragma once
#include <QByteArray>
#include <QString>

#include <cstdint>

namespace cvz {

// The element types cudaviz writes: grey bytes now, float32 matrices.
enum class NpyDtype { U8, F32 };

// The .npy v1.0 preamble for a C-order 2-D array of `rows` x `cols`, byte for byte as NumPy's
// np.save writes it: magic, version 1.0, little-endian header length, the header dict with NumPy's
// spare space for growing the first axis, padded with spaces to a multiple of 64 bytes, then '\n'.
QByteArray npy_header(NpyDtype dtype, std::uint64_t rows, std::uint64_t cols);

// Writes a row-major rows x cols array (`data` holds rows*cols elements) to `path` as .npy.
// The file is replaced atomically. Returns an empty string on success, else a sentence naming the
// path and the problem.
QString write_npy_u8(const QString& path, const std::uint8_t* data, std::uint64_t rows, std::uint64_t cols);
QString write_npy_f32(const QString& path, const float* data, std::uint64_t rows, std::uint64_t cols);

}  // namespace cvz
