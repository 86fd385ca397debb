#pragma once
// How the compiled convolution kernels issue instructions, for the performance model's "issue" term
// (app/models/compiled_issue.h): the warp instructions a warp executes, from Nsight Compute's counts
// at the calibration size fitted to the launch's geometry, and how fast its schedulers issue them,
// fitted on the calibration sweep's times (docs/performance-model.md, "Convolution").
//
// A warp's instructions are
//     fixed + per_row * side + per_tap * side^2 + per_stage * staging iterations
//           + per_shared_tap * tile taps + per_halo_tap * halo taps,
// where the staging iterations are the tiled kernels' copy loop's turns, and the tile and halo taps
// (conv_tiled_cached) count the taps where some lane of the warp reads the block's tile, or its halo
// through the caches: where a warp's lanes take both branches it executes both.
#include <cstdint>
#include <optional>

#include "app/models/compiled_issue.h"
#include "kernels/convolution/convolution_launch.h"

namespace cvz {

// Per warp, averaged over the warps of a block away from the image's border.
struct ConvolutionWarpWork {
    double taps = 0;          // side^2
    double stage_turns = 0;   // turns of the staging loop (conv_tiled: ceil((tile - first lane) / threads))
    double tile_taps = 0;     // conv_tiled_cached: taps where some lane reads the shared tile
    double halo_taps = 0;     // conv_tiled_cached: taps where some lane reads outside the block's pixels
};
ConvolutionWarpWork convolution_warp_work(const ConvolutionLaunch& launch, std::uint32_t side);

// The launch's figures as CompiledIssue sees them, for k = side^2 steps: instructions_per_k is the
// warp's instructions per tap, instructions_fixed the rest; none for an unknown variant.
// shared_wavefronts_per_k is left 0: the predictor takes the trace's.
std::optional<CompiledIssue> convolution_compiled_issue(const ConvolutionLaunch& launch, std::uint32_t side);

}  // namespace cvz
