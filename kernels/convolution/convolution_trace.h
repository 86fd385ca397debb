#pragma once
// The traced convolution launch: the catalogue variant's body on the emulator through a recording
// context (memory_trace.h). Buffers "gray" (u8), "mask" (float32: a global buffer for conv_naive, a
// constant one for the variants that keep it in __constant__ memory) and "out" (float32), each
// 256-byte aligned as cudaMalloc places them. Runs on the caller's thread; progress and cancel
// through TraceOptions.
#include <cstdint>

#include "../trace/trace_result.h"
#include "convolution_launch.h"

namespace cvz {

// `gray` (width*height bytes, or null for black: addresses do not depend on the pixels) and `mask`
// (mask_side^2 floats, or null for zeros) are copied first.
TraceResult trace_convolution(const std::uint8_t* gray, const float* mask, std::uint32_t mask_side, std::uint32_t width,
                              std::uint32_t height, const ConvolutionLaunch& launch, const TraceOptions& options = {});

}  // namespace cvz
