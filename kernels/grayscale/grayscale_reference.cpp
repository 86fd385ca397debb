#include "grayscale_reference.h"

#include "grayscale_body.h"

namespace cvz {

void grayscale_reference(const GrayscaleImage& im) {
    const std::uint64_t n = im.pixels();
    const std::uint8_t* in = im.rgb;
    if (im.layout == PixelLayout::Interleaved) {
        for (std::uint64_t i = 0; i < n; ++i) im.gray[i] = luma_u8(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
    } else {
        for (std::uint64_t i = 0; i < n; ++i) im.gray[i] = luma_u8(in[i], in[i + n], in[i + 2 * n]);
    }
}

}  // namespace cvz
