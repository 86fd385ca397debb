// Compiled instead of grayscale_schedule.cu when the CUDA toolkit was not found at build time.
#include "grayscale_schedule.h"

namespace cvz {

Status grayscale_cuda_schedule(const GrayscaleImage&, const LaunchShape&, BlockSchedule*, int) {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
}

}  // namespace cvz
