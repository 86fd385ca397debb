#include "compiled_issue.h"

#include <algorithm>
#include <cmath>

#include "kernels/matmul/matmul_launch.h"

namespace cvz {

double CompiledIssue::rate(double warps) const {
    if (warps <= 0) return 0;
    const double u = std::clamp(ceiling, 1e-6, 1.0);
    const double p = std::clamp(ready, 1e-9, u);
    return u * (1 - std::pow(1 - p / u, warps));
}

namespace {

struct Row {
    MatmulVariant variant;
    unsigned tile;  // 0: the variant takes none
    CompiledIssue issue;
};

// scripts/compiled_issue_table.py on Nsight Compute's pages (the GPU machine's CUDA 13 ncu), H200, 2026-12-02 (at 1280^3 / 2048^3 the
// resident warps per scheduler and the instructions issued per scheduler per active cycle were:
// naive 32x8 15.06 / 0.711, 15.63 / 0.700; tiled TILE=16 15.09 / 0.492, 15.64 / 0.493; blocktile_1d
// 6.33 / 0.523, 7.66 / 0.555; blocktile_2d 1.99 / 0.420, 3.84 / 0.555; blocktile_vec 1.99 / 0.447,
// 3.85 / 0.585; warptile 1.00 / 0.293, 1.93 / 0.406; double_buffer 2.00 / 0.658, 3.78 / 0.786). Where
// the two sizes' W differ by less than 1.5x, ceiling is 1 and ready comes from 2048^3 alone.
constexpr Row kRows[] = {
    //                                       per k      fixed  shared/k  ready   ceiling
    {MatmulVariant::Naive, 0, {7.000, 62, 0.000, 0.0741, 1.000}},
    {MatmulVariant::Tiled, 8, {5.875, 58, 1.500, 0.0378, 1.000}},
    {MatmulVariant::Tiled, 16, {4.000, 68, 1.501, 0.0425, 1.000}},
    {MatmulVariant::Tiled, 32, {3.438, 49, 1.501, 0.0371, 1.000}},
    {MatmulVariant::Blocktile1d, 0, {26.250, 136, 5.876, 0.1002, 1.000}},
    {MatmulVariant::Blocktile2d, 0, {94.000, 589, 20.122, 0.2673, 0.631}},
    {MatmulVariant::BlocktileVec, 0, {81.125, 610, 20.121, 0.2863, 0.658}},
    {MatmulVariant::Warptile, 0, {152.875, 580, 20.001, 0.2926, 0.493}},
    {MatmulVariant::DoubleBuffer, 0, {75.188, 356, 12.077, 0.4536, 0.826}},
};

}  // namespace

std::optional<CompiledIssue> compiled_issue(const KernelRef& ref) {
    if (ref.family != KernelFamily::Matmul) return std::nullopt;
    for (const Row& r : kRows)
        if (std::uint8_t(r.variant) == ref.variant && r.tile == ref.tile) return r.issue;
    return std::nullopt;
}

}  // namespace cvz
