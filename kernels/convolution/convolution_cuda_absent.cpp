// Compiled instead of convolution_cuda.cu when the CUDA toolkit was not found at build time.
#include "convolution_cuda.h"

namespace cvz {

Status convolution_cuda(const ConvolutionProblem&, const ConvolutionLaunch&, GpuTimings*, int) {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
}

}  // namespace cvz
