#pragma once
// The ceilings a ladder of kernels is compared with, timed in the same run as the kernels and in the
// same way (kernel_timing.h: warm-up, then the median of CUDA-event-timed repeats): a device-to-device
// copy (the memory-bandwidth ceiling of the grayscale ladder) and cuBLAS SGEMM in full fp32 (the
// matmul ladder's). cuBLAS is loaded when first asked for (dlopen), so the app neither links nor
// ships it: without it the SGEMM row carries the reason and the kernels are still timed.
// Built without the CUDA toolkit: status is ErrorKind::Unavailable and nothing is timed.
#include <cstddef>
#include <cstdint>

#include "../core/kernel_timing.h"

namespace cvz {

// cudaMemcpyAsync device to device of `bytes` on options.device. out->median_ms is the copy's time;
// the bandwidth counts the bytes twice (read + written). The returned Status is non-ok only when the
// device cannot be used at all; a refused copy sets out->status.
Status time_device_copy(std::size_t bytes, const TimingOptions& options, ShapeTiming* out);

// cublasSgemm (CUBLAS_DEFAULT_MATH: fp32, no TF32 tensor cores) of C (m x n) = A (m x k) @ B (k x n),
// row-major, on operands filled with zeros on options.device. out->status names a missing cuBLAS.
Status time_cublas_sgemm(std::uint32_t m, std::uint32_t k, std::uint32_t n, const TimingOptions& options,
                         ShapeTiming* out);

}  // namespace cvz
