#include "app/matmul/matmul_compiled_issue.h"

#include "kernels/matmul/matmul_launch.h"

namespace cvz {

namespace {

struct Row {
    MatmulVariant variant;
    unsigned tile;  // 0: the variant takes none
    CompiledIssue issue;
};

// scripts/compiled_issue_table.py on Nsight Compute's pages (the GPU machine's CUDA 13 ncu), H200,
// 2026-12-02. The busiest SM's resident warps per scheduler and the rate its schedulers issued its
// instructions over the launch's elapsed cycles, at 1280^3 / 2048^3: naive 32x8 16 / 0.696, 16 / 0.695;
// tiled TILE=16 16 / 0.489, 16 / 0.495; blocktile_1d 8 / 0.542, 8 / 0.563; blocktile_2d 2 / 0.401,
// 4 / 0.557; blocktile_vec 2 / 0.419, 4 / 0.585; warptile 1 / 0.257, 2 / 0.414; double_buffer 2 / 0.646,
// 4 / 0.783. Where the two sizes' W are equal, ceiling is 1 and ready comes from 2048^3 alone.
// The tiled kernels had the same W at both sizes (16), so their ceiling was taken as 1; with few
// blocks (W = 4) that put them about 2x too slow (256x4096x256, issue 29). Since 2026-12-03 both are
// solved, as for the others, from two points: the rate above at W = 16 and the rate the time of the
// calibration size 224x3000x288 implies with few warps (TILE 8: W 4, 0.337; TILE 16: W 4, 0.313;
// TILE 32: W 8, 0.370; docs/measurements/2026-12-03-model.md).
constexpr Row kRows[] = {
    //                                       per k      fixed  shared/k  ready   ceiling
    {MatmulVariant::Naive, 0, {7.000, 62, 0.000, 0.0716, 1.000}},
    // The tiled kernels' rates were refitted on 2026-12-03 (above the table).
    {MatmulVariant::Tiled, 8, {5.875, 58, 1.500, 0.1305, 0.454}},
    {MatmulVariant::Tiled, 16, {4.000, 68, 1.501, 0.1084, 0.506}},
    {MatmulVariant::Tiled, 32, {3.438, 49, 1.501, 0.0807, 0.480}},
    {MatmulVariant::Blocktile1d, 0, {26.250, 136, 5.876, 0.0982, 1.000}},
    {MatmulVariant::Blocktile2d, 0, {94.000, 589, 20.122, 0.2473, 0.656}},
    {MatmulVariant::BlocktileVec, 0, {81.125, 610, 20.121, 0.2575, 0.693}},
    {MatmulVariant::Warptile, 0, {152.875, 580, 20.001, 0.2568, 0.662}},
    // The double buffer and split-K on their present tiles (2026-12-03, issue 29: 128 x 256 of 8 x 16 a
    // thread, one block an SM; split-K 128 x 128 of 8 x 8, one block an SM, measured at one slice), both
    // with the interior path and their present fma orders (double buffer ORDER 1, split-K ORDER 2;
    // docs/measurements/2026-12-03-fp32-4096-h200.md): double_buffer 2 / 0.789, 2 / 0.799; split_k
    // 2 / 0.764, 2 / 0.778 (the same W at both sizes: ceiling 1). With the row-by-row order before:
    // double_buffer 141.812, 601, 20.000, 0.5398 (2 / 0.776, 2 / 0.788); split_k 73.688, 442, 12.000,
    // 0.5104 (2 / 0.748, 2 / 0.760). Before that, the double buffer's 128 x 128 at two blocks an SM,
    // whose figures split-K shared: 75.188, 356, 12.077, 0.4424, 0.820.
    {MatmulVariant::DoubleBuffer, 0, {141.812, 598, 20.000, 0.5514, 1.000}},
    {MatmulVariant::SplitK, 0, {73.688, 446, 12.000, 0.5293, 1.000}},
    // The tensor-core rungs, the same way (2026-12-03, their present configurations: 4 warps of 64 x 64;
    // a K step's "instructions" include its share of the 16 x 8 x 8 MMAs): tf32 1 / 0.289, 2 / 0.469;
    // 3xtf32 1 / 0.366, 2 / 0.526. scripts/ncu_issue_profiles.sh with ONLY="tf32 tf32x3".
    {MatmulVariant::Tf32, 0, {27.375, 610, 4.000, 0.2891, 0.763}},
    {MatmulVariant::Tf32x3, 0, {111.375, 353, 4.000, 0.3665, 0.648}},
    // The wgmma rungs (2026-12-03, session 16: 128 x 128 tiles of two warpgroups, one block an SM;
    // scripts/ncu_issue_profiles.sh with ONLY="tf32_wgmma tf32x3_wgmma"): tf32_wgmma 2 / 0.253,
    // 2 / 0.270; tf32x3_wgmma 2 / 0.381, 2 / 0.383 (the same W at both sizes: ceiling 1). A K step's
    // instructions include its share of the wgmmas; their shared reads are not LSU wavefronts.
    {MatmulVariant::Tf32Wgmma, 0, {11.406, 309, 1.895, 0.1457, 1.000}},
    {MatmulVariant::Tf32x3Wgmma, 0, {30.188, 291, 3.086, 0.2143, 1.000}},
};

}  // namespace

std::optional<CompiledIssue> matmul_compiled_issue(const KernelRef& ref) {
    if (ref.family != KernelFamily::Matmul) return std::nullopt;
    // Split-K's figures are per K step of one slice, whatever the number of slices (its TILE).
    if (ref.variant == std::uint8_t(MatmulVariant::SplitK) && ref.tile != 0) return matmul_compiled_issue({ref.family, ref.variant, 0});
    for (const Row& r : kRows)
        if (std::uint8_t(r.variant) == ref.variant && r.tile == ref.tile) return r.issue;
    return std::nullopt;
}

}  // namespace cvz
