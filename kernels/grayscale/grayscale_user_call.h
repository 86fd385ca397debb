#pragma once
// The grayscale family's side of a user kernel (issue 27): the lecture's two signatures, its grid rule
// and the binding of an RGB image to them. Qt-free.
//   gray-1d  (unsigned char* x, unsigned char* out, int n)         n = w*h, grid cdiv(n, block.x)
//   gray-2d  (unsigned char* x, unsigned char* out, int w, int h)  grid cdiv(w, bx) x cdiv(h, by)
// x is the image in the chosen layout: planar C x H x W as in the lecture (pixel i at x[i], x[i+n],
// x[i+2n]) or interleaved (x[3i], x[3i+1], x[3i+2]). The output is compared with the family's
// reference within one grey level (the lecture's double constants against the family's float ones).
#include <cstdint>
#include <memory>
#include <vector>

#include "../user/user_call.h"
#include "grayscale_image.h"

namespace cvz {

const std::vector<user::CallForm>& grayscale_call_forms();
// The same with which forms launch 1-D blocks.
user::FamilyForms grayscale_user_forms();

// `rgb` is interleaved (as loaders give it), width*height pixels; the launch sees it in `layout`.
std::unique_ptr<user::FamilyCall> grayscale_user_call(std::vector<std::uint8_t> rgb, std::uint32_t width,
                                                      std::uint32_t height, PixelLayout layout);

}  // namespace cvz
