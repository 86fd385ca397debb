#pragma once
// One convolution run on the chosen backend, for the CLI (`cudaviz-cli convolution` runs through it)
// and the app's session alike: the grayscale input, the mask and the launch in; the float32 output,
// the backend's name and the kernel's time out.
#include <QString>

#include <cstdint>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "app/models/kernel_times.h"
#include "kernels/convolution/convolution_launch.h"
#include "kernels/convolution/convolution_mask.h"
#include "kernels/core/status.h"

namespace cvz {

struct ConvolutionRequest {
    std::vector<std::uint8_t> gray;  // width * height bytes: the photo's grayscale (convolution_input)
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    ConvolutionMask mask;
    ConvolutionLaunch launch;
    BackendChoice backend = BackendChoice::Auto;
    // The emulator's warm time: up to this many repeats after the first run (the CLI asks for some; the
    // app, which runs on every change, for none). CUDA is always timed warm: its repeats cost µs.
    int emulator_repeats = 0;
};

struct ConvolutionResult {
    Status status;
    std::vector<float> out;  // width * height, row-major
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    QString backend;       // "CUDA (NVIDIA H200)" or "CPU emulator (2 threads)"
    double kernel_ms = 0;  // warm when measured (times)
    KernelTimes times;
    double total_ms = 0;   // including upload and download
    QString shape_text;    // "tiled · block 16x16 · grid 29x19 · mask 5x5"
    QString summary() const;  // "CPU emulator · tiled · block 16x16 · ... · total 3.1 ms"
};

// "tiled · block 16x16 · grid 29x19 · mask 5x5": the variant's label, the block, the grid and the mask.
QString convolution_shape_text(const ConvolutionLaunch& launch, std::uint32_t width, std::uint32_t height,
                               std::uint32_t mask_side);

// Runs the launch on the chosen backend (Auto: CUDA when a device exists, else the emulator). A
// request the validator refuses (launch, mask, or a buffer of the wrong size) fails with the reason
// and runs nothing. Safe to call from a worker thread.
ConvolutionResult run_convolution(const ConvolutionRequest& request);

}  // namespace cvz
