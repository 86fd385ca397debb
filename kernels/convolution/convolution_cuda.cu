// The convolution kernels' GPU launchers: the bodies of convolution_body.h instantiated with the
// device context, and this translation unit's __constant__ mask, which every launch here reads.
#include <chrono>

#include "../cuda/cuda_check.h"
#include "../cuda/cuda_event.h"
#include "../cuda/device_buffer.h"
#include "convolution_cuda.h"
#include "convolution_device_launch.h"
#include "convolution_kernels.cuh"

namespace cvz {

Status set_convolution_constant_mask(const float* host_mask, std::uint32_t side) {
    if (side == 0 || side > kMaxMaskSide || !host_mask)
        return Status::error(ErrorKind::InvalidInput, "a constant mask of side " + std::to_string(side));
    return cuda_status(cudaMemcpyToSymbol(conv_constant_mask, host_mask, std::size_t(side) * side * sizeof(float)),
                       "copying the mask to constant memory");
}

Status launch_convolution_on_device(const ConvolutionProblem& p, const ConvolutionLaunch& l, cudaStream_t stream) {
    if (std::string e = validate_convolution_launch(l, p.width, p.height, p.mask_side); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 g = convolution_grid(l, p.width, p.height);
    const dim3 grid(g.x, g.y, 1), block(l.block.x, l.block.y, 1);
    return with_convolution_variant(l.kernel, [&](auto body) {
        using Body = decltype(body);
        convolution_kernel<Body><<<grid, block, Body::shared_bytes(l.block, p.mask_side), stream>>>(p);
        return cuda_status(cudaGetLastError(), ("convolution kernel launch (" + to_string(l) + ")").c_str());
    });
}

Status convolution_cuda(const ConvolutionProblem& host, const ConvolutionLaunch& l, GpuTimings* timings, int device) {
    const auto wall_start = std::chrono::steady_clock::now();
    if (std::string e = validate_convolution_launch(l, host.width, host.height, host.mask_side); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    CVZ_CUDA_TRY(cudaSetDevice(device));
    const std::size_t n = host.pixels(), nm = std::size_t(host.mask_side) * host.mask_side;
    DeviceBuffer<std::uint8_t> gray;
    DeviceBuffer<float> mask, out;
    if (Status s = gray.allocate(n); !s) return s;
    if (Status s = mask.allocate(nm); !s) return s;
    if (Status s = out.allocate(n); !s) return s;
    CudaEvent e0, e1, e2, e3;
    for (CudaEvent* e : {&e0, &e1, &e2, &e3})
        if (Status s = e->create(); !s) return s;
    cudaStream_t stream = nullptr;
    if (Status s = e0.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(gray.get(), host.gray, n, cudaMemcpyHostToDevice, stream));
    CVZ_CUDA_TRY(cudaMemcpyAsync(mask.get(), host.mask, nm * sizeof(float), cudaMemcpyHostToDevice, stream));
    if (Status s = set_convolution_constant_mask(host.mask, host.mask_side); !s) return s;
    if (Status s = e1.record(stream); !s) return s;
    ConvolutionProblem dev = host;
    dev.gray = gray.get();
    dev.mask = mask.get();
    dev.out = out.get();
    if (Status s = launch_convolution_on_device(dev, l, stream); !s) return s;
    if (Status s = e2.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(host.out, out.get(), n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    if (Status s = e3.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaStreamSynchronize(stream));
    return timings ? read_stage_timings(e0, e1, e2, e3, wall_start, timings) : Status::ok();
}

}  // namespace cvz
