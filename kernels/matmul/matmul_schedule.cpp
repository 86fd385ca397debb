#include "matmul_schedule.h"

#include "../emulator/emulator_schedule.h"
#include "matmul_emulated.h"

namespace cvz {

Status matmul_emulated_schedule(const MatmulProblem& p, const MatmulLaunch& l, BlockSchedule* out,
                                const EmuOptions& options) {
    return record_emulator_schedule(matmul_grid(l, p.m, p.n), options,
                                    [&](const EmuOptions& o) { return matmul_emulated(p, l, o); }, out);
}

}  // namespace cvz
