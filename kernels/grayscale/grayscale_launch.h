#pragma once
#include <cstdint>
#include <string>

#include "../core/launch_shape.h"
#include "grayscale_image.h"

namespace cvz {

// The grid the lecture's launchers compute: 1-D cdiv(n, threads) blocks; 2-D cdiv(w, bx) x cdiv(h, by)
// blocks, with y capped at CUDA's 65535 (the kernel's grid-stride loop covers the remaining rows).
Dim3 grayscale_grid(const LaunchShape& shape, std::uint32_t width, std::uint32_t height);

// Empty when the launch is valid for an image of width x height, else the reason.
std::string validate_grayscale_launch(const LaunchShape& shape, std::uint32_t width, std::uint32_t height);

}  // namespace cvz
