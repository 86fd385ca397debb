#include "convolution_schedule.h"

#include "../emulator/emulator_schedule.h"
#include "convolution_emulated.h"

namespace cvz {

Status convolution_emulated_schedule(const ConvolutionProblem& p, const ConvolutionLaunch& l, BlockSchedule* out,
                                     const EmuOptions& options) {
    return record_emulator_schedule(convolution_grid(l, p.width, p.height), options,
                                    [&](const EmuOptions& o) { return convolution_emulated(p, l, o); }, out);
}

}  // namespace cvz
