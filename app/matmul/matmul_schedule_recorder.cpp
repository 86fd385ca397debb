#include "app/matmul/matmul_schedule_recorder.h"

#include <cstring>

#include "kernels/matmul/matmul_schedule.h"

namespace cvz {

ScheduleRun record_matmul_schedule(const MatmulRequest& req) {
    ScheduleRun r;
    if (r.status = check_matmul_operands(req); !r.status) return r;
    if (r.status = check_matmul_output(req); !r.status) return r;
    // Without its second barrier the tiled kernel's race is the emulator's to show.
    const BackendChoice backend = schedule_backend(req.backend, req.launch.second_barrier, &r.status);
    if (!r.status) return r;
    std::vector<float> c(std::size_t(req.a.rows) * req.b.cols, 0.0f);
    const MatmulProblem p{req.a.data.data(), req.b.data.data(), c.data(), req.a.rows, req.a.cols, req.b.cols};
    r.status = backend == BackendChoice::Cuda ? matmul_cuda_schedule(p, req.launch, &r.schedule)
                                              : matmul_emulated_schedule(p, req.launch, &r.schedule);
    if (r.status) {
        r.output.resize(c.size() * sizeof(float));
        std::memcpy(r.output.data(), c.data(), r.output.size());
    }
    return r;
}

}  // namespace cvz
