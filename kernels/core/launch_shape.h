#pragma once
#include <string>

#include "dim3.h"

namespace cvz {

// The two launch geometries of the lecture: a 1-D grid over a flattened array, or a 2-D grid of
// 2-D blocks over rows and columns.
enum class GridKind { OneD, TwoD };

struct LaunchShape {
    GridKind kind = GridKind::OneD;
    Dim3 block{256, 1, 1};

    static LaunchShape one_d(unsigned threads) { return {GridKind::OneD, Dim3{threads, 1, 1}}; }
    static LaunchShape two_d(unsigned bx, unsigned by) { return {GridKind::TwoD, Dim3{bx, by, 1}}; }
};

// "256" for 1-D, "16x16" for 2-D: the CLI's --block syntax.
std::string to_string(const LaunchShape& shape);

// "64x32x1": a dim3 in error messages.
std::string to_string(Dim3 d);

}  // namespace cvz
