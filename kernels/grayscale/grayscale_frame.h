#pragma once
// The grayscale family's side of the real display path: the picture kept on the GPU, and one frame of
// a launch written into whatever the display maps (an InteropTarget: a GL texture's surface, or
// device memory), through the family's dispatcher and the same kernel bodies as every other launch.
// The frame it writes is the run of a change: it times the kernel with CUDA events and can copy the
// bytes it wrote back to the host (for the inspector and the session's result), so the displayed run
// is the timed and inspected one (ARCHITECTURE.md, invariant 4). Qt-free and CUDA-free header;
// without the CUDA toolkit every write answers Unavailable (grayscale_frame_cuda_absent.cpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "../core/dim3_text.h"
#include "grayscale_launch_shape.h"
#include "../core/status.h"
#include "../cuda/interop_target.h"
#include "grayscale_image.h"

namespace cvz {

// What one write() measured and read back.
struct GrayscaleFrameRun {
    double kernel_ms = 0;            // the kernel alone: CUDA events around the launch on the target's stream
    std::vector<std::uint8_t> gray;  // width * height bytes as the frame holds them, when asked for
};

class GrayscaleFrame {
public:
    GrayscaleFrame();
    ~GrayscaleFrame();  // frees the device copy; call with no write of it still queued (write() waits)
    GrayscaleFrame(const GrayscaleFrame&) = delete;
    GrayscaleFrame& operator=(const GrayscaleFrame&) = delete;

    // The width x height picture, 3 bytes a pixel already stored in `layout` (planar: the R, G and B
    // planes one after the other). Copied to the target's device at the next write(), once; kept
    // there for every later frame. InvalidInput when the bytes do not hold width x height pixels.
    Status set_picture(std::vector<std::uint8_t> rgb, std::uint32_t width, std::uint32_t height, PixelLayout layout);
    bool has_picture() const;
    std::uint32_t width() const;
    std::uint32_t height() const;
    PixelLayout layout() const;

    // One frame: the launch `shape` (its variant and block, validated first: InvalidInput before
    // anything is queued) writes the picture's grey image into `target`, which must be the
    // picture's size. With `run`: the kernel's time from events, and with `read_back` the bytes
    // the kernel wrote, copied from the target after it (both wait for the kernel). Errors carry
    // CUDA's message.
    Status write(const InteropTarget& target, const LaunchShape& shape, GrayscaleFrameRun* run = nullptr,
                 bool read_back = false);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace cvz
