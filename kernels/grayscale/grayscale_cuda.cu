// The grayscale kernel's GPU launchers: the same bodies as the emulator (grayscale_body.h), instantiated
// with a device context: DeviceContext for linear memory, SurfaceStoreContext for a GL texture.
#include <chrono>
#include <cstdint>
#include <string>

#include "../cuda/cuda_check.h"
#include "../cuda/cuda_event.h"
#include "../cuda/device_buffer.h"
#include "../cuda/device_context.cuh"
#include "../cuda/surface_store_context.cuh"
#include "grayscale_body.h"
#include "grayscale_cuda.h"
#include "grayscale_device_launch.h"
#include "grayscale_kernels.cuh"
#include "grayscale_launch.h"
#include "grayscale_launch_count.h"
#include "grayscale_variants.h"

namespace cvz {

namespace {

template <class Ctx>
Status launch(const GrayscaleImage& im, GrayscaleVariant variant, Dim3 g, Dim3 b, std::size_t shared_bytes,
              cudaStream_t stream, const Ctx& ctx) {
    const dim3 grid(g.x, g.y, g.z), block(b.x, b.y, b.z);
    const KernelInfo* info = grayscale_variant_info(variant);
    return with_grayscale_variant(variant, [&](auto body) {
        grayscale_kernel<decltype(body), Ctx><<<grid, block, shared_bytes, stream>>>(im, ctx);
        const cudaError_t err = cudaGetLastError();
        if (err == cudaSuccess) {
            count_grayscale_gpu_launch();
            return Status::ok();
        }
        const std::string what = "grayscale kernel " + info->name + " launch (grid " + to_string(g) + ", block " +
                                 to_string(b) + ", " + std::to_string(shared_bytes) +
                                 " bytes of dynamic shared memory)";
        return cuda_status(err, what.c_str());
    });
}

template <class Ctx>
Status launch_validated(const GrayscaleImage& im, const LaunchShape& shape, cudaStream_t stream, const Ctx& ctx) {
    if (std::string e = validate_grayscale_launch(shape, im.width, im.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    if (std::string e = validate_grayscale_layout(shape, im.layout); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    return launch(im, shape.kind, grayscale_grid(shape, im.width, im.height), shape.block, grayscale_shared_bytes(shape),
                  stream, ctx);
}

// The address the body forms output addresses from when they are surface coordinates in disguise:
// it is never dereferenced (SurfaceStoreContext::store turns gray + i back into i). Not null, so
// that the body's pointer arithmetic is not arithmetic on a null pointer.
std::uint8_t* surface_origin() { return reinterpret_cast<std::uint8_t*>(std::uintptr_t{1} << 32); }

}  // namespace

Status launch_grayscale_on_device(const GrayscaleImage& device_image, const LaunchShape& shape, cudaStream_t stream) {
    return launch_validated(device_image, shape, stream, DeviceContext{});
}

Status launch_grayscale_to_surface(const GrayscaleImage& device_image, cudaSurfaceObject_t surface,
                                   const LaunchShape& shape, cudaStream_t stream) {
    GrayscaleImage im = device_image;
    im.gray = surface_origin();
    SurfaceStoreContext ctx;
    ctx.surface = surface;
    ctx.origin = im.gray;
    ctx.width = im.width;
    return launch_validated(im, shape, stream, ctx);
}

Status launch_grayscale_unvalidated(const GrayscaleImage& device_image, GrayscaleVariant variant, Dim3 grid,
                                    Dim3 block, std::size_t dynamic_shared_bytes, cudaStream_t stream) {
    return launch(device_image, variant, grid, block, dynamic_shared_bytes, stream, DeviceContext{});
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
    return timings ? read_stage_timings(e0, e1, e2, e3, wall_start, timings) : Status::ok();
}

}  // namespace cvz
