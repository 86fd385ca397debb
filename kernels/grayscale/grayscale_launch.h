#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "grayscale_image.h"
#include "grayscale_launch_shape.h"

namespace cvz {

// The launch rule of the shape's variant (1-D, 2-D, ...) and how many pixels one thread handles, from
// the catalogue; BlockRule::OneD for a variant that does not exist (validate_grayscale_launch says so).
BlockRule grayscale_rule(const LaunchShape& shape);
unsigned grayscale_items_per_thread(const LaunchShape& shape);
// True when the shape's variant launches a 1-D grid over the flattened image.
inline bool is_one_d(const LaunchShape& shape) { return grayscale_rule(shape) == BlockRule::OneD; }

// The grid the launchers compute from the variant's rule: 1-D cdiv(n, threads * items) blocks (at most
// cdiv(grid_threads, threads) for a variant with a grid sized in waves, KernelInfo::grid_threads); 2-D
// cdiv(w, bx * items) x cdiv(h, by) blocks, with y capped at CUDA's 65535 (the 2-D body's grid-stride
// loop covers the remaining rows).
Dim3 grayscale_grid(const LaunchShape& shape, std::uint32_t width, std::uint32_t height);

// Dynamic shared memory of the launch, from the variant's body (0 for an unknown variant).
std::size_t grayscale_shared_bytes(const LaunchShape& shape);

// Empty when the launch is valid for an image of width x height, else the reason (an unknown variant
// is one).
std::string validate_grayscale_launch(const LaunchShape& shape, std::uint32_t width, std::uint32_t height);

// Empty when the shape's variant reads `layout`, else the reason.
std::string validate_grayscale_layout(const LaunchShape& shape, PixelLayout layout);

}  // namespace cvz
