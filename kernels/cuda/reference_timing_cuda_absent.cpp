// Compiled instead of reference_timing.cu when the CUDA toolkit was not found at build time.
#include "reference_timing.h"

namespace cvz {

namespace {
Status unavailable() {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; nothing can be timed");
}
}  // namespace

Status time_device_copy(std::size_t, const TimingOptions&, ShapeTiming* out) { return out->status = unavailable(); }

Status time_cublas_sgemm(std::uint32_t, std::uint32_t, std::uint32_t, const TimingOptions&, ShapeTiming* out) {
    return out->status = unavailable();
}

}  // namespace cvz
