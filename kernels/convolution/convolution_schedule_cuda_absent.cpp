// Compiled instead of convolution_schedule.cu when the CUDA toolkit was not found at build time.
#include "convolution_schedule.h"

namespace cvz {

Status convolution_cuda_schedule(const ConvolutionProblem&, const ConvolutionLaunch&, BlockSchedule*, int) {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
}

}  // namespace cvz
