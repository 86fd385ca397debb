#include "grayscale_schedule.h"

#include "../emulator/block_scheduler.h"
#include "grayscale_emulated.h"
#include "grayscale_launch.h"

namespace cvz {

Status grayscale_emulated_schedule(const GrayscaleImage& image, const LaunchShape& shape, BlockSchedule* out,
                                   const EmuOptions& options) {
    std::vector<BlockTiming> raw;
    EmuOptions o = options;
    o.schedule = &raw;
    if (Status s = grayscale_emulated(image, shape, o); !s) return s;
    const unsigned workers = host_workers(o.host_threads);
    out->backend = "cpu";
    out->device = "CPU emulator (" + std::to_string(workers) + " host thread" + (workers == 1 ? ")" : "s)");
    out->sms = int(workers);
    if (std::string e = make_block_schedule(grayscale_grid(shape, image.width, image.height), raw, out); !e.empty())
        return Status::error(ErrorKind::Device, "the emulator's schedule: " + e);
    return Status::ok();
}

}  // namespace cvz
