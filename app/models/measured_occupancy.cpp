#include "app/models/measured_occupancy.h"

#include "app/models/kernel_resources.h"
#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz {

std::optional<Occupancy> measured_occupancy(KernelId kernel, const BlockResources& block, const DeviceProfile& profile,
                                            OccupancyCheck* check) {
    OccupancyCheck local;
    OccupancyCheck& c = check ? *check : local;
    c = OccupancyCheck{};
    c.given_regs_per_thread = block.regs_per_thread;
    if (block.threads < 1 || block.shared_bytes < 0) {
        c.status = Status::error(ErrorKind::InvalidInput, "a block of " + std::to_string(block.threads) + " threads and " +
                                                              std::to_string(block.shared_bytes) + " bytes of shared memory");
        return std::nullopt;
    }
    c.status = cuda_kernel_occupancy(kernel, unsigned(block.threads), std::size_t(block.shared_bytes), &c.api_blocks_per_sm,
                                     &c.api_regs_per_thread);
    if (!c.status) return std::nullopt;

    BlockResources with_api_regs = block;
    with_api_regs.regs_per_thread = c.api_regs_per_thread;
    Occupancy o = compute_occupancy(profile, with_api_regs);
    c.model_blocks_per_sm = o.blocks_per_sm;
    c.agrees = c.api_blocks_per_sm == c.model_blocks_per_sm;
    if (!c.agrees)
        c.note = QStringLiteral("the CUDA runtime fits %1 blocks of %2 per SM, the %3 model %4 (limited by %5)")
                     .arg(c.api_blocks_per_sm)
                     .arg(QString::fromStdString(to_string(kernel)))
                     .arg(profile.name)
                     .arg(c.model_blocks_per_sm)
                     .arg(to_string(o.limit));
    if (c.api_regs_per_thread != c.given_regs_per_thread) {
        const QString regs = QStringLiteral("the device reports %1 registers per thread, the table %2")
                                 .arg(c.api_regs_per_thread)
                                 .arg(c.given_regs_per_thread);
        c.note = c.note.isEmpty() ? regs : c.note + QStringLiteral("; ") + regs;
    }

    o.blocks_per_sm = c.api_blocks_per_sm;
    if (o.warps_per_block == 0) {
        const int warp = profile.warp_size > 0 ? profile.warp_size : 32;
        o.warps_per_block = (block.threads + warp - 1) / warp;
    }
    o.active_warps = o.blocks_per_sm * o.warps_per_block;
    o.occupancy = profile.max_warps_per_sm() > 0 ? double(o.active_warps) / profile.max_warps_per_sm() : 0.0;
    if (o.blocks_per_sm == 0) {
        if (o.error.isEmpty())
            o.error = QStringLiteral("the CUDA runtime fits not one block on an SM (the model: limited by %1)")
                          .arg(to_string(o.limit));
    } else {
        o.error.clear();
    }
    return o;
}

}  // namespace cvz
