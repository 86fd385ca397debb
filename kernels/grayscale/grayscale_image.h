#pragma once
#include <cstdint>

#include "../core/host_device.h"

namespace cvz {

// How the three colour channels are stored.
//  Interleaved: R G B R G B ... as image files and QImage store them (pixel i at 3i, 3i+1, 3i+2).
//  Planar:      C x H x W as in the lecture's PyTorch tensor (pixel i at i, i+n, i+2n).
enum class PixelLayout { Interleaved, Planar };

// One grayscale problem: `rgb` holds width*height pixels in `layout` with no row padding; `gray`
// receives width*height bytes. Pointers are host or device memory, as the launcher needs.
struct GrayscaleImage {
    const std::uint8_t* rgb = nullptr;
    std::uint8_t* gray = nullptr;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    PixelLayout layout = PixelLayout::Interleaved;

    CVZ_HD std::uint64_t pixels() const { return std::uint64_t(width) * height; }
};

}  // namespace cvz
