#include "app/models/occupancy_model.h"

#include <algorithm>
#include <climits>

namespace cvz {

namespace {
int round_up(int v, int unit) { return unit > 0 ? (v + unit - 1) / unit * unit : v; }
}  // namespace

QString to_string(OccupancyLimit limit) {
    switch (limit) {
        case OccupancyLimit::Warps: return QStringLiteral("warps per SM");
        case OccupancyLimit::Blocks: return QStringLiteral("blocks per SM");
        case OccupancyLimit::Registers: return QStringLiteral("registers");
        case OccupancyLimit::SharedMemory: return QStringLiteral("shared memory");
        case OccupancyLimit::Invalid: return QStringLiteral("invalid launch");
    }
    return {};
}

Occupancy compute_occupancy(const DeviceProfile& d, const BlockResources& b) {
    Occupancy o;
    if (b.threads < 1 || b.threads > 1024 || b.threads > d.max_threads_per_sm) {
        o.error = QStringLiteral("a block of %1 threads cannot run on %2").arg(b.threads).arg(d.name);
        return o;
    }
    if (b.regs_per_thread > d.max_regs_per_thread) {
        o.error = QStringLiteral("%1 registers per thread exceeds the limit of %2").arg(b.regs_per_thread).arg(d.max_regs_per_thread);
        return o;
    }
    if (b.shared_bytes > d.shared_per_block_max) {
        o.error = QStringLiteral("%1 bytes of shared memory per block exceeds %2's limit of %3")
                      .arg(b.shared_bytes).arg(d.name).arg(d.shared_per_block_max);
        return o;
    }
    o.warps_per_block = (b.threads + d.warp_size - 1) / d.warp_size;
    o.blocks_by_warps = d.max_warps_per_sm() / o.warps_per_block;
    o.blocks_by_blocks = d.max_blocks_per_sm;
    if (b.regs_per_thread > 0) {
        const int regs_per_warp = round_up(b.regs_per_thread * d.warp_size, d.reg_alloc_unit);
        o.blocks_by_registers = (d.regs_per_sm / regs_per_warp) / o.warps_per_block;
    } else {
        o.blocks_by_registers = INT_MAX;
    }
    const int shared_per_block = round_up(b.shared_bytes + d.shared_reserved_per_block, d.shared_alloc_unit);
    o.blocks_by_shared = shared_per_block > 0 ? d.shared_per_sm / shared_per_block : INT_MAX;

    // The first limit in this order wins ties, as the calculator reports it.
    const std::pair<int, OccupancyLimit> limits[] = {{o.blocks_by_warps, OccupancyLimit::Warps},
                                                     {o.blocks_by_blocks, OccupancyLimit::Blocks},
                                                     {o.blocks_by_registers, OccupancyLimit::Registers},
                                                     {o.blocks_by_shared, OccupancyLimit::SharedMemory}};
    const auto* best = std::min_element(std::begin(limits), std::end(limits),
                                        [](const auto& x, const auto& y) { return x.first < y.first; });
    o.blocks_per_sm = best->first;
    o.limit = best->second;
    if (o.blocks_per_sm == 0) {
        o.error = QStringLiteral("not one block fits on an SM (limited by %1)").arg(to_string(o.limit));
        return o;
    }
    o.active_warps = o.blocks_per_sm * o.warps_per_block;
    o.occupancy = double(o.active_warps) / d.max_warps_per_sm();
    return o;
}

}  // namespace cvz
