#pragma once
#include <cstdint>
#include <string>

#include "dim3.h"

namespace cvz {

// CUDA's launch limits for every compute capability from 5.0 on (CUDA C++ Programming Guide,
// "Technical Specifications per Compute Capability").
struct LaunchLimits {
    std::uint64_t max_threads_per_block = 1024;
    Dim3 max_block{1024, 1024, 64};
    Dim3 max_grid{2147483647u, 65535u, 65535u};
};

// Empty when `block` is a shape CUDA accepts, else a sentence saying what is wrong.
std::string validate_block(Dim3 block, const LaunchLimits& limits = {});

// Empty when `grid` fits CUDA's grid limits, else a sentence saying what is wrong.
std::string validate_grid(Dim3 grid, const LaunchLimits& limits = {});

}  // namespace cvz
