// The grayscale block-size sweep on the GPU: one upload, then every shape timed with CUDA events.
#include <cstdint>
#include <string>

#include "../core/launch_limits.h"
#include "../cuda/cuda_check.h"
#include "../cuda/clock_spin_up.h"
#include "../cuda/cuda_stream.h"
#include "../cuda/device_buffer.h"
#include "../cuda/launch_timer.h"
#include "grayscale_device_launch.h"
#include "grayscale_launch.h"
#include "grayscale_timing.h"

namespace cvz {

TimingSweep time_grayscale_shapes(const GrayscaleImage& host, const std::vector<LaunchShape>& shapes,
                                  const TimingOptions& options) {
    TimingSweep failed;
    failed.shapes.resize(shapes.size());
    if (!host.rgb || host.pixels() == 0) {
        failed.status = Status::error(ErrorKind::InvalidInput, "there is no image to time the grayscale kernel on");
        return failed;
    }
    std::string device_name;
    if (failed.status = select_cuda_device(options.device, &device_name); !failed.status) return failed;
    const std::size_t n = host.pixels();
    DeviceBuffer<std::uint8_t> rgb, gray;
    if (failed.status = rgb.allocate(3 * n); !failed.status) return failed;
    if (failed.status = gray.allocate(n); !failed.status) return failed;
    if (failed.status = cuda_status(cudaMemcpy(rgb.get(), host.rgb, 3 * n, cudaMemcpyHostToDevice), "uploading the image");
        !failed.status)
        return failed;
    CudaStream stream;
    if (failed.status = stream.create(); !failed.status) return failed;

    if (failed.status = spin_up_clocks(stream.get(), options.spin_up_ms); !failed.status) return failed;

    GrayscaleImage dev = host;
    dev.rgb = rgb.get();
    dev.gray = gray.get();
    TimingSweep sweep = run_timing_loop(shapes.size(), options, [&](std::size_t i, ShapeTiming* out) {
        const LaunchShape& shape = shapes[i];
        if (std::string e = validate_grayscale_launch(shape, dev.width, dev.height); !e.empty()) {
            if (validate_block(shape.block).empty()) {
                out->status = Status::error(ErrorKind::InvalidInput, e);
                return Status::ok();
            }
            const Dim3 grid = grayscale_grid(shape, dev.width, dev.height);
            return time_launch_shape(
                [&] { return launch_grayscale_unvalidated(dev, shape.kind, grid, shape.block, grayscale_shared_bytes(shape),
                                                           stream.get()); },
                stream.get(), options, out);
        }
        return time_launch_shape([&] { return launch_grayscale_on_device(dev, shape, stream.get()); }, stream.get(),
                                 options, out);
    });
    sweep.device = device_name;
    return sweep;
}

}  // namespace cvz
