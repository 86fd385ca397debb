// The matmul kernels' GPU launchers: the bodies of matmul_body.h instantiated with the device context.
#include <chrono>

#include "../cuda/arch_specific.h"
#include "../cuda/cuda_check.h"
#include "../cuda/cuda_event.h"
#include "../cuda/device_buffer.h"
#include "../cuda/device_context.cuh"
#include "matmul_cuda.h"
#include "matmul_device_launch.h"
#include "matmul_kernels.cuh"
#include "matmul_variants.h"

namespace cvz {

Status launch_matmul_on_device(const MatmulProblem& p, const MatmulLaunch& l, cudaStream_t stream) {
    if (std::string e = validate_matmul_launch(l, p.m, p.k, p.n); !e.empty()) return Status::error(ErrorKind::InvalidInput, e);
    if (!l.second_barrier)
        return Status::error(ErrorKind::InvalidInput, "removing the barrier is a lesson for the emulator; the GPU always runs both");
    if (Status s = require_arch_specific(*matmul_variant_info(l.kernel)); !s) return s;
    const Dim3 g = matmul_grid(l, p.m, p.n), b = l.block_shape();
    const dim3 grid(g.x, g.y, g.z), block(b.x, b.y, 1);
    const std::size_t workspace = matmul_workspace_floats(l, p.m, p.n);
    MatmulProblem run = p;
    // Split-K's partial sums: stream-ordered memory, so that the launch stays free of syncs.
    if (workspace > 0 && !run.partials) {
        void* w = nullptr;
        CVZ_CUDA_TRY(cudaMallocAsync(&w, workspace * sizeof(float), stream));
        run.partials = static_cast<float*>(w);
    }
    Status s = with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        if (const cudaError_t e = allow_dynamic_shared(matmul_kernel_for<Body>(), Body::shared_bytes(b)); e != cudaSuccess)
            return cuda_status(e, ("matmul kernel shared memory opt-in (" + to_string(l) + ")").c_str());
        matmul_kernel_for<Body>()<<<grid, block, Body::shared_bytes(b), stream>>>(run);
        return cuda_status(cudaGetLastError(), ("matmul kernel launch (" + to_string(l) + ")").c_str());
    });
    if (s && g.z > 1) s = launch_matmul_split_k_reduce(run, g.z, stream);
    if (run.partials != p.partials) {
        const cudaError_t freed = cudaFreeAsync(run.partials, stream);
        if (s) s = cuda_status(freed, "freeing the split-K workspace");
    }
    return s;
}

Status launch_matmul_split_k_reduce(const MatmulProblem& p, unsigned slices, cudaStream_t stream) {
    const std::uint64_t blocks = cdiv(std::uint64_t(p.m) * p.n, kSplitKReduceThreads);
    matmul_split_k_reduce_kernel<<<dim3(unsigned(blocks)), dim3(kSplitKReduceThreads), 0, stream>>>(p, slices);
    return cuda_status(cudaGetLastError(), "matmul split-K reduction launch");
}

Status matmul_cuda(const MatmulProblem& host, const MatmulLaunch& l, GpuTimings* timings, int device) {
    const auto wall_start = std::chrono::steady_clock::now();
    if (std::string e = validate_matmul_launch(l, host.m, host.k, host.n); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    CVZ_CUDA_TRY(cudaSetDevice(device));
    if (Status s = require_arch_specific(*matmul_variant_info(l.kernel)); !s) return s;
    const std::size_t na = std::size_t(host.m) * host.k, nb = std::size_t(host.k) * host.n, nc = std::size_t(host.m) * host.n;
    DeviceBuffer<float> a, b, c;
    if (Status s = a.allocate(na); !s) return s;
    if (Status s = b.allocate(nb); !s) return s;
    if (Status s = c.allocate(nc); !s) return s;
    CudaEvent e0, e1, e2, e3;
    for (CudaEvent* e : {&e0, &e1, &e2, &e3})
        if (Status s = e->create(); !s) return s;
    cudaStream_t stream = nullptr;
    if (Status s = e0.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(a.get(), host.a, na * sizeof(float), cudaMemcpyHostToDevice, stream));
    CVZ_CUDA_TRY(cudaMemcpyAsync(b.get(), host.b, nb * sizeof(float), cudaMemcpyHostToDevice, stream));
    if (Status s = e1.record(stream); !s) return s;
    MatmulProblem dev = host;
    dev.a = a.get();
    dev.b = b.get();
    dev.c = c.get();
    if (Status s = launch_matmul_on_device(dev, l, stream); !s) return s;
    if (Status s = e2.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(host.c, c.get(), nc * sizeof(float), cudaMemcpyDeviceToHost, stream));
    if (Status s = e3.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaStreamSynchronize(stream));
    return timings ? read_stage_timings(e0, e1, e2, e3, wall_start, timings) : Status::ok();
}

}  // namespace cvz
