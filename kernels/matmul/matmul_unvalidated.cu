// The matmul kernels (matmul_kernels.cuh) launched with no validation of ours, for CUDA's own refusals.
#include <string>

#include "../core/launch_shape.h"
#include "../cuda/cuda_check.h"
#include "../cuda/device_context.cuh"
#include "matmul_body.h"
#include "matmul_kernels.cuh"
#include "matmul_unvalidated.h"

namespace cvz {

namespace {

}  // namespace

Status launch_matmul_unvalidated(const MatmulProblem& p, const MatmulLaunch& l, Dim3 g, Dim3 b,
                                 std::size_t dynamic_shared_bytes, cudaStream_t stream) {
    const dim3 grid(g.x, g.y, g.z), block(b.x, b.y, b.z);
    if (l.kernel == MatmulKernel::Naive) {
        matmul_naive_kernel<<<grid, block, dynamic_shared_bytes, stream>>>(p);
    } else {
        switch (l.tile) {
            case 8: matmul_tiled_kernel<8><<<grid, block, dynamic_shared_bytes, stream>>>(p); break;
            case 16: matmul_tiled_kernel<16><<<grid, block, dynamic_shared_bytes, stream>>>(p); break;
            case 32: matmul_tiled_kernel<32><<<grid, block, dynamic_shared_bytes, stream>>>(p); break;
            default:
                return Status::error(ErrorKind::InvalidInput,
                                     "TILE = " + std::to_string(l.tile) + " is not one of 8, 16, 32");
        }
    }
    const cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) return Status::ok();
    const std::string kernel = l.kernel == MatmulKernel::Naive ? "naive" : "tiled TILE=" + std::to_string(l.tile);
    const std::string what = "matmul " + kernel + " kernel launch (grid " + to_string(g) + ", block " + to_string(b) + ", " +
                             std::to_string(dynamic_shared_bytes) + " bytes of dynamic shared memory)";
    return cuda_status(err, what.c_str());
}

}  // namespace cvz
