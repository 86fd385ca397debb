// The convolution kernels with schedule recording: the variant's body run with
// ScheduleRecordingContext, which records the block's SM and its first warp's start and last warp's
// end around the body. This unit's own __constant__ mask is filled before the launches.
#include <string>

#include "../cuda/cuda_check.h"
#include "../cuda/device_buffer.h"
#include "../cuda/schedule_recording_context.cuh"
#include "convolution_schedule.h"
#include "convolution_variants.h"

namespace cvz {

namespace {

template <class Body>
__global__ void convolution_recorded_kernel(ConvolutionProblem p, ScheduleRecordingContext ctx) {
    ctx.block_started();
    Body::run(ctx, p);
    ctx.block_ended();
}

}  // namespace

Status convolution_cuda_schedule(const ConvolutionProblem& host, const ConvolutionLaunch& l, BlockSchedule* out, int device) {
    if (std::string e = validate_convolution_launch(l, host.width, host.height, host.mask_side); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    CVZ_CUDA_TRY(cudaSetDevice(device));
    if (Status s = describe_schedule_device(device, out); !s) return s;
    const std::size_t n = host.pixels(), nm = std::size_t(host.mask_side) * host.mask_side;
    DeviceBuffer<std::uint8_t> gray;
    DeviceBuffer<float> mask, res;
    if (Status s = gray.allocate(n); !s) return s;
    if (Status s = mask.allocate(nm); !s) return s;
    if (Status s = res.allocate(n); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpy(gray.get(), host.gray, n, cudaMemcpyHostToDevice));
    CVZ_CUDA_TRY(cudaMemcpy(mask.get(), host.mask, nm * sizeof(float), cudaMemcpyHostToDevice));
    CVZ_CUDA_TRY(cudaMemcpyToSymbol(conv_constant_mask, host.mask, nm * sizeof(float)));
    ConvolutionProblem dev = host;
    dev.gray = gray.get();
    dev.mask = mask.get();
    dev.out = res.get();
    const Dim3 g = convolution_grid(l, host.width, host.height);
    ScheduleRecording recording;
    if (Status s = recording.allocate(g.volume()); !s) return s;
    Status launched = with_convolution_variant(l.kernel, [&](auto body) {
        using Body = decltype(body);
        // The first launch loads the module and warms the caches; the second is the one recorded.
        for (int run = 0; run < 2; ++run) {
            if (Status s = recording.reset(nullptr); !s) return s;
            convolution_recorded_kernel<Body><<<dim3(g.x, g.y, 1), dim3(l.block.x, l.block.y, 1),
                                                Body::shared_bytes(l.block, host.mask_side)>>>(dev, recording.context());
            if (Status s = cuda_status(cudaGetLastError(), ("recorded convolution kernel launch (" + to_string(l) + ")").c_str());
                !s)
                return s;
        }
        return Status::ok();
    });
    if (!launched) return launched;
    CVZ_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<BlockTiming> raw;
    if (Status s = recording.download(&raw); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpy(host.out, res.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
    if (std::string e = make_block_schedule(g, raw, out); !e.empty())
        return Status::error(ErrorKind::Device, "the recorded schedule: " + e);
    return Status::ok();
}

}  // namespace cvz
