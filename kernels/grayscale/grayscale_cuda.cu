// The grayscale kernel's GPU launchers: the same bodies as the emulator (grayscale_body.h), instantiated
// with the device context.
#include <chrono>

#include "../cuda/cuda_check.h"
#include "../cuda/cuda_event.h"
#include "../cuda/device_buffer.h"
#include "../cuda/device_context.cuh"
#include "grayscale_body.h"
#include "grayscale_cuda.h"
#include "grayscale_device_launch.h"
#include "grayscale_launch.h"

namespace cvz {

namespace {

__global__ void grayscale_1d_kernel(GrayscaleImage im) { grayscale_1d(DeviceContext{}, im); }
__global__ void grayscale_2d_kernel(GrayscaleImage im) { grayscale_2d(DeviceContext{}, im); }

}  // namespace

Status launch_grayscale_on_device(const GrayscaleImage& device_image, const LaunchShape& shape, cudaStream_t stream) {
    if (std::string e = validate_grayscale_launch(shape, device_image.width, device_image.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 g = grayscale_grid(shape, device_image.width, device_image.height);
    const dim3 grid(g.x, g.y, g.z), block(shape.block.x, shape.block.y, shape.block.z);
    if (shape.kind == GridKind::OneD)
        grayscale_1d_kernel<<<grid, block, 0, stream>>>(device_image);
    else
        grayscale_2d_kernel<<<grid, block, 0, stream>>>(device_image);
    return cuda_status(cudaGetLastError(), "grayscale kernel launch");
}

Status grayscale_cuda(const GrayscaleImage& host, const LaunchShape& shape, GpuTimings* timings, int device) {
    const auto wall_start = std::chrono::steady_clock::now();
    if (std::string e = validate_grayscale_launch(shape, host.width, host.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    CVZ_CUDA_TRY(cudaSetDevice(device));
    const std::size_t n = host.pixels();
    DeviceBuffer<std::uint8_t> rgb, gray;
    if (Status s = rgb.allocate(3 * n); !s) return s;
    if (Status s = gray.allocate(n); !s) return s;
    CudaEvent e0, e1, e2, e3;
    for (CudaEvent* e : {&e0, &e1, &e2, &e3})
        if (Status s = e->create(); !s) return s;
    cudaStream_t stream = nullptr;  // the legacy default stream: one run at a time
    if (Status s = e0.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(rgb.get(), host.rgb, 3 * n, cudaMemcpyHostToDevice, stream));
    if (Status s = e1.record(stream); !s) return s;
    GrayscaleImage dev = host;
    dev.rgb = rgb.get();
    dev.gray = gray.get();
    if (Status s = launch_grayscale_on_device(dev, shape, stream); !s) return s;
    if (Status s = e2.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(host.gray, gray.get(), n, cudaMemcpyDeviceToHost, stream));
    if (Status s = e3.record(stream); !s) return s;
    CVZ_CUDA_TRY(cudaStreamSynchronize(stream));
    if (timings) {
        if (Status s = elapsed_ms(e0, e1, &timings->upload_ms); !s) return s;
        if (Status s = elapsed_ms(e1, e2, &timings->kernel_ms); !s) return s;
        if (Status s = elapsed_ms(e2, e3, &timings->download_ms); !s) return s;
        timings->total_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
    }
    return Status::ok();
}

}  // namespace cvz
