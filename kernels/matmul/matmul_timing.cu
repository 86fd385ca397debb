// The matmul block-size sweep on the GPU: one upload of A and B, then every launch timed with CUDA events.
#include <string>

#include "../cuda/clock_spin_up.h"
#include "../cuda/cuda_check.h"
#include "../cuda/cuda_stream.h"
#include "../cuda/device_buffer.h"
#include "../cuda/launch_timer.h"
#include "matmul_device_launch.h"
#include "matmul_timing.h"

namespace cvz {

TimingSweep time_matmul_launches(const MatmulProblem& host, const std::vector<MatmulLaunch>& launches,
                                 const TimingOptions& options) {
    TimingSweep failed;
    failed.shapes.resize(launches.size());
    if (!host.a || !host.b || host.m == 0 || host.k == 0 || host.n == 0) {
        failed.status = Status::error(ErrorKind::InvalidInput, "there are no matrices to time the matmul kernels on");
        return failed;
    }
    std::string device_name;
    if (failed.status = select_cuda_device(options.device, &device_name); !failed.status) return failed;
    const std::size_t na = std::size_t(host.m) * host.k, nb = std::size_t(host.k) * host.n,
                      nc = std::size_t(host.m) * host.n;
    DeviceBuffer<float> a, b, c;
    if (failed.status = a.allocate(na); !failed.status) return failed;
    if (failed.status = b.allocate(nb); !failed.status) return failed;
    if (failed.status = c.allocate(nc); !failed.status) return failed;
    if (failed.status = cuda_status(cudaMemcpy(a.get(), host.a, a.bytes(), cudaMemcpyHostToDevice), "uploading A");
        !failed.status)
        return failed;
    if (failed.status = cuda_status(cudaMemcpy(b.get(), host.b, b.bytes(), cudaMemcpyHostToDevice), "uploading B");
        !failed.status)
        return failed;
    CudaStream stream;
    if (failed.status = stream.create(); !failed.status) return failed;

    if (failed.status = spin_up_clocks(stream.get(), options.spin_up_ms); !failed.status) return failed;

    MatmulProblem dev = host;
    dev.a = a.get();
    dev.b = b.get();
    dev.c = c.get();
    TimingSweep sweep = run_timing_loop(launches.size(), options, [&](std::size_t i, ShapeTiming* out) {
        const MatmulLaunch& launch = launches[i];
        return time_launch_shape([&] { return launch_matmul_on_device(dev, launch, stream.get()); }, stream.get(),
                                 options, out);
    });
    sweep.device = device_name;
    return sweep;
}

}  // namespace cvz
