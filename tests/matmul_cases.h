#pragma once
// What the matmul tests share: seeded random operands, problem shapes, and every kernel x block/tile.
#include <QList>
#include <QString>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_variants.h"

namespace cvz::test {

inline std::vector<float> random_matrix(std::uint64_t count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v) x = u(rng);
    return v;
}

struct Shape {
    std::uint32_t m, k, n;
};

inline QString shape_name(const Shape& s) { return QString("%1x%2 @ %2x%3").arg(s.m).arg(s.k).arg(s.n); }

// Naive with square, wide, tall, odd and single-thread blocks; tiled with every TILE; every
// fixed-block variant of the catalogue (the blocktiled ladder) with its block.
inline QList<MatmulLaunch> all_launches() {
    QList<MatmulLaunch> l = {MatmulLaunch::naive(16, 16), MatmulLaunch::naive(32, 8), MatmulLaunch::naive(8, 32),
                             MatmulLaunch::naive(7, 3),   MatmulLaunch::naive(1, 1),  MatmulLaunch::naive(32, 32)};
    for (unsigned t : {8u, 16u, 32u}) l << MatmulLaunch::tiled(t);
    for (const KernelInfo& info : matmul_catalogue())
        if (info.block == BlockRule::Fixed) l << MatmulLaunch::of(MatmulVariant(info.variant), info.fixed_block, 0);
    return l;
}

}  // namespace cvz::test
