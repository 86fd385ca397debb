// Compiled instead of matmul_cuda.cu when the CUDA toolkit was not found at build time.
#include "matmul_cuda.h"

namespace cvz {

Status matmul_cuda(const MatmulProblem&, const MatmulLaunch&, GpuTimings*, int) {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
}

}  // namespace cvz
