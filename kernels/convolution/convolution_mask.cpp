#include "convolution_mask.h"

#include <cmath>
#include <map>

namespace cvz {

std::string validate_mask_shape(std::uint64_t rows, std::uint64_t cols) {
    const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
    if (rows != cols) return "the mask is " + shape + ": it must be square";
    if (rows == 0) return "the mask is empty";
    if (rows % 2 == 0) return "the mask is " + shape + ": its side must be odd (2R+1), so that it has a centre";
    if (rows > kMaxMaskSide)
        return "the mask is " + shape + ": its side must be at most " + std::to_string(kMaxMaskSide) + " (" +
               std::to_string(kMaxMaskValues) + " floats of constant memory)";
    return {};
}

std::string validate_mask(const ConvolutionMask& mask) {
    if (std::string e = validate_mask_shape(mask.side, mask.side); !e.empty()) return e;
    if (mask.values.size() != std::size_t(mask.side) * mask.side)
        return "the mask holds " + std::to_string(mask.values.size()) + " values, not " + std::to_string(mask.side) + "x" +
               std::to_string(mask.side);
    for (std::size_t k = 0; k < mask.values.size(); ++k)
        if (!std::isfinite(mask.values[k]))
            return "the mask's value at row " + std::to_string(k / mask.side) + ", column " + std::to_string(k % mask.side) +
                   " is not a finite number";
    return {};
}

namespace {

ConvolutionMask scaled(std::uint32_t side, std::vector<float> v, float divisor) {
    for (float& x : v) x /= divisor;  // exact for the named masks' divisors (9 rounds once, 256 is a power of two)
    return {side, std::move(v)};
}

const std::map<std::string, ConvolutionMask>& masks() {
    static const std::map<std::string, ConvolutionMask> all = [] {
        std::map<std::string, ConvolutionMask> m;
        m["box3"] = scaled(3, std::vector<float>(9, 1.0f), 9.0f);
        std::vector<float> g(25);
        const float b[5] = {1, 4, 6, 4, 1};
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j) g[i * 5 + j] = b[i] * b[j];
        m["gauss5"] = scaled(5, g, 256.0f);
        m["sobel_x"] = {3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}};
        m["sobel_y"] = {3, {-1, -2, -1, 0, 0, 0, 1, 2, 1}};
        m["laplacian"] = {3, {0, 1, 0, 1, -4, 1, 0, 1, 0}};
        m["sharpen"] = {3, {0, -1, 0, -1, 5, -1, 0, -1, 0}};
        return m;
    }();
    return all;
}

}  // namespace

const std::vector<std::string>& named_mask_names() {
    static const std::vector<std::string> names = {"box3", "gauss5", "sobel_x", "sobel_y", "laplacian", "sharpen"};
    return names;
}

std::string named_mask_list() {
    std::string s;
    for (const std::string& n : named_mask_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
}

bool named_mask(const std::string& name, ConvolutionMask* out) {
    const auto it = masks().find(name);
    if (it == masks().end()) return false;
    if (out) *out = it->second;
    return true;
}

}  // namespace cvz
