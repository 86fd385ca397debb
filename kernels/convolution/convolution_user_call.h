#pragma once
// The convolution family's side of a user kernel (issue 27): its signature, grid rule and binding.
// Qt-free.
//   conv  (float* in, float* mask, float* out, int w, int h, int r)
//         in = the picture's grayscale as float (h x w), mask of side 2r+1, ghost cells 0;
//         grid cdiv(w, bx) x cdiv(h, by)
// The output is compared with the family's independent reference (double accumulation) within 1e-5
// relative to max(1, |reference|).
#include <cstdint>
#include <memory>
#include <vector>

#include "../user/user_call.h"
#include "convolution_mask.h"

namespace cvz {

const std::vector<user::CallForm>& convolution_call_forms();
// The same with which forms launch 1-D blocks.
user::FamilyForms convolution_user_forms();

// `gray`: height x width bytes (the grayscale family's reference output, convolution_input).
std::unique_ptr<user::FamilyCall> convolution_user_call(std::vector<std::uint8_t> gray, std::uint32_t width,
                                                        std::uint32_t height, ConvolutionMask mask);

}  // namespace cvz
