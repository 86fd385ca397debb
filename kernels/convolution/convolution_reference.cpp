#include "convolution_reference.h"

#include <algorithm>
#include <cmath>

#include "../grayscale/grayscale_reference.h"

namespace cvz {

std::vector<std::uint8_t> convolution_input(const std::uint8_t* rgb, std::uint32_t width, std::uint32_t height,
                                            PixelLayout layout) {
    std::vector<std::uint8_t> gray(std::size_t(width) * height);
    GrayscaleImage image;
    image.rgb = rgb;
    image.gray = gray.data();
    image.width = width;
    image.height = height;
    image.layout = layout;
    if (rgb && !gray.empty()) grayscale_reference(image);
    return gray;
}

namespace {

// The window term at (row + i - R, col + j - R): the pixel, or 0 for a ghost cell.
template <class T>
T pixel_or_zero(const ConvolutionProblem& p, std::int64_t row, std::int64_t col) {
    if (row < 0 || col < 0 || row >= std::int64_t(p.height) || col >= std::int64_t(p.width)) return T(0);
    return T(p.gray[std::uint64_t(row) * p.width + std::uint64_t(col)]);
}

}  // namespace

void convolution_reference(const ConvolutionProblem& p) {
    const std::int64_t rad = p.radius();
    for (std::uint32_t r = 0; r < p.height; ++r)
        for (std::uint32_t c = 0; c < p.width; ++c) {
            float acc = 0.0f;
            for (std::uint32_t i = 0; i < p.mask_side; ++i)
                for (std::uint32_t j = 0; j < p.mask_side; ++j)
                    acc = std::fmaf(p.mask[mask_index(p, i, j)], pixel_or_zero<float>(p, std::int64_t(r) + i - rad, std::int64_t(c) + j - rad), acc);
            p.out[pixel_index(p, r, c)] = acc;
        }
}

void convolution_reference_f64(const ConvolutionProblem& p, double* out) {
    const std::int64_t rad = p.radius();
    for (std::uint32_t r = 0; r < p.height; ++r)
        for (std::uint32_t c = 0; c < p.width; ++c) {
            double acc = 0.0;
            for (std::uint32_t i = 0; i < p.mask_side; ++i)
                for (std::uint32_t j = 0; j < p.mask_side; ++j)
                    acc += double(p.mask[mask_index(p, i, j)]) *
                           pixel_or_zero<double>(p, std::int64_t(r) + i - rad, std::int64_t(c) + j - rad);
            out[pixel_index(p, r, c)] = acc;
        }
}

double convolution_max_abs_error(const float* got, const double* ref, std::uint64_t count) {
    double worst = 0.0;
    for (std::uint64_t k = 0; k < count; ++k) worst = std::max(worst, std::fabs(double(got[k]) - ref[k]));
    return worst;
}

}  // namespace cvz
