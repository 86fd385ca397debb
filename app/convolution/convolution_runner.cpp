#include "app/convolution/convolution_runner.h"

#include <QElapsedTimer>
#include <QThread>

#include "app/grayscale/grayscale_runner.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_cuda.h"
#include "kernels/convolution/convolution_emulated.h"
#include "kernels/convolution/convolution_problem.h"
#include "kernels/convolution/convolution_timing.h"

namespace cvz {

QString convolution_shape_text(const ConvolutionLaunch& launch, std::uint32_t width, std::uint32_t height,
                               std::uint32_t mask_side) {
    const Dim3 grid = convolution_grid(launch, width, height);
    const KernelInfo* info = kernel_info(launch.ref());
    return QStringLiteral("%1 · block %2x%3 · grid %4x%5 · mask %6x%6")
        .arg(QString::fromStdString(info ? info->label : to_string(launch)))
        .arg(launch.block.x)
        .arg(launch.block.y)
        .arg(grid.x)
        .arg(grid.y)
        .arg(mask_side);
}

QString ConvolutionResult::summary() const {
    if (!status) return QString::fromStdString(status.message());
    return QStringLiteral("%1 · %2 · %3 · total %4 ms").arg(backend, shape_text, times.text(), QString::number(total_ms, 'f', 3));
}

ConvolutionResult run_convolution(const ConvolutionRequest& req) {
    QElapsedTimer wall;
    wall.start();
    ConvolutionResult r;
    r.width = req.width;
    r.height = req.height;
    r.shape_text = convolution_shape_text(req.launch, r.width, r.height, req.mask.side);
    if (req.gray.size() != std::size_t(r.width) * r.height) {
        r.status = Status::error(ErrorKind::InvalidInput, "the grayscale buffer does not hold width x height pixels");
        return r;
    }
    if (std::string e = validate_mask(req.mask); !e.empty()) {
        r.status = Status::error(ErrorKind::InvalidInput, e);
        return r;
    }
    if (std::string e = validate_convolution_launch(req.launch, r.width, r.height, req.mask.side); !e.empty()) {
        r.status = Status::error(ErrorKind::InvalidInput, e);
        return r;
    }
    BackendChoice backend = req.backend;
    if (backend == BackendChoice::Auto) backend = cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu;

    r.out.assign(std::size_t(r.width) * r.height, 0.0f);
    ConvolutionProblem problem;
    problem.gray = req.gray.data();
    problem.mask = req.mask.values.data();
    problem.out = r.out.data();
    problem.width = r.width;
    problem.height = r.height;
    problem.mask_side = req.mask.side;

    if (backend == BackendChoice::Cuda) {
        if (r.status = cuda_backend_status(); !r.status) {
            r.out.clear();
            return r;
        }
        GpuTimings t;
        r.status = convolution_cuda(problem, req.launch, &t);
        r.times.gpu = true;
        r.times.first_ms = t.kernel_ms;
        r.times.first_call_ms = t.total_ms;
        if (r.status) {
            // The warm time as the benchmarks take it: warm-up launches, then the median of timed ones.
            const TimingSweep warm = time_convolution_launches(problem, {req.launch});
            if (warm.status && !warm.shapes.empty() && warm.shapes.front().timed) {
                r.times.warm_ms = warm.shapes.front().median_ms;
                r.times.warm_launches = warm.shapes.front().launches;
            }
        }
        r.backend = cuda_backend_label(0);
    } else {
        r.status = time_emulator_runs(req.emulator_repeats, [&] { return convolution_emulated(problem, req.launch); }, &r.times);
        r.backend = QStringLiteral("CPU emulator (%1 threads)").arg(QThread::idealThreadCount());
    }
    r.kernel_ms = r.times.kernel_ms();
    if (!r.status) r.out.clear();
    r.total_ms = double(wall.nsecsElapsed()) / 1e6;
    return r;
}

}  // namespace cvz
