#include "app/trace/schedule_recorder.h"

#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_schedule.h"
#include "kernels/matmul/matmul_schedule.h"

namespace cvz {

namespace {

BackendChoice resolve(BackendChoice b) {
    return b == BackendChoice::Auto ? (cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu) : b;
}

}  // namespace

ScheduleRun record_grayscale_schedule(const GrayscaleRequest& req) {
    ScheduleRun r;
    const std::uint32_t w = req.input.width, h = req.input.height;
    if (req.input.bytes.size() != 3 * std::size_t(w) * h) {
        r.status = Status::error(ErrorKind::InvalidInput, "the RGB buffer does not hold width x height pixels");
        return r;
    }
    const BackendChoice backend = resolve(req.backend);
    if (backend == BackendChoice::Cuda) {
        if (Status s = cuda_backend_status(); !s) {
            r.status = s;
            return r;
        }
    }
    const std::uint64_t n = std::uint64_t(w) * h;
    std::vector<std::uint8_t> planar;
    const std::uint8_t* input = req.input.bytes.data();
    if (req.layout == PixelLayout::Planar) {
        planar = interleaved_to_planar(input, n);
        input = planar.data();
    }
    r.gray.assign(n, 0);
    const GrayscaleImage image{input, r.gray.data(), w, h, req.layout};
    r.status = backend == BackendChoice::Cuda ? grayscale_cuda_schedule(image, req.shape, &r.schedule)
                                              : grayscale_emulated_schedule(image, req.shape, &r.schedule);
    if (!r.status) r.gray.clear();
    return r;
}

ScheduleRun record_matmul_schedule(const MatmulRequest& req) {
    ScheduleRun r;
    if (r.status = check_matmul_operands(req); !r.status) return r;
    if (r.status = check_matmul_output(req); !r.status) return r;
    BackendChoice backend = req.backend;
    if (backend == BackendChoice::Auto)
        backend = (cuda_device_available() && req.launch.second_barrier) ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (backend == BackendChoice::Cuda) {
        if (Status s = cuda_backend_status(); !s) {
            r.status = s;
            return r;
        }
    }
    r.c.rows = req.a.rows;
    r.c.cols = req.b.cols;
    r.c.data.assign(r.c.size(), 0.0f);
    const MatmulProblem p{req.a.data.data(), req.b.data.data(), r.c.data.data(), req.a.rows, req.a.cols, req.b.cols};
    r.status = backend == BackendChoice::Cuda ? matmul_cuda_schedule(p, req.launch, &r.schedule)
                                              : matmul_emulated_schedule(p, req.launch, &r.schedule);
    if (!r.status) r.c = Matrix{};
    return r;
}

}  // namespace cvz
