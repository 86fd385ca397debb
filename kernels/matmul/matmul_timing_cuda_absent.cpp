// Compiled instead of matmul_timing.cu when the CUDA toolkit was not found at build time.
#include "matmul_timing.h"

namespace cvz {

TimingSweep time_matmul_launches(const MatmulProblem&, const std::vector<MatmulLaunch>& launches, const TimingOptions&) {
    TimingSweep sweep;
    sweep.shapes.resize(launches.size());
    sweep.status = Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; the sweep cannot time kernels");
    return sweep;
}

}  // namespace cvz
