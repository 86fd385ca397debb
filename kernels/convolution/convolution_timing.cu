// The convolution block-size sweep on the GPU: one upload of the grayscale and the mask, then every
// launch timed with CUDA events.
#include <string>

#include "../cuda/clock_spin_up.h"
#include "../cuda/cuda_check.h"
#include "../cuda/cuda_stream.h"
#include "../cuda/device_buffer.h"
#include "../cuda/launch_timer.h"
#include "convolution_device_launch.h"
#include "convolution_timing.h"

namespace cvz {

TimingSweep time_convolution_launches(const ConvolutionProblem& host, const std::vector<ConvolutionLaunch>& launches,
                                      const TimingOptions& options) {
    TimingSweep failed;
    failed.shapes.resize(launches.size());
    if (!host.gray || !host.mask || host.width == 0 || host.height == 0) {
        failed.status = Status::error(ErrorKind::InvalidInput, "there is no image or mask to time the convolution kernels on");
        return failed;
    }
    std::string device_name;
    if (failed.status = select_cuda_device(options.device, &device_name); !failed.status) return failed;
    const std::size_t n = host.pixels(), nm = std::size_t(host.mask_side) * host.mask_side;
    DeviceBuffer<std::uint8_t> gray;
    DeviceBuffer<float> mask, out;
    if (failed.status = gray.allocate(n); !failed.status) return failed;
    if (failed.status = mask.allocate(nm); !failed.status) return failed;
    if (failed.status = out.allocate(n); !failed.status) return failed;
    if (failed.status = cuda_status(cudaMemcpy(gray.get(), host.gray, n, cudaMemcpyHostToDevice), "uploading the grayscale");
        !failed.status)
        return failed;
    if (failed.status = cuda_status(cudaMemcpy(mask.get(), host.mask, mask.bytes(), cudaMemcpyHostToDevice), "uploading the mask");
        !failed.status)
        return failed;
    if (failed.status = set_convolution_constant_mask(host.mask, host.mask_side); !failed.status) return failed;
    CudaStream stream;
    if (failed.status = stream.create(); !failed.status) return failed;
    if (failed.status = spin_up_clocks(stream.get(), options.spin_up_ms); !failed.status) return failed;

    ConvolutionProblem dev = host;
    dev.gray = gray.get();
    dev.mask = mask.get();
    dev.out = out.get();
    TimingSweep sweep = run_timing_loop(launches.size(), options, [&](std::size_t i, ShapeTiming* out_timing) {
        const ConvolutionLaunch& launch = launches[i];
        return time_launch_shape([&] { return launch_convolution_on_device(dev, launch, stream.get()); }, stream.get(),
                                 options, out_timing);
    });
    sweep.device = device_name;
    return sweep;
}

}  // namespace cvz
