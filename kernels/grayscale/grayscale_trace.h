#pragma once
// The traced grayscale launch: the catalogue variant's body on the emulator through a recording
// context (memory_trace.h). Runs on the caller's thread (the app's worker) and spreads the blocks over
// host threads; progress and cancel through TraceOptions.
#include <cstdint>

#include "grayscale_image.h"
#include "grayscale_launch_shape.h"
#include "../trace/trace_result.h"

namespace cvz {

// Traces `shape` over a width x height image in `layout`. `rgb` (3*width*height bytes, or null for
// black: addresses do not depend on the pixels) is copied into 256-byte-aligned buffers "rgb" and
// "gray", as cudaMalloc would place them, so every branch on alignment goes as on the GPU.
TraceResult trace_grayscale(const std::uint8_t* rgb, std::uint32_t width, std::uint32_t height, PixelLayout layout,
                            const LaunchShape& shape, const TraceOptions& options = {});

}  // namespace cvz
