#pragma once
#include <cstdint>

#include "../core/host_device.h"

namespace cvz {

// C (m x n) = A (m x k) @ B (k x n), all float32, row-major, no padding. Pointers are host or device
// memory, as the launcher needs.
struct MatmulProblem {
    const float* a = nullptr;
    const float* b = nullptr;
    float* c = nullptr;
    std::uint32_t m = 0;
    std::uint32_t k = 0;
    std::uint32_t n = 0;
    // Split-K only (matmul_split_k.h): the partial sums of K slices 1.. (slice 0 goes to C), slice z at
    // (z - 1) * m * n; the launchers allocate it where a launch needs one (matmul_workspace_floats).
    float* partials = nullptr;
};

// Row-major flat indices, written once for the kernels, the reference and the views.
CVZ_HD constexpr std::uint64_t a_index(const MatmulProblem& p, std::uint64_t row, std::uint64_t i) { return row * p.k + i; }
CVZ_HD constexpr std::uint64_t b_index(const MatmulProblem& p, std::uint64_t i, std::uint64_t col) { return i * p.n + col; }
CVZ_HD constexpr std::uint64_t c_index(const MatmulProblem& p, std::uint64_t row, std::uint64_t col) { return row * p.n + col; }

}  // namespace cvz
