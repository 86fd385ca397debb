#include "app/matmul/matmul_runner.h"

#include <QElapsedTimer>
#include <QThread>

#include "kernels/matmul/matmul_cuda.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_timing.h"
#include "app/grayscale/grayscale_runner.h"

namespace cvz {

double MatmulResult::gflops() const {
    if (kernel_ms <= 0) return 0;
    return 2.0 * double(c.rows) * double(c.cols) * double(k) / (kernel_ms * 1e6);
}

QString MatmulResult::summary() const {
    if (!status) return QString::fromStdString(status.message());
    return QStringLiteral("%1 · %2 · %3 (%4 GFLOP/s) · total %5 ms")
        .arg(backend, launch_text, times.text(), QString::number(gflops(), 'f', 2),
             QString::number(total_ms, 'f', 3));
}

Status check_matmul_operands(const MatmulRequest& req) {
    for (const Matrix* m : {&req.a, &req.b})
        if (m->data.size() != m->size())
            return Status::error(ErrorKind::InvalidInput, "a matrix does not hold rows x cols values");
    if (QString e = check_matmul_shapes(req.a, req.b); !e.isEmpty())
        return Status::error(ErrorKind::InvalidInput, e.toStdString());
    return Status::ok();
}

Status check_matmul_output(const MatmulRequest& req) {
    if (QString e = check_matrix_dimensions(req.a.rows, req.b.cols); !e.isEmpty())
        return Status::error(ErrorKind::InvalidInput, "the product C would be too large: " + e.toStdString());
    return Status::ok();
}

MatmulResult run_matmul(const MatmulRequest& req) {
    QElapsedTimer wall;
    wall.start();
    MatmulResult r;
    r.k = req.a.cols;
    if (r.status = check_matmul_operands(req); !r.status) return r;
    const Dim3 grid = matmul_grid(req.launch, req.a.rows, req.b.cols);
    r.launch_text = QStringLiteral("%1 · grid %2x%3").arg(QString::fromStdString(to_string(req.launch))).arg(grid.x).arg(grid.y);
    if (grid.z > 1) r.launch_text += QStringLiteral("x%1").arg(grid.z);  // split-K's slices of K
    // The launch may not fit CUDA's limits, and two inputs within the limits can make an output beyond
    // them (65536x1 @ 1x65536 would be 16 GiB): refuse both before allocating C.
    if (std::string e = validate_matmul_launch(req.launch, req.a.rows, req.a.cols, req.b.cols); !e.empty()) {
        r.status = Status::error(ErrorKind::InvalidInput, e);
        return r;
    }
    if (r.status = check_matmul_output(req); !r.status) return r;
    r.c.rows = req.a.rows;
    r.c.cols = req.b.cols;
    r.c.data.assign(r.c.size(), 0.0f);
    const MatmulProblem p{req.a.data.data(), req.b.data.data(), r.c.data.data(), req.a.rows, req.a.cols, req.b.cols};

    BackendChoice backend = req.backend;
    if (backend == BackendChoice::Auto)
        backend = (cuda_device_available() && req.launch.second_barrier) ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (backend == BackendChoice::Cuda) {
        if (r.status = cuda_backend_status(); !r.status) {
            r.c = {};
            return r;
        }
        GpuTimings t;
        r.status = matmul_cuda(p, req.launch, &t);
        r.times.gpu = true;
        r.times.first_ms = t.kernel_ms;
        r.times.first_call_ms = t.total_ms;
        if (r.status) {
            // The warm time as the benchmarks take it: warm-up launches, then the median of timed ones.
            const TimingSweep warm = time_matmul_launches(p, {req.launch});
            if (warm.status && !warm.shapes.empty() && warm.shapes.front().timed) {
                r.times.warm_ms = warm.shapes.front().median_ms;
                r.times.warm_launches = warm.shapes.front().launches;
            }
        }
        r.backend = cuda_backend_label(0);
    } else {
        r.status = time_emulator_runs(req.emulator_repeats, [&] { return matmul_emulated(p, req.launch); }, &r.times);
        r.backend = QStringLiteral("CPU emulator (%1 threads)").arg(QThread::idealThreadCount());
    }
    r.kernel_ms = r.times.kernel_ms();
    if (!r.status) r.c = {};
    r.total_ms = double(wall.nsecsElapsed()) / 1e6;
    return r;
}

}  // namespace cvz
