#pragma once
// Convolution masks: the named ones the CLI and the GUI offer, and the rule every mask obeys (square,
// odd side 1..15). Loading a mask from a .npy file is the app's (app/convolution/); it validates
// with validate_mask_shape.
#include <cstdint>
#include <string>
#include <vector>

#include "convolution_problem.h"

namespace cvz {

// A square mask, row-major: values[i * side + j] is M[i][j].
struct ConvolutionMask {
    std::uint32_t side = 0;
    std::vector<float> values;

    std::uint32_t radius() const { return side / 2; }
};

// Empty when a rows x cols mask is square with an odd side 1..15, else the reason ("the mask is 4x4:
// its side must be odd", ...).
std::string validate_mask_shape(std::uint64_t rows, std::uint64_t cols);
// The same for a mask, which must also hold side*side values, all finite.
std::string validate_mask(const ConvolutionMask& mask);

// The named masks, in the order the CLI lists them:
//   box3       3x3, every value 1/9 (the mean)
//   gauss5     5x5, the binomial [1 4 6 4 1]^T [1 4 6 4 1] / 256
//   sobel_x    3x3, [-1 0 1; -2 0 2; -1 0 1] (horizontal gradient)
//   sobel_y    3x3, [-1 -2 -1; 0 0 0; 1 2 1] (vertical gradient)
//   laplacian  3x3, [0 1 0; 1 -4 1; 0 1 0]
//   sharpen    3x3, [0 -1 0; -1 5 -1; 0 -1 0]
const std::vector<std::string>& named_mask_names();
// "box3, gauss5, ...": for messages that list them.
std::string named_mask_list();
// The mask called `name`; false (out unchanged) when there is none.
bool named_mask(const std::string& name, ConvolutionMask* out);

}  // namespace cvz
