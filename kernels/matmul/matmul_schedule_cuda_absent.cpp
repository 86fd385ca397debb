// Compiled instead of matmul_schedule.cu when the CUDA toolkit was not found at build time.
#include "matmul_schedule.h"

namespace cvz {

Status matmul_cuda_schedule(const MatmulProblem&, const MatmulLaunch&, BlockSchedule*, int) {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
}

}  // namespace cvz
