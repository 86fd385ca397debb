#include "app/convolution/convolution_compiled_issue.h"

#include <algorithm>

namespace cvz {

namespace {

struct Row {
    ConvolutionVariant variant;
    double fixed, per_row, per_tap, per_stage, per_tile_tap, per_halo_tap;  // warp instructions
    double ready, ceiling;                                                   // compiled_issue.h's rate
};

// The warp instructions: scripts/convolution_issue_fit.py on Nsight Compute's smsp__inst_executed.sum
// of the calibration sweep (1000x777; masks 3, 7 and 15; blocks 4x4, 8x8, 128x2, 32x8, 16x16, 32x32;
// H200, 2026-12-03), a least-squares fit per variant whose 18 rows it matches within 2.1% (the
// direct variants' small negative fixed part is the fit's, not a count). The rates: scripts/issue_rate_fit.py
// on the calibration sweeps' measured times (1000x777, masks 3, 7 and 15, all 66 blocks of each
// variant; the rows predicted with ready = ceiling = 1), the (ready, ceiling) of least median error:
// 2.0-3.4% there. No other size went into either.
constexpr Row kRows[] = {
    //                                fixed  per row per tap  stage  tile tap halo tap  ready  ceiling
    {ConvolutionVariant::Naive,       -13.2, 45.11,  14.871,  0,     0,       0,        0.766, 0.77},
    {ConvolutionVariant::Constant,    -11.3, 38.17,  14.871,  0,     0,       0,        0.340, 0.83},
    {ConvolutionVariant::Tiled,        54.9, 18.82,  5.985,   35.68, 0,       0,        0.264, 0.85},
    {ConvolutionVariant::TiledCached, -12.7, 64.21,  13.663,  0,     0.958,   15.993,   0.704, 0.80},
};

}  // namespace

ConvolutionWarpWork convolution_warp_work(const ConvolutionLaunch& launch, std::uint32_t side) {
    ConvolutionWarpWork w;
    const std::uint32_t bx = launch.block.x, by = launch.block.y, threads = bx * by;
    if (threads == 0 || side == 0) return w;
    w.taps = double(side) * side;
    const std::uint32_t warps = (threads + 31) / 32, r = side / 2;
    if (launch.kernel == ConvolutionVariant::Tiled) {
        // Lane t copies the tile's elements t, t + threads, ...: a warp turns while its first lane has one.
        const std::uint64_t tile = std::uint64_t(bx + 2 * r) * (by + 2 * r);
        double turns = 0;
        for (std::uint32_t wi = 0; wi < warps; ++wi) {
            const std::uint64_t first = 32ull * wi;
            turns += first < tile ? double((tile - first + threads - 1) / threads) : 0;
        }
        w.stage_turns = turns / warps;
    } else if (launch.kernel == ConvolutionVariant::TiledCached) {
        w.stage_turns = 1;
        double tile_taps = 0, halo_taps = 0;
        for (std::uint32_t wi = 0; wi < warps; ++wi) {
            const std::uint32_t first = 32 * wi, last = std::min(threads, first + 32);
            // The rows and columns the warp's lanes cover: a tap reads the tile for some lane when its
            // shifted window overlaps the block, the halo when some lane's shifted pixel leaves it.
            for (std::uint32_t i = 0; i < side; ++i)
                for (std::uint32_t j = 0; j < side; ++j) {
                    bool in = false, out = false;
                    for (std::uint32_t t = first; t < last && !(in && out); ++t) {
                        const std::int64_t sy = std::int64_t(t / bx) + i - r, sx = std::int64_t(t % bx) + j - r;
                        if (sy >= 0 && sx >= 0 && sy < std::int64_t(by) && sx < std::int64_t(bx)) in = true;
                        else out = true;
                    }
                    tile_taps += in;
                    halo_taps += out;
                }
        }
        w.tile_taps = tile_taps / warps;
        w.halo_taps = halo_taps / warps;
    }
    return w;
}

std::optional<CompiledIssue> convolution_compiled_issue(const ConvolutionLaunch& launch, std::uint32_t side) {
    for (const Row& r : kRows) {
        if (r.variant != launch.kernel) continue;
        const ConvolutionWarpWork w = convolution_warp_work(launch, side);
        if (w.taps <= 0) return std::nullopt;
        CompiledIssue ci;
        ci.instructions_per_k =
            r.per_tap + (r.per_row * side + r.per_tile_tap * w.tile_taps + r.per_halo_tap * w.halo_taps) / w.taps;
        ci.instructions_fixed = r.fixed + r.per_stage * w.stage_turns;
        ci.ready = r.ready;
        ci.ceiling = r.ceiling;
        return ci;
    }
    return std::nullopt;
}

}  // namespace cvz
