#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "../core/dim3.h"
#include "matmul_problem.h"

namespace cvz {

enum class MatmulKernel { Naive, Tiled };

// How a matmul is launched: the naive kernel takes any 2-D block; the tiled kernel's block is
// TILE x TILE with TILE in {8, 16, 32}.
struct MatmulLaunch {
    MatmulKernel kernel = MatmulKernel::Naive;
    Dim3 block{16, 16, 1};     // naive only
    unsigned tile = 16;        // tiled only
    bool second_barrier = true;  // tiled, emulator only: false shows the race of a missing barrier

    static MatmulLaunch naive(unsigned bx, unsigned by) { return {MatmulKernel::Naive, Dim3{bx, by, 1}, 16, true}; }
    static MatmulLaunch tiled(unsigned tile) { return {MatmulKernel::Tiled, Dim3{tile, tile, 1}, tile, true}; }

    Dim3 block_shape() const { return kernel == MatmulKernel::Tiled ? Dim3{tile, tile, 1} : block; }
    std::size_t shared_bytes() const { return kernel == MatmulKernel::Tiled ? 2 * std::size_t(tile) * tile * sizeof(float) : 0; }
};

std::string to_string(const MatmulLaunch& launch);  // "naive 16x16" or "tiled TILE=16"

// The grid: cdiv(N, blockDim.x) columns of blocks by cdiv(M, blockDim.y) rows.
Dim3 matmul_grid(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t n);

// Empty when the launch is valid for these shapes, else the reason.
std::string validate_matmul_launch(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n);

}  // namespace cvz
