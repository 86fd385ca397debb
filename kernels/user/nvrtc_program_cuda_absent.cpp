// Built without the CUDA toolkit: there is no NVRTC to compile with and no device to ask.
#include "nvrtc_program.h"

namespace cvz::user {

NvrtcResult nvrtc_compile(const NvrtcRequest&) {
    NvrtcResult result;
    result.status = Status::error(ErrorKind::Unavailable,
                                  "cudaviz was built without the CUDA toolkit: no NVRTC to compile the kernel for the GPU");
    return result;
}

std::string nvrtc_version() { return {}; }

int cuda_device_sm(int) { return 0; }

}  // namespace cvz::user
