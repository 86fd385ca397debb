#pragma once
// How many grayscale kernels this process has launched on a GPU, whatever launched them (the worker's
// grayscale_cuda, a frame written into a display, a benchmark). Tests count runs with it: with CUDA
// and interop, one change of launch is one launch (ARCHITECTURE.md, invariant 4).
#include <cstdint>

namespace cvz {

// Launches that CUDA accepted so far (a launch the validator or CUDA refused is not counted).
std::uint64_t grayscale_gpu_launches();

// Called by the GPU launcher after each accepted launch.
void count_grayscale_gpu_launch();

}  // namespace cvz
