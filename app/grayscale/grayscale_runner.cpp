#include "app/grayscale/grayscale_runner.h"

#include "app/grayscale/grayscale_resources.h"

#include <QElapsedTimer>
#include <QThread>

#include "app/models/kernel_resources.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/cuda/cuda_devices.h"
#include "kernels/grayscale/grayscale_cuda.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/grayscale/grayscale_variants.h"

namespace cvz {

namespace {

}  // namespace

QString cuda_backend_label(int device) {
    const CudaInventory inv = query_cuda_devices();
    for (const CudaDeviceInfo& d : inv.devices)
        if (d.index == device) return QStringLiteral("CUDA (%1)").arg(QString::fromStdString(d.name));
    return QStringLiteral("CUDA");
}

QString grayscale_shape_text(const LaunchShape& shape, std::uint32_t width, std::uint32_t height) {
    const Dim3 grid = grayscale_grid(shape, width, height);
    const KernelInfo* info = grayscale_variant_info(shape.kind);
    return QStringLiteral("%1 block %2 · grid %3")
        .arg(QString::fromStdString(info ? info->label : to_string(grayscale_kernel_ref(shape))),
             QString::fromStdString(to_string(shape)),
             is_one_d(shape) ? QString::number(grid.x) : QStringLiteral("%1x%2").arg(grid.x).arg(grid.y));
}

QString GrayscaleResult::summary() const {
    if (!status) return QString::fromStdString(status.message());
    // A user kernel's run has no total apart from its time (the isolated runner's, start to end).
    if (total_ms <= 0) return QStringLiteral("%1 · %2 · %3").arg(backend, shape_text, times.text());
    return QStringLiteral("%1 · %2 · %3 · total %4 ms")
        .arg(backend, shape_text, times.text(), QString::number(total_ms, 'f', 3));
}

GrayscaleResult run_grayscale(const GrayscaleRequest& req) {
    QElapsedTimer wall;
    wall.start();
    GrayscaleResult r;
    r.width = req.input.width;
    r.height = req.input.height;
    r.shape_text = grayscale_shape_text(req.shape, r.width, r.height);
    if (req.input.bytes.size() != 3 * std::size_t(r.width) * r.height) {
        r.status = Status::error(ErrorKind::InvalidInput, "the RGB buffer does not hold width x height pixels");
        return r;
    }
    if (std::string e = validate_grayscale_launch(req.shape, r.width, r.height); !e.empty()) {
        r.status = Status::error(ErrorKind::InvalidInput, e);
        return r;
    }
    BackendChoice backend = req.backend;
    if (backend == BackendChoice::Auto) backend = cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu;

    const std::uint64_t n = std::uint64_t(r.width) * r.height;
    std::vector<std::uint8_t> planar;
    const std::uint8_t* input = req.input.bytes.data();
    if (req.layout == PixelLayout::Planar) {
        planar = interleaved_to_planar(input, n);
        input = planar.data();
    }
    r.gray.assign(n, 0);
    const GrayscaleImage image{input, r.gray.data(), r.width, r.height, req.layout};

    if (backend == BackendChoice::Cuda) {
        if (r.status = cuda_backend_status(); !r.status) {
            r.gray.clear();
            return r;
        }
        GpuTimings t;
        r.status = grayscale_cuda(image, req.shape, &t);
        r.times.gpu = true;
        r.times.first_ms = t.kernel_ms;
        r.times.first_call_ms = t.total_ms;
        if (r.status) {
            // The warm time as the benchmarks take it: warm-up launches, then the median of timed ones.
            const TimingSweep warm = time_grayscale_shapes(image, {req.shape});
            if (warm.status && !warm.shapes.empty() && warm.shapes.front().timed) {
                r.times.warm_ms = warm.shapes.front().median_ms;
                r.times.warm_launches = warm.shapes.front().launches;
            }
        }
        r.backend = cuda_backend_label(0);
    } else {
        r.status = time_emulator_runs(req.emulator_repeats, [&] { return grayscale_emulated(image, req.shape); }, &r.times);
        r.backend = QStringLiteral("CPU emulator (%1 threads)").arg(QThread::idealThreadCount());
    }
    r.kernel_ms = r.times.kernel_ms();
    if (!r.status) r.gray.clear();
    r.total_ms = double(wall.nsecsElapsed()) / 1e6;
    return r;
}

}  // namespace cvz
