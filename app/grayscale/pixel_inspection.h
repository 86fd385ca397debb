#pragma once
#include <cstdint>

#include "kernels/grayscale/grayscale_image.h"
#include "app/models/overlay_geometry.h"

namespace cvz {

// What the grayscale kernel does for one cell of the grid, as the inspector shows it: which thread
// it is, the three flat indices it reads in the chosen layout, their values and the grey it writes.
struct PixelInspection {
    std::int64_t x = 0;
    std::int64_t y = 0;
    GridCell cell;
    std::uint64_t pixels = 0;      // n = width * height
    std::uint64_t reads[3] = {};   // flat indices of R, G, B in the kernel's input array
    std::uint8_t rgb[3] = {};      // the values there
    std::uint8_t gray = 0;         // luma_u8(r, g, b): what out[i] receives
};

// `rgb` is the pixel's colour (ignored for cells outside the image). Uses the kernel's own
// channel_index and luma_u8, so what the inspector shows is what the kernel computes.
PixelInspection inspect_pixel(const LaunchPlan& plan, PixelLayout layout, std::int64_t x, std::int64_t y,
                              const std::uint8_t rgb[3]);

}  // namespace cvz
