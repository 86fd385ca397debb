#pragma once
#include <QImage>
#include <QString>

#include "app/jobs/backend_choice.h"
#include "app/models/kernel_times.h"
#include "kernels/core/dim3_text.h"
#include "kernels/grayscale/grayscale_launch_shape.h"
#include "kernels/core/status.h"
#include "kernels/grayscale/grayscale_image.h"
#include "app/io/rgb_buffer.h"

namespace cvz {

struct GrayscaleRequest {
    RgbBuffer input;
    PixelLayout layout = PixelLayout::Interleaved;
    LaunchShape shape;
    BackendChoice backend = BackendChoice::Auto;
    // The emulator's warm time: up to this many repeats after the first run (the CLI asks for some; the
    // app, which runs on every change, for none). CUDA is always timed warm: its repeats cost µs.
    int emulator_repeats = 0;
};

struct GrayscaleResult {
    Status status;
    std::vector<std::uint8_t> gray;  // width * height bytes
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    QString backend;      // "CUDA (NVIDIA H200)" or "CPU emulator (2 threads)"
    double kernel_ms = 0; // the kernel alone (GPU events) or the emulated grid: warm when measured (times)
    KernelTimes times;    // first launch and warm time, told apart
    double total_ms = 0;  // including layout conversion, upload and download
    QString summary() const;  // "CPU emulator · 2-D 16x16 · grid 29x19 · 1.2 ms"
    QString shape_text;
    bool displayed = false;  // the run was the displayed frame (CUDA-GL interop), not a worker's
};

// "2-D block 16x16 · grid 7x3": the variant's label, the block and the grid, for summaries.
QString grayscale_shape_text(const LaunchShape& shape, std::uint32_t width, std::uint32_t height);

// "CUDA (NVIDIA H200)": the backend label of a run on CUDA device `device`.
QString cuda_backend_label(int device);

// Runs the grayscale kernel on the chosen backend (Auto: CUDA when a device exists, else the
// emulator). Safe to call from a worker thread.
GrayscaleResult run_grayscale(const GrayscaleRequest& request);

}  // namespace cvz
