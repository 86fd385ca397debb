// The grayscale kernel with schedule recording: the variant's body run with ScheduleRecordingContext,
// which records the block's SM and its first warp's start and last warp's end around the body.
#include <string>

#include "../cuda/cuda_check.h"
#include "../cuda/device_buffer.h"
#include "../cuda/schedule_recording_context.cuh"
#include "grayscale_launch.h"
#include "grayscale_schedule.h"
#include "grayscale_variants.h"

namespace cvz {

namespace {

template <class Body>
__global__ void grayscale_recorded_kernel(GrayscaleImage im, ScheduleRecordingContext ctx) {
    ctx.block_started();
    Body::run(ctx, im);
    ctx.block_ended();
}

}  // namespace

Status grayscale_cuda_schedule(const GrayscaleImage& host, const LaunchShape& shape, BlockSchedule* out, int device) {
    if (std::string e = validate_grayscale_launch(shape, host.width, host.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    if (std::string e = validate_grayscale_layout(shape, host.layout); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    CVZ_CUDA_TRY(cudaSetDevice(device));
    if (Status s = describe_schedule_device(device, out); !s) return s;
    const std::size_t n = host.pixels();
    DeviceBuffer<std::uint8_t> rgb, gray;
    if (Status s = rgb.allocate(3 * n); !s) return s;
    if (Status s = gray.allocate(n); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpy(rgb.get(), host.rgb, 3 * n, cudaMemcpyHostToDevice));
    GrayscaleImage dev = host;
    dev.rgb = rgb.get();
    dev.gray = gray.get();
    const Dim3 g = grayscale_grid(shape, host.width, host.height), b = shape.block;
    ScheduleRecording recording;
    if (Status s = recording.allocate(g.volume()); !s) return s;
    Status launched = with_grayscale_variant(shape.kind, [&](auto body) {
        using Body = decltype(body);
        // The first launch loads the module and warms the caches; the second is the one recorded.
        for (int run = 0; run < 2; ++run) {
            if (Status s = recording.reset(nullptr); !s) return s;
            grayscale_recorded_kernel<Body><<<dim3(g.x, g.y, g.z), dim3(b.x, b.y, b.z), Body::shared_bytes(b)>>>(
                dev, recording.context());
            if (Status s = cuda_status(cudaGetLastError(), "recorded grayscale kernel launch"); !s) return s;
        }
        return Status::ok();
    });
    if (!launched) return launched;
    CVZ_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<BlockTiming> raw;
    if (Status s = recording.download(&raw); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpy(host.gray, gray.get(), n, cudaMemcpyDeviceToHost));
    if (std::string e = make_block_schedule(g, raw, out); !e.empty())
        return Status::error(ErrorKind::Device, "the recorded schedule: " + e);
    return Status::ok();
}

}  // namespace cvz
