#include "matmul_schedule.h"

#include "../emulator/block_scheduler.h"
#include "matmul_emulated.h"

namespace cvz {

Status matmul_emulated_schedule(const MatmulProblem& p, const MatmulLaunch& l, BlockSchedule* out,
                                const EmuOptions& options) {
    std::vector<BlockTiming> raw;
    EmuOptions o = options;
    o.schedule = &raw;
    if (Status s = matmul_emulated(p, l, o); !s) return s;
    const unsigned workers = host_workers(o.host_threads);
    out->backend = "cpu";
    out->device = "CPU emulator (" + std::to_string(workers) + " host thread" + (workers == 1 ? ")" : "s)");
    out->sms = int(workers);
    if (std::string e = make_block_schedule(matmul_grid(l, p.m, p.n), raw, out); !e.empty())
        return Status::error(ErrorKind::Device, "the emulator's schedule: " + e);
    return Status::ok();
}

}  // namespace cvz
