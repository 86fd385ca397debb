#pragma once
#include "grayscale_image.h"

namespace cvz {

// The CPU reference: a plain loop over the pixels, the same float arithmetic as the kernel
// (luma_u8), no execution model. Every backend and block shape must reproduce its bytes.
void grayscale_reference(const GrayscaleImage& image);

}  // namespace cvz
