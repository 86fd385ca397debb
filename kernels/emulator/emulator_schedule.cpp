#include "emulator_schedule.h"

#include <string>

#include "block_scheduler.h"

namespace cvz {

Status record_emulator_schedule(Dim3 grid, const EmuOptions& options,
                                const std::function<Status(const EmuOptions&)>& launch, BlockSchedule* out) {
    std::vector<BlockTiming> raw;
    EmuOptions o = options;
    o.schedule = &raw;
    if (Status s = launch(o); !s) return s;
    const unsigned workers = host_workers(o.host_threads);
    out->backend = "cpu";
    out->device = "CPU emulator (" + std::to_string(workers) + " host thread" + (workers == 1 ? ")" : "s)");
    out->sms = int(workers);
    if (std::string e = make_block_schedule(grid, raw, out); !e.empty())
        return Status::error(ErrorKind::Device, "the emulator's schedule: " + e);
    return Status::ok();
}

}  // namespace cvz
