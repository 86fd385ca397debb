#pragma once
#include <QList>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace cvz {

// The performance model's constants for one profile (perf_model.h), each calibrated once on measured
// data; `source` says where they came from. Times in microseconds, rates per second.
struct PerfCalibration {
    double launch_us = 3.2;            // a launch's fixed cost as CUDA events time it (empty-grid floor)
    double dram_efficiency = 0.88;     // the streaming bandwidth reached, as a fraction of dram_gb_per_s
    double dram_round_us = 0.613;      // one wave's round trip when its loads come from DRAM (Little's law)
    double l2_round_us = 0.536;        // the same when the data is resident in L2 (back-to-back launches)
    double l2_gb_per_s = 9000;         // L2 -> SM bandwidth of whole lines, GB/s (resident footprints)
    double l2_lines_per_ns = 78;       // L2 transactions (a block's distinct 128-byte lines) per ns, GPU-wide
    double block_us = 0.0795;          // an SM starts (and retires) one block per this long
    double dispatch_us = 0.03;         // within a wave, the busiest SM's last block starts this long after
                                       // the one before it, and its round trip only then
    double warp_round_us = 0.0092;     // each warp of a block lengthens a wave's round trip by this much (DRAM)
    double l2_warp_round_us = 0.00125; // the same when the data is resident in L2
    double instruction_ns = 6.0;       // each instruction of a thread's chain lengthens the round this much
    double l1_sectors_per_clock = 3;   // global sectors an SM's L1 returns per clock
    double l1_tags_per_clock = 3;      // 128-byte lines (tag lookups) an SM's L1 serves per clock
    double l1_tag_clocks_per_request = 0;  // and the clocks each global request holds its tag stage besides
    double l1_wavefronts_per_clock = 1;  // global requests' data-stage wavefronts (bank conflicts) per clock
    double shared_wavefronts_per_clock = 1;  // shared-memory wavefronts per SM per clock
    double issue_per_clock = 4;        // warp instructions issued per SM per clock (4 schedulers)
    int saturating_warps = 16;         // resident warps per SM that hide pipeline latency fully
    double max_bytes_in_flight_per_warp = 1536;  // the most one warp keeps in flight (3 x 16 B x 32 lanes)
    // The streaming bandwidth reached with b blocks resident per SM, as a fraction of that with many
    // (a block holds its SM's slots until its last warp ends): (b, fraction), b ascending; linear in
    // log2(b) between the points, the first below them, 1 above the last.
    std::vector<std::pair<int, double>> bandwidth_by_blocks_per_sm;
    // Between back-to-back launches a footprint up to l2_resident_fraction of the L2 stays resident in
    // it; past l2_evicted_fraction none of it does; in between, the resident share falls linearly
    // (l2_resident_share).
    double l2_resident_fraction = 0.5;
    double l2_evicted_fraction = 1.0;
    // Within a launch, an operand every wave reads again whole (a product's B read from global memory)
    // stays in L2 from one wave to the next when it is at most this fraction of the L2; past it the
    // waves evict it (it falls out whole, not gradually), and each warp's K loop waits on DRAM
    // loop_dram_us_per_k per step.
    double reread_resident_fraction = 0.66;
    double loop_dram_us_per_k = 0.1212;
    // The bytes an SM moves to and from L2 per clock: the last wave's data leaves the busiest SM at this
    // rate after its round trip, with no later wave to overlap it ("drain").
    double sm_port_bytes_per_clock = 64;
    QString source;                    // where the numbers come from
};

// The per-SM limits of a GPU that decide occupancy, from NVIDIA's CUDA C++ Programming Guide
// ("Technical Specifications per Compute Capability") and each product's SM count.
struct DeviceProfile;
// The share of a footprint of `bytes` that stays resident in `profile`'s L2 between back-to-back
// launches: 1 up to l2_resident_fraction of the L2, 0 from l2_evicted_fraction on, linear between.
double l2_resident_share(const DeviceProfile& profile, double bytes);

struct DeviceProfile {
    QString name;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int regs_per_sm = 65536;
    int reg_alloc_unit = 256;          // registers are allocated per warp in units of this many
    int max_regs_per_thread = 255;
    int shared_per_sm = 0;             // bytes usable by blocks (the largest carveout)
    int shared_per_block_max = 0;      // bytes, opt-in maximum
    int shared_alloc_unit = 128;       // bytes
    int shared_reserved_per_block = 0; // bytes the system reserves per block (1 KiB from cc 8.0)
    int warp_size = 32;
    bool measured = false;             // true when filled from the CUDA runtime, not the tables

    // Throughput figures for the performance model (perf_model.h), from each product's datasheet.
    double dram_gb_per_s = 0;          // peak DRAM bandwidth, GB/s (1e9 bytes)
    double l2_bytes = 0;               // L2 cache size
    double sm_clock_mhz = 0;           // boost clock
    int fp32_lanes_per_sm = 128;       // FP32 FMAs per SM per clock
    int tf32_fmas_per_sm = 0;          // dense TF32 tensor-core FMAs per SM per clock (0: none)
    PerfCalibration perf;
    QString spec_source;               // where the figures above come from

    // FP32 peak in GFLOP/s (an FMA counts 2).
    double fp32_gflops() const { return 2.0 * sm_count * fp32_lanes_per_sm * sm_clock_mhz * 1e-3; }
    // Dense TF32 tensor-core peak in TFLOP/s at the boost clock (0 without).
    double tf32_tflops() const { return 2.0 * sm_count * tf32_fmas_per_sm * sm_clock_mhz * 1e-6; }

    int max_warps_per_sm() const { return max_threads_per_sm / warp_size; }
    QString compute_capability() const { return QStringLiteral("%1.%2").arg(cc_major).arg(cc_minor); }
    // Whether this GPU runs a kernel whose code is specific to `arch` (KernelInfo::arch_specific,
    // major * 10 + minor; 0 runs everywhere): sm_90a's code runs on 9.0 alone.
    bool runs_arch_specific(unsigned arch) const { return arch == 0 || unsigned(cc_major * 10 + cc_minor) == arch; }
};

// H100/H200 SXM, A100, RTX 4090, RTX 3090 (the lecture's card), T4.
QList<DeviceProfile> builtin_device_profiles();
std::optional<DeviceProfile> find_device_profile(const QString& name);

// The profile of CUDA device `index` from the runtime's properties, when there is one.
std::optional<DeviceProfile> cuda_device_profile(int index = 0);

}  // namespace cvz
