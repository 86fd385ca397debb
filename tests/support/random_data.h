#pragma once
// Seeded random inputs for kernel tests: the same seed gives the same bytes on every machine
// (std::mt19937 is specified exactly), so a failure can be replayed.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace test {

inline std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
    std::vector<std::uint8_t> v(n);
    std::mt19937 rng(seed);
    for (auto& b : v) b = std::uint8_t(rng());
    return v;
}

// Uniform in [-2, 2): products and sums of a few hundred stay far from overflow and denormals.
inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
    std::vector<float> v(n);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    for (float& f : v) f = d(rng);
    return v;
}

}  // namespace test
