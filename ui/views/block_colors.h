#pragma once
#include <QColor>

#include <cstdint>

namespace cvz {

// Deterministic colours (after Tracy): the hue comes from the id through the golden ratio, so
// neighbouring blocks differ and the same block has the same colour in every view. The overlay
// shader (resources/shaders/image.frag: id_color, thread_color, warp_color) computes exactly the
// same functions, so the SM panel, the legend and the image agree.
QColor color_for_id(std::uint64_t id, double saturation = 0.65, double value = 0.95);

// The colour of a warp inside its block: the block's hue, darker for later warps (kept for callers
// that do not know the block's warp count: 32 shades).
QColor color_for_warp(std::uint64_t block, std::uint64_t warp);

// The same for a block of `warps_per_block` warps: the shade runs over the block's own warps and
// odd warps are a step darker, so neighbouring warps differ even in a 1024-thread block.
QColor color_for_warp(std::uint64_t block, std::uint64_t warp, std::uint64_t warps_per_block);

// A thread by its linear id within a block of `threads_per_block`: a hue ramp from red (thread 0)
// to violet (the last), the same in every block, so threadIdx.x-fastest numbering shows as a sweep.
QColor color_for_thread(std::uint64_t thread, std::uint64_t threads_per_block);

}  // namespace cvz
