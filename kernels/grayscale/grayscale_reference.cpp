#include "grayscale_reference.h"

#include "../core/cpu_dispatch.h"
#include "grayscale_body.h"

namespace cvz {

namespace {

// The loops take plain values, not `im` or captures: the byte stores may alias any memory, so fields
// read through a reference would be re-read after every store and the loops would not vectorise.
void luma_interleaved(const std::uint8_t* in, std::uint8_t* out, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) out[i] = luma_u8(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
}

void luma_planar(const std::uint8_t* in, std::uint8_t* out, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) out[i] = luma_u8(in[i], in[i + n], in[i + 2 * n]);
}

}  // namespace

void grayscale_reference(const GrayscaleImage& im) {
    const std::uint64_t n = im.pixels();
    const std::uint8_t* in = im.rgb;
    std::uint8_t* out = im.gray;
    if (im.layout == PixelLayout::Planar)
        on_cpu_path([=] { luma_planar(in, out, n); });
    else
        on_cpu_path([=] { luma_interleaved(in, out, n); });
}

}  // namespace cvz
