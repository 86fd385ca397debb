// Compiled instead of grayscale_timing.cu when the CUDA toolkit was not found at build time.
#include "grayscale_timing.h"

namespace cvz {

TimingSweep time_grayscale_shapes(const GrayscaleImage&, const std::vector<LaunchShape>& shapes, const TimingOptions&) {
    TimingSweep sweep;
    sweep.shapes.resize(shapes.size());
    sweep.status = Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; the sweep cannot time kernels");
    return sweep;
}

}  // namespace cvz
