#pragma once
#include <cstdint>

#include "kernels/core/dim3_text.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

// Which thread computes a pixel, and the launch's waste: the numbers the launch panel shows and the
// overlay and inspector draw. Built on the kernels' own index functions (kernels/core/index_math.h).
struct ThreadOfPixel {
    Dim3 block;
    Dim3 thread;
    std::uint64_t linear_block = 0;
    std::uint64_t linear_thread = 0;  // within the block
    std::uint64_t warp = 0;           // within the block
    unsigned lane = 0;
    std::uint64_t global_index = 0;   // i = y * width + x, the flat pixel index
    std::uint32_t pass = 0;           // grid-stride pass: 2-D in y (0 unless gridDim.y hit its cap), 1-D over the image (0 unless the grid is sized in waves)
};

struct LaunchPlan {
    LaunchShape shape;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    Dim3 grid;
    std::uint64_t blocks = 0;
    std::uint64_t threads_per_block = 0;
    std::uint64_t total_threads = 0;
    std::uint64_t active_threads = 0;   // threads whose guard lets them write a pixel
    std::uint64_t idle_threads = 0;     // switched off by the guard
    std::uint64_t warps_per_block = 0;
    std::uint64_t total_warps = 0;
    std::uint64_t partial_warps = 0;    // warps with fewer than 32 threads (block size not a multiple of 32)
    std::uint64_t idle_warps = 0;       // warps whose threads are all switched off
    std::uint64_t divergent_warps = 0;  // warps with both active and idle threads
    std::uint32_t passes = 1;           // grid-stride passes (in y for 2-D, over the image for 1-D)
    bool one_d = true;                  // the variant's launch rule is 1-D (over the flattened image)
    std::uint32_t items_per_thread = 1; // consecutive pixels (1-D) or columns (2-D) one thread handles

    double idle_fraction() const { return total_threads ? double(idle_threads) / double(total_threads) : 0; }

    // The guard of the kernels: does thread `thread` of block `block` write a pixel?
    bool thread_active(Dim3 block, Dim3 thread) const;
    ThreadOfPixel thread_of_pixel(std::uint32_t x, std::uint32_t y) const;
};

// The plan of the grayscale launch `shape` over a width x height image. The shape must be valid
// (validate_grayscale_launch).
LaunchPlan plan_grayscale_launch(const LaunchShape& shape, std::uint32_t width, std::uint32_t height);

}  // namespace cvz
