// Compiled instead of convolution_timing.cu when the CUDA toolkit was not found at build time.
#include "convolution_timing.h"

namespace cvz {

TimingSweep time_convolution_launches(const ConvolutionProblem&, const std::vector<ConvolutionLaunch>& launches,
                                      const TimingOptions&) {
    TimingSweep sweep;
    sweep.shapes.resize(launches.size());
    sweep.status = Status::error(ErrorKind::Unavailable, "cudaviz was built without the CUDA toolkit; the sweep cannot time kernels");
    return sweep;
}

}  // namespace cvz
