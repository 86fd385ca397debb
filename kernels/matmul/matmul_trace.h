#pragma once
// The traced matmul launch: the catalogue variant's body on the emulator through a recording context
// (memory_trace.h), with barriers (fibers) and shared memory where the variant needs them. Runs on
// the caller's thread (the app's worker); progress and cancel through TraceOptions.
#include <cstdint>

#include "matmul_launch.h"
#include "../trace/trace_result.h"

namespace cvz {

// Traces `launch` for C (m x n) = A (m x k) @ B (k x n). `a` and `b` (row-major float32, or null for
// zeros: addresses do not depend on the values) are copied into 256-byte-aligned buffers "A", "B"
// and "C", as cudaMalloc would place them, so the float4 paths are taken exactly when the GPU takes them.
TraceResult trace_matmul(const float* a, const float* b, std::uint32_t m, std::uint32_t k, std::uint32_t n,
                         const MatmulLaunch& launch, const TraceOptions& options = {});

}  // namespace cvz
