// Compiled instead of the .cu sources when the CUDA toolkit was not found at build time: every CUDA
// entry point answers "unavailable", and the app runs on the emulator (ARCHITECTURE.md, invariant 3).
#include "../grayscale/grayscale_cuda.h"
#include "cuda_devices.h"

namespace cvz {

namespace {
const char* kNoToolkit = "cudaviz was built without the CUDA toolkit; only the CPU emulator is available";
}

CudaInventory query_cuda_devices() {
    CudaInventory inv;
    inv.status = Status::error(ErrorKind::Unavailable, kNoToolkit);
    return inv;
}

Status grayscale_cuda(const GrayscaleImage&, const LaunchShape&, GpuTimings*, int) {
    return Status::error(ErrorKind::Unavailable, kNoToolkit);
}

}  // namespace cvz
