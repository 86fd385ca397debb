#include "matmul_launch.h"

#include "../core/launch_limits.h"

namespace cvz {

std::string to_string(const MatmulLaunch& l) {
    if (l.kernel == MatmulKernel::Tiled) return "tiled TILE=" + std::to_string(l.tile);
    return "naive " + std::to_string(l.block.x) + "x" + std::to_string(l.block.y);
}

Dim3 matmul_grid(const MatmulLaunch& l, std::uint32_t m, std::uint32_t n) {
    const Dim3 b = l.block_shape();
    if (b.x == 0 || b.y == 0) return Dim3{0, 0, 1};
    return Dim3{unsigned(cdiv(n, b.x)), unsigned(cdiv(m, b.y)), 1};
}

std::string validate_matmul_launch(const MatmulLaunch& l, std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    if (m == 0 || k == 0 || n == 0)
        return "the matrices are empty (" + std::to_string(m) + "x" + std::to_string(k) + " @ " + std::to_string(k) +
               "x" + std::to_string(n) + ")";
    if (l.kernel == MatmulKernel::Tiled && l.tile != 8 && l.tile != 16 && l.tile != 32)
        return "TILE = " + std::to_string(l.tile) + " is not one of 8, 16, 32";
    const Dim3 b = l.block_shape();
    if (b.z != 1) return "a matmul launch has blockDim.z = 1";
    if (std::string e = validate_block(b); !e.empty()) return e;
    return validate_grid(matmul_grid(l, m, n));
}

}  // namespace cvz
