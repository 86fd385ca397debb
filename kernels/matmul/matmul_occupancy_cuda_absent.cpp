// Compiled instead of matmul_occupancy.cu when the CUDA toolkit was not found at build time.
#include "matmul_family.h"

namespace cvz {

Status MatmulFamily::kernel_address(std::uint8_t, unsigned, const void**) {
    return Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; there are no GPU kernels");
}

}  // namespace cvz
