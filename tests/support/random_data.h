#pragma once
// Seeded random inputs for kernel tests: the same seed gives the same bytes on every machine
// (std::mt19937 is specified exactly), so a failure can be replayed.
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
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

// Bytes uniform in [0, 255] or floats uniform in [-1, 1), drawn through the distributions (not the
// same values as random_bytes and random_floats): the GPU user-kernel test and benchmarks' inputs.
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<float> d(-1.f, 1.f);
        for (T& x : v) x = d(gen);
    } else {
        std::uniform_int_distribution<int> d(0, 255);
        for (T& x : v) x = T(d(gen));
    }
    return v;
}

}  // namespace test
