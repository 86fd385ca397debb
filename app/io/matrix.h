#pragma once
#include <QString>

#include <cstdint>
#include <vector>

namespace cvz {

// A dense row-major float32 matrix, as the kernels take it.
struct Matrix {
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
    std::vector<float> data;  // rows * cols

    std::uint64_t size() const { return std::uint64_t(rows) * cols; }
    float at(std::uint32_t r, std::uint32_t c) const { return data[std::size_t(r) * cols + c]; }
};

// The largest matrix accepted, checked before allocating: 2^28 elements (1 GiB as float32) and at
// most 2^24 rows or columns. README "Limits" states the same numbers.
struct MatrixLimits {
    static constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 28;
    static constexpr std::uint64_t kMaxSide = std::uint64_t(1) << 24;
};

// Empty when rows x cols is within the limits, else the reason.
QString check_matrix_dimensions(std::uint64_t rows, std::uint64_t cols);

// Empty when A @ B is defined, else "A is 5x784 but B is 783x10: ..." (names as given).
QString check_matmul_shapes(const Matrix& a, const Matrix& b, const QString& a_name = QStringLiteral("A"),
                            const QString& b_name = QStringLiteral("B"));

}  // namespace cvz
