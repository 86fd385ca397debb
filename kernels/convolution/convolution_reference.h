#pragma once
#include <cstdint>
#include <vector>

#include "../grayscale/grayscale_image.h"
#include "convolution_problem.h"

namespace cvz {

// The family's input: the grayscale of an RGB image (width x height, `layout`), the very bytes of the
// grayscale family's reference (grayscale_reference).
std::vector<std::uint8_t> convolution_input(const std::uint8_t* rgb, std::uint32_t width, std::uint32_t height,
                                            PixelLayout layout);

// The kernels' arithmetic as a plain loop (float32, one fmaf per mask entry, i outer, j inner, ghost
// cells as 0): its bytes are those of every variant on every backend. Writes p.out.
void convolution_reference(const ConvolutionProblem& p);

// The independent reference: each output accumulated in double (out has p.pixels() entries). The
// kernels agree with it to a tolerance, not bit for bit.
void convolution_reference_f64(const ConvolutionProblem& p, double* out);

// The largest |got - ref| over `count` outputs.
double convolution_max_abs_error(const float* got, const double* ref, std::uint64_t count);

}  // namespace cvz
