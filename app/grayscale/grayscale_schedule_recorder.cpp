#include "app/grayscale/grayscale_schedule_recorder.h"

#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_schedule.h"

namespace cvz {

ScheduleRun record_grayscale_schedule(const GrayscaleRequest& req) {
    ScheduleRun r;
    const std::uint32_t w = req.input.width, h = req.input.height;
    if (req.input.bytes.size() != 3 * std::size_t(w) * h) {
        r.status = Status::error(ErrorKind::InvalidInput, "the RGB buffer does not hold width x height pixels");
        return r;
    }
    const BackendChoice backend = schedule_backend(req.backend, true, &r.status);
    if (!r.status) return r;
    const std::uint64_t n = std::uint64_t(w) * h;
    std::vector<std::uint8_t> planar;
    const std::uint8_t* input = req.input.bytes.data();
    if (req.layout == PixelLayout::Planar) {
        planar = interleaved_to_planar(input, n);
        input = planar.data();
    }
    r.output.assign(n, 0);
    const GrayscaleImage image{input, r.output.data(), w, h, req.layout};
    r.status = backend == BackendChoice::Cuda ? grayscale_cuda_schedule(image, req.shape, &r.schedule)
                                              : grayscale_emulated_schedule(image, req.shape, &r.schedule);
    if (!r.status) r.output.clear();
    return r;
}

}  // namespace cvz
