#include "app/io/matrix_generator.h"

#include <random>

namespace cvz {

Matrix random_matrix(std::uint32_t rows, std::uint32_t cols, std::uint32_t seed) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data.resize(std::size_t(rows) * cols);
    std::mt19937 rng(seed);
    // 24 random bits scaled into [-1, 1): exact in float32 and independent of the library's
    // uniform_real_distribution algorithm.
    for (float& x : m.data) x = float(std::int32_t(rng() >> 8) - (1 << 23)) / float(1 << 23);
    return m;
}

QList<MatmulPreset> lecture_matmul_presets() {
    return {{QStringLiteral("5x784 @ 784x10 (five MNIST images)"), 5, 784, 10},
            {QStringLiteral("50000x784 @ 784x10 (the MNIST training set)"), 50000, 784, 10}};
}

}  // namespace cvz
