#include "app/convolution/convolution_schedule_run.h"

#include "kernels/convolution/convolution_schedule.h"

namespace cvz {

ConvolutionScheduleRun record_convolution_schedule(const ConvolutionRequest& req) {
    ConvolutionScheduleRun r;
    if (req.gray.size() != std::size_t(req.width) * req.height) {
        r.status = Status::error(ErrorKind::InvalidInput, "the grayscale buffer does not hold width x height pixels");
        return r;
    }
    if (std::string e = validate_mask(req.mask); !e.empty()) {
        r.status = Status::error(ErrorKind::InvalidInput, e);
        return r;
    }
    BackendChoice backend = req.backend;
    if (backend == BackendChoice::Auto) backend = cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (backend == BackendChoice::Cuda)
        if (r.status = cuda_backend_status(); !r.status) return r;
    r.out.assign(req.gray.size(), 0.0f);
    ConvolutionProblem p;
    p.gray = req.gray.data();
    p.mask = req.mask.values.data();
    p.out = r.out.data();
    p.width = req.width;
    p.height = req.height;
    p.mask_side = req.mask.side;
    r.status = backend == BackendChoice::Cuda ? convolution_cuda_schedule(p, req.launch, &r.schedule)
                                              : convolution_emulated_schedule(p, req.launch, &r.schedule);
    if (!r.status) r.out.clear();
    return r;
}

}  // namespace cvz
