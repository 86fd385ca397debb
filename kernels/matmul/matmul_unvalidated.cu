// The matmul kernel (matmul_kernels.cuh) launched with no validation of ours, for CUDA's own refusals.
#include <string>

#include "../core/dim3_text.h"
#include "../cuda/cuda_check.h"
#include "../cuda/device_context.cuh"
#include "matmul_kernels.cuh"
#include "matmul_unvalidated.h"
#include "matmul_variants.h"

namespace cvz {

Status launch_matmul_unvalidated(const MatmulProblem& p, const MatmulLaunch& l, Dim3 g, Dim3 b,
                                 std::size_t dynamic_shared_bytes, cudaStream_t stream) {
    const dim3 grid(g.x, g.y, g.z), block(b.x, b.y, b.z);
    MatmulProblem run = p;  // a grid of K slices writes partial sums: give it a workspace
    if (g.z > 1 && !run.partials) {
        void* w = nullptr;
        CVZ_CUDA_TRY(cudaMallocAsync(&w, std::size_t(g.z - 1) * p.m * p.n * sizeof(float), stream));
        run.partials = static_cast<float*>(w);
    }
    struct Free {
        float* w;
        cudaStream_t s;
        ~Free() { if (w) cudaFreeAsync(w, s); }
    } release{run.partials != p.partials ? run.partials : nullptr, stream};
    return with_matmul_variant(l, [&](auto body) {
        // The body's own need opted in, as the validated launcher does; a larger request is CUDA's to refuse.
        (void)allow_dynamic_shared(matmul_kernel_for<decltype(body)>(), decltype(body)::shared_bytes(b));
        matmul_kernel_for<decltype(body)>()<<<grid, block, dynamic_shared_bytes, stream>>>(run);
        const cudaError_t err = cudaGetLastError();
        if (err == cudaSuccess) return Status::ok();
        const std::string what = "matmul " + to_string(l) + " kernel launch (grid " + to_string(g) + ", block " +
                                 to_string(b) + ", " + std::to_string(dynamic_shared_bytes) +
                                 " bytes of dynamic shared memory)";
        return cuda_status(err, what.c_str());
    });
}

}  // namespace cvz
