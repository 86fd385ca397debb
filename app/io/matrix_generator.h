#pragma once
#include <QList>
#include <QString>

#include <cstdint>

#include "app/io/matrix.h"

namespace cvz {

// A matrix of uniform values in [-1, 1) from a seeded Mersenne Twister: the same seed gives the same
// matrix on every run and machine.
Matrix random_matrix(std::uint32_t rows, std::uint32_t cols, std::uint32_t seed);

// The lecture's matrix products: MNIST-shaped inputs times a 784x10 weight matrix.
struct MatmulPreset {
    QString name;
    std::uint32_t m, k, n;
};
QList<MatmulPreset> lecture_matmul_presets();

}  // namespace cvz
