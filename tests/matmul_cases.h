#pragma once
// What the matmul tests share: seeded random operands, problem shapes, and every kernel x block/tile.
#include <QList>
#include <QString>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/catalogue/kernel_catalogue.h"
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

// Every variant of the catalogue: those with a 2-D block over square, wide, tall, odd and
// single-thread blocks; those with a TILE with every TILE; a fixed block as it is (with each of its
// TILEs when it has a list).
inline QList<MatmulLaunch> all_launches() {
    QList<MatmulLaunch> l;
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul)) {
        const MatmulVariant v = MatmulVariant(k.variant);
        if (k.block == BlockRule::Tile)
            for (unsigned t : k.tiles) l << MatmulLaunch::of(v, Dim3{t, t, 1}, t);
        else if (k.block == BlockRule::Fixed && k.tiles.empty())
            l << MatmulLaunch::of(v, k.fixed_block, 0);
        else if (k.block == BlockRule::Fixed)  // a fixed block with a TILE list (split-K's slices): each
            for (unsigned t : k.tiles) l << MatmulLaunch::of(v, k.fixed_block, t);
        else
            for (Dim3 b : {Dim3{16, 16, 1}, Dim3{32, 8, 1}, Dim3{8, 32, 1}, Dim3{7, 3, 1}, Dim3{1, 1, 1}, Dim3{32, 32, 1}})
                l << MatmulLaunch::of(v, b, 0);
    }
    return l;
}

}  // namespace cvz::test
