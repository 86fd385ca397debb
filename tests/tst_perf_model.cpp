// The performance model (app/perf_model.h): its named terms, its sanity (more bytes, more waves, a
// slower profile or fewer resident warps never make a launch faster), the tail, the occupancy-limited
// cases, and a finite prediction for every catalogue variant on odd sizes. No wall-clock figures.
#include <QtTest>

#include <cmath>

#include "app/convolution/convolution_compiled_issue.h"
#include "app/convolution/convolution_prediction.h"
#include "app/grayscale/grayscale_prediction.h"
#include "kernels/core/dim3_text.h"
#include "kernels/grayscale/grayscale_launch_shape.h"
#include "app/matmul/matmul_prediction.h"
#include "app/tuning/block_sweep.h"
#include "app/models/compiled_issue.h"
#include "app/models/device_profile.h"
#include "app/models/launch_sample.h"
#include "app/models/perf_model.h"
#include "kernels/catalogue/kernel_catalogue.h"

using namespace cvz;

namespace {

DeviceProfile h200() { return *find_device_profile(QStringLiteral("H200")); }

double term_us(const GpuPrediction& p, const char* name) {
    const PredictionTerm* t = p.term(QString::fromLatin1(name));
    return t ? t->us : -1;
}

}  // namespace

class TestPerfModel : public QObject {
    Q_OBJECT
private slots:
    void every_builtin_profile_has_throughput_figures();
    void terms_are_named_and_add_up();
    void summary_names_waves_launch_and_bound();
    void more_bytes_take_longer();
    void slower_dram_slows_a_memory_bound_launch_only_in_its_memory_term();
    void one_block_more_than_a_wave_adds_a_tail_wave();
    void block_slot_limited_launch_is_bound_by_block_starts();
    void last_block_round_trip_starts_after_the_dispatches();
    void a_thread_chains_one_pixel_and_issues_the_others();
    void l2_residency_falls_gradually();
    void register_limited_matmul_names_its_limit();
    void compiled_matmul_issues_at_its_measured_rate();
    void naive_b_falls_out_of_l2_between_waves();
    void uncoalesced_blocks_move_more_l2_lines();
    void rows_of_whole_lines_conflict_in_the_l1_banks();
    void matmul_k_extrapolation_matches_a_full_trace();
    void tensor_core_rungs_multiply_on_the_tensor_cores();
    void last_wave_drains_the_busiest_sm_through_its_port();
    void convolution_warp_work_counts_the_staging_turns_and_both_branches();
    void convolution_instructions_grow_with_the_mask();
    void staged_blocks_wait_at_their_barrier_in_full_waves();
    void every_catalogue_variant_gets_a_finite_prediction_on_odd_sizes();
    void invalid_launch_is_an_error_not_a_number();
    void profile_without_figures_is_an_error();
};

void TestPerfModel::every_builtin_profile_has_throughput_figures() {
    for (const DeviceProfile& p : builtin_device_profiles()) {
        QVERIFY2(p.dram_gb_per_s > 0 && p.l2_bytes > 0 && p.sm_clock_mhz > 0 && p.fp32_lanes_per_sm > 0, qPrintable(p.name));
        QVERIFY2(!p.spec_source.isEmpty() && !p.perf.source.isEmpty(), qPrintable(p.name));
    }
    // The datasheet's FP32 peak: 132 SMs x 128 lanes x 2 x 1.98 GHz = 66.9 TFLOP/s for the H200.
    QCOMPARE(std::lround(h200().fp32_gflops()), 66908L);
}

void TestPerfModel::terms_are_named_and_add_up() {
    const GpuPrediction p = predict_grayscale(h200(), LaunchShape::one_d(256), 1920, 1080);
    QVERIFY2(p.ok(), qPrintable(p.error));
    for (const char* name : {"launch", "memory", "L2", "latency", "blocks", "L1", "shared", "issue", "FP32", "re-reads"})
        QVERIFY2(term_us(p, name) >= 0, name);
    QCOMPARE(term_us(p, "launch"), h200().perf.launch_us);
    // The total is the launch plus, per wave, the slowest term: at least every summed term, at most their sum.
    double sum = 0;
    for (const PredictionTerm& t : p.terms) {
        QVERIFY2(t.us <= p.total_us + 1e-9, qPrintable(t.name));
        sum += t.us;
    }
    QVERIFY(p.total_us <= sum + 1e-9);
    QVERIFY(p.term(p.bound) != nullptr);
    QVERIFY(!p.sampling.isEmpty());
    QCOMPARE(p.blocks, std::uint64_t((1920 * 1080 + 255) / 256));
}

void TestPerfModel::summary_names_waves_launch_and_bound() {
    const GpuPrediction p = predict_grayscale(h200(), LaunchShape::one_d(256), 7680, 4320);
    const QString s = p.summary();
    QVERIFY2(s.contains(QStringLiteral("waves %1 (tail").arg(p.waves)), qPrintable(s));
    QVERIFY2(s.contains(QStringLiteral("launch ")), qPrintable(s));
    QVERIFY2(s.contains(QStringLiteral("; bound by ") + p.bound), qPrintable(s));
    QVERIFY2(s.contains(QStringLiteral(" -> ")), qPrintable(s));
}

void TestPerfModel::more_bytes_take_longer() {
    const DeviceProfile d = h200();
    for (const LaunchShape& shape : {LaunchShape::one_d(256), LaunchShape::two_d(16, 16),
                                     LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{128, 1, 1})}) {
        // Never faster with more pixels (a single wave of vec16 costs the same at 640x480 and 1920x1080,
        // but for the idle threads of a rounded-up grid, which shorten the mean instruction chain by 0.03%),
        // and many times slower at 8K than at 640x480.
        double last = 0, first = 0;
        for (auto [w, h] : {std::pair{640u, 480u}, {1920u, 1080u}, {3840u, 2160u}, {7680u, 4320u}}) {
            const GpuPrediction p = predict_grayscale(d, shape, w, h);
            QVERIFY2(p.ok(), qPrintable(p.error));
            QVERIFY2(p.total_us >= last * (1 - 1e-3), qPrintable(QStringLiteral("%1x%2: %3").arg(w).arg(h).arg(p.summary())));
            if (first == 0) first = p.total_us;
            last = p.total_us;
        }
        QVERIFY(last > 5 * first);
    }
    double last = 0;
    for (std::uint32_t k : {64u, 256u, 1024u, 4096u}) {
        const GpuPrediction p = predict_matmul(d, MatmulLaunch::tiled(16), 512, k, 512);
        QVERIFY2(p.ok(), qPrintable(p.error));
        QVERIFY(p.total_us > last);
        last = p.total_us;
    }
}

void TestPerfModel::slower_dram_slows_a_memory_bound_launch_only_in_its_memory_term() {
    const LaunchShape vec16 = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{128, 1, 1});
    DeviceProfile slow = h200();
    slow.dram_gb_per_s /= 2;
    const GpuPrediction fast_p = predict_grayscale(h200(), vec16, 7680, 4320);
    const GpuPrediction slow_p = predict_grayscale(slow, vec16, 7680, 4320);
    QCOMPARE(fast_p.bound, QStringLiteral("memory"));
    QVERIFY(qAbs(term_us(slow_p, "memory") - 2 * term_us(fast_p, "memory")) < 1e-6 * term_us(fast_p, "memory"));
    QCOMPARE(term_us(slow_p, "latency"), term_us(fast_p, "latency"));
    QVERIFY(slow_p.total_us > 1.8 * (fast_p.total_us - fast_p.terms[0].us));
}

void TestPerfModel::one_block_more_than_a_wave_adds_a_tail_wave() {
    // gray_1d with 256 threads: 8 blocks per SM on the H200, 132 x 8 = 1056 blocks a wave.
    const DeviceProfile d = h200();
    const std::uint32_t wave_pixels = 1056 * 256;
    const GpuPrediction full = predict_grayscale(d, LaunchShape::one_d(256), wave_pixels, 1);
    const GpuPrediction tail = predict_grayscale(d, LaunchShape::one_d(256), wave_pixels + 1, 1);
    QCOMPARE(full.waves, std::uint64_t(1));
    QCOMPARE(full.tail_fill, 1.0);
    QCOMPARE(tail.waves, std::uint64_t(2));
    QVERIFY(tail.tail_fill < 0.01);
    // The nearly empty wave still waits a whole round trip (its one block starts at once: the full
    // wave's last block starts 7 dispatches in).
    const double dispatches = 7 * d.perf.dispatch_us;
    QVERIFY(term_us(tail, "latency") - dispatches >= 1.9 * (term_us(full, "latency") - dispatches));
    QVERIFY(tail.total_us > full.total_us);
}

void TestPerfModel::block_slot_limited_launch_is_bound_by_block_starts() {
    // 32-thread blocks: the 32 block slots per SM hold 32 warps (half the SM): occupancy 0.5, limit blocks.
    const DeviceProfile d = h200();
    const GpuPrediction small = predict_grayscale(d, LaunchShape::one_d(32), 7680, 4320);
    const GpuPrediction big = predict_grayscale(d, LaunchShape::one_d(256), 7680, 4320);
    QCOMPARE(small.occupancy.limit, OccupancyLimit::Blocks);
    QCOMPARE(small.occupancy.occupancy, 0.5);
    QCOMPARE(small.bound, QStringLiteral("blocks"));
    // Eight times the blocks: eight times the block starts.
    QVERIFY(qAbs(term_us(small, "blocks") / term_us(big, "blocks") - 8.0) < 0.01);
    QVERIFY(small.total_us > 3 * big.total_us);
}

void TestPerfModel::last_block_round_trip_starts_after_the_dispatches() {
    // gray_vec16 with 64 threads at 1537x1023: 1536 blocks in one wave, 12 on the busiest SM. Its last
    // block starts 11 dispatches after the first, and only then begins its round trip.
    const DeviceProfile d = h200();
    const LaunchShape shape = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{64, 1, 1});
    const GpuPrediction p = predict_grayscale(d, shape, 1537, 1023);
    QVERIFY2(p.ok(), qPrintable(p.error));
    QCOMPARE(p.blocks, std::uint64_t(1536));  // 1537 x 1023 / 16 pixels a thread / 64, rounded up
    QCOMPARE(p.waves, std::uint64_t(1));
    DeviceProfile at_once = d;
    at_once.perf.dispatch_us = 0;
    const GpuPrediction q = predict_grayscale(at_once, shape, 1537, 1023);
    // Latency-bound: one round trip, then the drain of the busiest SM's 12 blocks.
    QCOMPARE(q.total_us, d.perf.launch_us + term_us(q, "latency") + term_us(q, "drain"));
    QVERIFY(qAbs(p.total_us - (q.total_us + 11 * d.perf.dispatch_us)) < 1e-9);
    // The latency term shows the delay too, so the terms explain the total.
    QVERIFY(qAbs(term_us(p, "latency") - (term_us(q, "latency") + 11 * d.perf.dispatch_us)) < 1e-9);
    QVERIFY2(p.term(QStringLiteral("latency"))->detail.contains(QStringLiteral("begun 0.3 us into the wave")),
             qPrintable(p.term(QStringLiteral("latency"))->detail));
    // One block per SM (832 threads: 119 blocks): nothing waits for a dispatch.
    const LaunchShape big = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{832, 1, 1});
    QCOMPARE(predict_grayscale(d, big, 1537, 1023).total_us, predict_grayscale(at_once, big, 1537, 1023).total_us);
}

void TestPerfModel::a_thread_chains_one_pixel_and_issues_the_others() {
    // gray_vec16 with 1024 threads over 1024x256: 16 blocks of 16384 pixels, one an SM, one wave, 1 MB
    // (resident in L2). A thread runs 12 index instructions and 7 a pixel for 16 pixels, 124 in all: one
    // pixel's 19 wait on each other (6 ns each), the other 15 pixels' 105 issue a clock each.
    const DeviceProfile d = h200();
    const LaunchShape shape = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{1024, 1, 1});
    const GpuPrediction p = predict_grayscale(d, shape, 1024, 256);
    QVERIFY2(p.ok(), qPrintable(p.error));
    QCOMPARE(p.blocks, std::uint64_t(16));
    QCOMPARE(p.waves, std::uint64_t(1));
    // A warp's 32 x 16 pixels are 1536 bytes to load, what it keeps in flight: one round trip.
    const double chain_us = 19 * d.perf.instruction_ns * 1e-3 + 105 / (d.sm_clock_mhz * 1e6) * 1e6;
    const double round_us = d.perf.l2_round_us + 32 * d.perf.l2_warp_round_us + chain_us;
    QVERIFY2(qAbs(term_us(p, "latency") - round_us) < 1e-9,
             qPrintable(QStringLiteral("%1 against %2").arg(term_us(p, "latency")).arg(round_us)));
    const QString detail = p.term(QStringLiteral("latency"))->detail;
    QVERIFY2(detail.contains(QStringLiteral("19 dependent instructions")) && detail.contains(QStringLiteral("105 independent")),
             qPrintable(detail));
    // One pixel a thread (gray_1d): the same 19 in the chain, nothing beside it.
    const GpuPrediction one = predict_grayscale(d, LaunchShape::one_d(1024), 1024, 256);
    QVERIFY2(one.term(QStringLiteral("latency"))->detail.contains(QStringLiteral("19 dependent instructions")),
             qPrintable(one.term(QStringLiteral("latency"))->detail));
    QVERIFY2(one.term(QStringLiteral("latency"))->detail.contains(QStringLiteral("+ 0 independent")),
             qPrintable(one.term(QStringLiteral("latency"))->detail));
    // 1023x17 = 17391 pixels, 15 past the last whole chunk of 16: gray_vec16 does those one by one in one
    // thread, 12 + 7 x 15 = 117 dependent instructions, longer than a typical thread's, and the round
    // waits for it (2 blocks, one an SM, one round trip from L2). It is thread 1086 (chunk 17391 / 16),
    // warp 1 of block 1: its loads arrive after one warp's bytes (the launch's bytes a warp, 64 warps)
    // have gone through its SM's port.
    const GpuPrediction tail = predict_grayscale(d, shape, 1023, 17);
    QVERIFY2(tail.ok(), qPrintable(tail.error));
    QCOMPARE(tail.blocks, std::uint64_t(2));
    const double warp_bytes = grayscale_launch_figures(shape, 1023, 17, PixelLayout::Interleaved).compulsory_bytes() / 64;
    const double wait_us = warp_bytes / (d.perf.sm_port_bytes_per_clock * d.sm_clock_mhz * 1e6) * 1e6;
    const double tail_round_us = d.perf.l2_round_us + 32 * d.perf.l2_warp_round_us + wait_us + 117 * d.perf.instruction_ns * 1e-3;
    QVERIFY2(qAbs(term_us(tail, "latency") - tail_round_us) < 1e-9,
             qPrintable(QStringLiteral("%1 against %2").arg(term_us(tail, "latency")).arg(tail_round_us)));
    QVERIFY2(tail.term(QStringLiteral("latency"))->detail.contains(QStringLiteral("the last 15 pixels one by one in thread 1086")),
             qPrintable(tail.term(QStringLiteral("latency"))->detail));
    QVERIFY2(tail.term(QStringLiteral("latency"))->detail.contains(QStringLiteral("behind 1 warps' bytes")),
             qPrintable(tail.term(QStringLiteral("latency"))->detail));
}

void TestPerfModel::l2_residency_falls_gradually() {
    const DeviceProfile d = h200();  // 50 MiB of L2: resident up to 25 MiB, none of it from 50 MiB on
    const double mib = 1024.0 * 1024.0;
    QCOMPARE(l2_resident_share(d, 10 * mib), 1.0);
    QCOMPARE(l2_resident_share(d, 25 * mib), 1.0);
    QCOMPARE(l2_resident_share(d, 37.5 * mib), 0.5);
    QCOMPARE(l2_resident_share(d, 50 * mib), 0.0);
    QCOMPARE(l2_resident_share(d, 500 * mib), 0.0);
    // gray_vec16 (memory-bound) reads 3 and writes 1 byte a pixel: W x 1024 pixels are 4 W KiB.
    const LaunchShape vec16 = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{256, 1, 1});
    const GpuPrediction at = predict_grayscale(d, vec16, 6400, 1024);  // 25 MiB: all resident
    const GpuPrediction past = predict_grayscale(d, vec16, 6464, 1024);  // 1% more: 99% resident
    QVERIFY2(at.ok() && past.ok(), qPrintable(at.error + past.error));
    QVERIFY2(at.terms[1].detail.contains(QStringLiteral("from L2 (resident between launches)")), qPrintable(at.terms[1].detail));
    QVERIFY2(past.terms[1].detail.contains(QStringLiteral("99% from L2")), qPrintable(past.terms[1].detail));
    // No step at the threshold: 1% more bytes cost at most a few percent more.
    QVERIFY2(past.total_us >= at.total_us && past.total_us < 1.03 * at.total_us,
             qPrintable(at.summary() + " / " + past.summary()));
    // Halfway (37.5 MiB): the memory term is the mean of the two pricings, each scaled to the bytes.
    const GpuPrediction half = predict_grayscale(d, vec16, 9600, 1024);
    QVERIFY2(half.terms[1].detail.contains(QStringLiteral("50% from L2")), qPrintable(half.terms[1].detail));
    DeviceProfile all_l2 = d, all_dram = d;
    all_l2.perf.l2_resident_fraction = all_l2.perf.l2_evicted_fraction = 10;
    all_dram.perf.l2_resident_fraction = all_dram.perf.l2_evicted_fraction = 0;
    const double from_l2 = term_us(predict_grayscale(all_l2, vec16, 9600, 1024), "memory");
    const double from_dram = term_us(predict_grayscale(all_dram, vec16, 9600, 1024), "memory");
    QVERIFY(from_dram > 1.5 * from_l2);
    QVERIFY(qAbs(term_us(half, "memory") - (from_l2 + from_dram) / 2) < 1e-9 * from_dram);
    // Past the whole L2: from DRAM.
    const GpuPrediction big = predict_grayscale(d, vec16, 12800, 1024);
    QVERIFY2(big.terms[1].detail.contains(QStringLiteral("from DRAM")) && !big.terms[1].detail.contains(QStringLiteral("L2")),
             qPrintable(big.terms[1].detail));
}

void TestPerfModel::register_limited_matmul_names_its_limit() {
    const GpuPrediction p =
        predict_matmul(h200(), MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128, 1, 1}, 0), 1024, 1024, 1024);
    QVERIFY2(p.ok(), qPrintable(p.error));
    QCOMPARE(p.occupancy.limit, OccupancyLimit::Registers);
    // 195 registers a thread: 2 blocks of 4 warps an SM, and at 1024^3 (64 blocks) one: a warp per
    // scheduler, which issues only when that one warp is ready.
    const CompiledIssue ci = *compiled_issue(MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128, 1, 1}, 0).ref());
    const double instructions = 4 * ci.warp_instructions(1024);
    const double expected_us = instructions / (4 * ci.ready) / (h200().sm_clock_mhz * 1e6) * 1e6;
    QVERIFY2(qAbs(term_us(p, "issue") / expected_us - 1) < 1e-9, qPrintable(p.term(QStringLiteral("issue"))->detail));
    QCOMPARE(p.bound, QStringLiteral("issue"));
    // Four times the blocks (256): two on most SMs, two warps a scheduler, which issue more a clock
    // than one but less than twice as much.
    const GpuPrediction two = predict_matmul(h200(), MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128, 1, 1}, 0), 4096, 1024, 1024);
    QVERIFY(term_us(two, "issue") < 2 * term_us(p, "issue") && term_us(two, "issue") > term_us(p, "issue"));
}

void TestPerfModel::compiled_matmul_issues_at_its_measured_rate() {
    const DeviceProfile d = h200();
    const MatmulLaunch launch = MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{16, 16, 1}, 0);
    const CompiledIssue ci = *compiled_issue(launch.ref());
    const double clock_hz = d.sm_clock_mhz * 1e6;
    // 1024^3: 64 blocks of 128x128 outputs, one an SM, 8 warps: 2 a scheduler.
    const GpuPrediction one = predict_matmul(d, launch, 1024, 1024, 1024);
    QVERIFY2(one.ok(), qPrintable(one.error));
    QCOMPARE(one.blocks, std::uint64_t(64));
    const double one_us = 8 * ci.warp_instructions(1024) / (4 * ci.rate(2)) / clock_hz * 1e6;
    QVERIFY2(qAbs(term_us(one, "issue") / one_us - 1) < 1e-9, qPrintable(one.summary()));
    QCOMPARE(one.bound, QStringLiteral("issue"));
    const QString detail = one.term(QStringLiteral("issue"))->detail;
    QVERIFY2(detail.contains(QStringLiteral("(94 a warp per K step)")) && detail.contains(QStringLiteral(", 2 a scheduler issue 0.40 a clock")),
             qPrintable(detail));
    // 2048^3: 256 blocks, two on most SMs (4 warps a scheduler), all in one wave.
    const GpuPrediction two = predict_matmul(d, launch, 2048, 2048, 2048);
    QCOMPARE(two.waves, std::uint64_t(1));
    const double two_us = 2 * 8 * ci.warp_instructions(2048) / (4 * ci.rate(4)) / clock_hz * 1e6;
    QVERIFY2(qAbs(term_us(two, "issue") / two_us - 1) < 1e-9, qPrintable(two.summary()));
    // The shared term counts the compiled kernel's wavefronts (nvcc's 128-bit loads), not the trace's:
    // the busiest SM's one block.
    const double wavefronts = 8 * ci.shared_wavefronts_per_k * 1024;
    QVERIFY(qAbs(term_us(one, "shared") / (wavefronts / clock_hz * 1e6) - 1) < 1e-9);
    const QString shared = one.term(QStringLiteral("shared"))->detail;
    QVERIFY2(shared.startsWith(QString::number(64 * wavefronts, 'g', 3) + QStringLiteral(" wavefronts (the compiled kernel's")),
             qPrintable(shared));
}

void TestPerfModel::naive_b_falls_out_of_l2_between_waves() {
    const DeviceProfile d = h200();
    // B of 2816^2 floats is 30.2 MiB, 0.60 of the 50 MiB L2: it stays; 3072^2 (36 MiB, 0.72) does not.
    const GpuPrediction stays = predict_matmul(d, MatmulLaunch::naive(32, 8), 2816, 2816, 2816);
    const GpuPrediction falls = predict_matmul(d, MatmulLaunch::naive(32, 8), 3072, 3072, 3072);
    QVERIFY2(stays.ok() && falls.ok(), qPrintable(stays.error + falls.error));
    QCOMPARE(term_us(stays, "re-reads"), 0.0);
    QVERIFY2(stays.term(QStringLiteral("re-reads"))->detail.contains(QStringLiteral("stays in L2")),
             qPrintable(stays.term(QStringLiteral("re-reads"))->detail));
    // 36,864 blocks, 8 an SM: 35 waves, each waiting 3072 steps of its K loop on DRAM.
    QCOMPARE(falls.waves, std::uint64_t(35));
    QVERIFY(qAbs(term_us(falls, "re-reads") - 35 * 3072 * d.perf.loop_dram_us_per_k) < 1e-6);
    QCOMPARE(falls.bound, QStringLiteral("re-reads"));
    QVERIFY2(falls.term(QStringLiteral("re-reads"))->detail.contains(QStringLiteral("does not stay in L2")),
             qPrintable(falls.term(QStringLiteral("re-reads"))->detail));
    QVERIFY(falls.total_us / stays.total_us > 1.3 * std::pow(3072.0 / 2816, 3));
    // A kernel that stages A and B through shared memory waits on no K loop of global loads.
    const GpuPrediction tiled = predict_matmul(d, MatmulLaunch::tiled(16), 3072, 3072, 3072);
    QCOMPARE(term_us(tiled, "re-reads"), 0.0);
    QVERIFY(tiled.term(QStringLiteral("re-reads"))->detail.contains(QStringLiteral("shared memory")));
    // Grayscale has no K loop.
    QCOMPARE(term_us(predict_grayscale(d, LaunchShape::one_d(256), 7680, 4320), "re-reads"), 0.0);
}

void TestPerfModel::uncoalesced_blocks_move_more_l2_lines() {
    // A 1x32 block reads 32 rows of one column: a line per row; 32x1 reads one row's 96 bytes.
    const LaunchFigures column = grayscale_launch_figures(LaunchShape::two_d(1, 32), 1537, 1023, PixelLayout::Interleaved);
    const LaunchFigures row = grayscale_launch_figures(LaunchShape::two_d(32, 1), 1537, 1023, PixelLayout::Interleaved);
    QVERIFY2(column.ok() && row.ok(), qPrintable(column.error + row.error));
    QVERIFY(column.l2_lines > 10 * row.l2_lines);
    // The useful bytes are the same: every pixel read once and written once.
    QVERIFY(qAbs(column.compulsory_bytes() - row.compulsory_bytes()) < 1e-6 * row.compulsory_bytes());
    QCOMPARE(row.compulsory_bytes(), 4.0 * 1537 * 1023);
    const GpuPrediction slow = predict_grayscale(h200(), LaunchShape::two_d(1, 32), 1537, 1023);
    const GpuPrediction fast = predict_grayscale(h200(), LaunchShape::two_d(32, 1), 1537, 1023);
    QVERIFY(term_us(slow, "L2") > 10 * term_us(fast, "L2"));
}

void TestPerfModel::rows_of_whole_lines_conflict_in_the_l1_banks() {
    // Naive 1x32 blocks: a warp reads one element of A from each of 32 rows (32 lines) and one of B
    // (a broadcast). With K = 64 a row of A is 256 bytes, two whole lines: the 32 words sit in one of
    // the L1's 32 banks, 32 wavefronts; with K = 63 (252 bytes) each row's word is one bank further
    // round, one wavefront. 64 x 64 outputs: 128 warps, 2 requests per step of K, and the store of C
    // (32 rows of 256 bytes: 32 lines, 32 wavefronts, in both).
    const LaunchFigures whole = matmul_launch_figures(MatmulLaunch::naive(1, 32), 64, 64, 64);
    const LaunchFigures spread = matmul_launch_figures(MatmulLaunch::naive(1, 32), 64, 63, 64);
    QVERIFY2(whole.ok() && spread.ok(), qPrintable(whole.error + spread.error));
    QCOMPARE(whole.request_lines, 128.0 * (64 * 33 + 32));
    QCOMPARE(spread.request_lines, 128.0 * (63 * 33 + 32));
    QCOMPARE(whole.request_wavefronts, 128.0 * (64 * 33 + 32));
    QCOMPARE(spread.request_wavefronts, 128.0 * (63 * 2 + 32));
    // The requests: per warp two a step of K (A, B) and the store of C.
    QCOMPARE(spread.global_ld_requests + spread.global_st_requests, 128.0 * (63 * 2 + 1));
    // The L1 term: the data stage (a wavefront a clock) binds the first, the tag stage (0.7 clocks a
    // request and 2.5 lines a clock on the H200) the second.
    const DeviceProfile d = h200();
    QCOMPARE(d.perf.l1_tags_per_clock, 2.5);
    QCOMPARE(d.perf.l1_tag_clocks_per_request, 0.7);
    const GpuPrediction a = predict_matmul(d, MatmulLaunch::naive(1, 32), 64, 64, 64);
    const GpuPrediction b = predict_matmul(d, MatmulLaunch::naive(1, 32), 64, 63, 64);
    const double tag_clocks = 128.0 * (63 * 2 + 1) * 0.7 + 128.0 * (63 * 33 + 32) / 2.5;
    const double expected = whole.request_wavefronts / tag_clocks;
    const double ratio = term_us(a, "L1") / term_us(b, "L1");
    QVERIFY2(qAbs(ratio / expected - 1) < 1e-9, qPrintable(QStringLiteral("%1 against %2").arg(ratio).arg(expected)));
    QVERIFY(ratio > 1.9);
    // The same request count with fewer lines costs the tag stage less, but never less than its
    // requests' clocks: a profile whose tag stage takes lines alone puts B at lines / rate.
    DeviceProfile lines_only = d;
    lines_only.perf.l1_tag_clocks_per_request = 0;
    const GpuPrediction c = predict_matmul(lines_only, MatmulLaunch::naive(1, 32), 64, 63, 64);
    const double share = (128.0 * (63 * 33 + 32) / 2.5) / tag_clocks;
    QVERIFY2(qAbs(term_us(c, "L1") / term_us(b, "L1") / share - 1) < 1e-9,
             qPrintable(QStringLiteral("%1 against %2").arg(term_us(c, "L1") / term_us(b, "L1")).arg(share)));
}

void TestPerfModel::matmul_k_extrapolation_matches_a_full_trace() {
    // K = 200 is extrapolated from K' = 40 and 72; the requests grow linearly with the phases, so the
    // extrapolation must agree with what a direct trace would count: the global load requests of the
    // tiled kernel are 2 per phase per warp.
    const std::uint32_t m = 48, n = 80, k = 200;
    const LaunchFigures f = matmul_launch_figures(MatmulLaunch::tiled(8), m, k, n);
    QVERIFY2(f.ok(), qPrintable(f.error));
    QVERIFY(f.sampling.contains(QStringLiteral("extrapolated")));
    const double warps = double(f.blocks) * f.warps_per_block;
    const double phases = std::ceil(k / 8.0);
    QVERIFY2(qAbs(f.global_ld_requests - 2 * phases * warps) < 1e-6 * f.global_ld_requests,
             qPrintable(QString::number(f.global_ld_requests)));
}

void TestPerfModel::tensor_core_rungs_multiply_on_the_tensor_cores() {
    DeviceProfile d = h200();
    QCOMPARE(d.tf32_fmas_per_sm, 1024);
    QCOMPARE(std::lround(d.tf32_tflops()), 535L);  // 132 x 1024 x 2 x 1.98 GHz
    const MatmulLaunch tf32 = MatmulLaunch::of(MatmulVariant::Tf32, Dim3{256, 1, 1}, 0);
    const MatmulLaunch x3 = MatmulLaunch::of(MatmulVariant::Tf32x3, Dim3{256, 1, 1}, 0);
    const GpuPrediction one = predict_matmul(d, tf32, 1000, 1000, 1000);
    const GpuPrediction three = predict_matmul(d, x3, 1000, 1000, 1000);
    QVERIFY2(one.ok() && three.ok(), qPrintable(one.error + three.error));
    // No FMA of theirs runs on the FP32 lanes; 3xTF32 does three MMAs per product.
    QCOMPARE(term_us(one, "FP32"), 0.0);
    QVERIFY(term_us(one, "tensor") > 0);
    QVERIFY(qAbs(term_us(three, "tensor") / term_us(one, "tensor") - 3) < 1e-9);
    QVERIFY2(one.term(QStringLiteral("tensor"))->detail.contains(QStringLiteral("535 TFLOP/s")),
             qPrintable(one.term(QStringLiteral("tensor"))->detail));
    // The busiest SM's one block (of 64: 1000 / 128 rounded up, squared), its share of the 1000^3 FMAs at
    // 1024 a clock.
    QCOMPARE(one.blocks, std::uint64_t(64));
    QVERIFY(qAbs(term_us(one, "tensor") - 1e9 / 64 / 1024 / (d.sm_clock_mhz * 1e6) * 1e6) < 1e-9);
    // Half the tensor rate, twice the term; without TF32 tensor cores the FP32 lanes take them.
    DeviceProfile half = d;
    half.tf32_fmas_per_sm = 512;
    QVERIFY(qAbs(term_us(predict_matmul(half, tf32, 1000, 1000, 1000), "tensor") / term_us(one, "tensor") - 2) < 1e-9);
    DeviceProfile none = d;
    none.tf32_fmas_per_sm = 0;
    const GpuPrediction lanes = predict_matmul(none, tf32, 1000, 1000, 1000);
    QVERIFY(qAbs(term_us(lanes, "tensor") / term_us(one, "tensor") - 1024.0 / d.fp32_lanes_per_sm) < 1e-9);
    QVERIFY(lanes.term(QStringLiteral("tensor"))->detail.contains(QStringLiteral("no TF32 tensor cores")));
    // The FP32 kernels keep their FP32 term and have no tensor term.
    const GpuPrediction fp32 = predict_matmul(d, MatmulLaunch::of(MatmulVariant::DoubleBuffer, Dim3{256, 1, 1}, 0), 1000, 1000, 1000);
    QVERIFY(term_us(fp32, "FP32") > 0);
    QCOMPARE(term_us(fp32, "tensor"), 0.0);
}

void TestPerfModel::last_wave_drains_the_busiest_sm_through_its_port() {
    const DeviceProfile d = h200();
    // gray_vec16, 1024 threads over 640x480: 19 blocks, one an SM. The busiest SM moves one block's
    // share of the 4 bytes a pixel (3 read, 1 written) at 64 bytes a clock after its round trip.
    const LaunchShape big = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{1024, 1, 1});
    const GpuPrediction p = predict_grayscale(d, big, 640, 480);
    QVERIFY2(p.ok(), qPrintable(p.error));
    QCOMPARE(p.blocks, std::uint64_t(19));
    const double bytes = 4.0 * 640 * 480 / 19;
    QVERIFY(qAbs(term_us(p, "drain") - bytes / (64 * d.sm_clock_mhz * 1e6) * 1e6) < 1e-9);
    QVERIFY2(p.term(QStringLiteral("drain"))->detail.contains(QStringLiteral("64 bytes a clock")),
             qPrintable(p.term(QStringLiteral("drain"))->detail));
    // Smaller blocks spread the same bytes over more SMs: each drains less, and the launch is faster.
    const GpuPrediction small = predict_grayscale(d, LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{128, 1, 1}), 640, 480);
    QCOMPARE(small.blocks, std::uint64_t(150));  // two on the busiest SM: 2/150 of the bytes, not 1/19
    QVERIFY(qAbs(term_us(small, "drain") / term_us(p, "drain") - (2.0 / 150) / (1.0 / 19)) < 1e-9);
    QVERIFY(small.total_us < p.total_us);
    // A port twice as wide halves the drain and nothing else.
    DeviceProfile wide = d;
    wide.perf.sm_port_bytes_per_clock = 128;
    const GpuPrediction w = predict_grayscale(wide, big, 640, 480);
    QVERIFY(qAbs(term_us(w, "drain") * 2 - term_us(p, "drain")) < 1e-9);
    QVERIFY(qAbs((p.total_us - w.total_us) - term_us(w, "drain")) < 1e-9);
    // The drain is the floor's last part: launch, the round trip and the drain, nothing under them.
    QVERIFY(p.total_us >= d.perf.launch_us + term_us(p, "latency") + term_us(p, "drain") - 1e-9);
}

void TestPerfModel::convolution_warp_work_counts_the_staging_turns_and_both_branches() {
    // conv_tiled, 16x16 blocks, mask 3: an 18x18 tile (324 floats) copied by 256 threads. Warps 0-2
    // (first lanes 0, 32, 64) turn twice, warps 3-7 once.
    const ConvolutionWarpWork tiled = convolution_warp_work(ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{16, 16, 1}), 3);
    QCOMPARE(tiled.taps, 9.0);
    QCOMPARE(tiled.stage_turns, 11.0 / 8);
    // 4x4 blocks, mask 7: a 10x10 tile by 16 threads, 7 turns.
    QCOMPARE(convolution_warp_work(ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{4, 4, 1}), 7).stage_turns, 7.0);
    // conv_tiled_cached, one row of 32 threads, mask 3: only the middle row of the window is in the
    // block; its left and right taps are read by 31 lanes from the tile and one from the halo (both
    // branches), its middle tap by all 32 from the tile. The other 6 taps all from the halo.
    const ConvolutionWarpWork row = convolution_warp_work(ConvolutionLaunch::of(ConvolutionVariant::TiledCached, Dim3{32, 1, 1}), 3);
    QCOMPARE(row.tile_taps, 3.0);
    QCOMPARE(row.halo_taps, 8.0);
    QCOMPARE(row.stage_turns, 1.0);
    // The direct variants stage nothing and branch on nothing but the ghost cells.
    const ConvolutionWarpWork naive = convolution_warp_work(ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{32, 8, 1}), 15);
    QCOMPARE(naive.taps, 225.0);
    QCOMPARE(naive.stage_turns + naive.tile_taps + naive.halo_taps, 0.0);
}

void TestPerfModel::convolution_instructions_grow_with_the_mask() {
    const DeviceProfile d = h200();
    for (ConvolutionVariant v : {ConvolutionVariant::Naive, ConvolutionVariant::Constant, ConvolutionVariant::Tiled,
                                 ConvolutionVariant::TiledCached}) {
        const ConvolutionLaunch launch = ConvolutionLaunch::of(v, Dim3{32, 8, 1});
        double last_instructions = 0, last_us = 0;
        for (std::uint32_t side : {1u, 3u, 7u, 15u}) {
            const std::optional<CompiledIssue> ci = convolution_compiled_issue(launch, side);
            QVERIFY(ci.has_value());
            const double instructions = ci->warp_instructions(double(side) * side);
            QVERIFY2(instructions > last_instructions, qPrintable(QStringLiteral("variant %1 side %2").arg(int(v)).arg(side)));
            last_instructions = instructions;
            ConvolutionMask mask;
            mask.side = side;
            const GpuPrediction p = predict_convolution(d, launch, 641, 479, mask);
            QVERIFY2(p.ok(), qPrintable(p.error));
            QVERIFY2(p.total_us > last_us, qPrintable(p.summary()));
            last_us = p.total_us;
            // The issue term is the compiled kernel's: the busiest SM's warps' instructions at its rate.
            QVERIFY(p.term(QStringLiteral("issue"))->detail.contains(QStringLiteral("a warp per K step")));
        }
    }
}

void TestPerfModel::staged_blocks_wait_at_their_barrier_in_full_waves() {
    // conv_tiled with 32x32 blocks: 1024 threads, 2 blocks an SM on the H200, 264 a wave. A 641x479
    // image (a 5 KiB footprint, resident in L2) has 21 x 15 = 315 blocks: one full wave and a tail of
    // 51. The full wave adds the L2 round trip of a block of 32 warps (with the index arithmetic's
    // chain) over its 2 blocks an SM; the tail adds nothing (its latency term holds the round trip).
    const DeviceProfile d = h200();
    ConvolutionMask mask;
    mask.side = 3;
    const GpuPrediction tiled = predict_convolution(d, ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{32, 32, 1}), 641, 479, mask);
    QVERIFY2(tiled.ok(), qPrintable(tiled.error));
    QCOMPARE(tiled.blocks, std::uint64_t(315));
    QCOMPARE(tiled.waves, std::uint64_t(2));
    const double round = d.perf.l2_round_us + 32 * d.perf.l2_warp_round_us + kIndexInstructionsPerThread * d.perf.instruction_ns * 1e-3;
    QVERIFY2(qAbs(term_us(tiled, "barrier") - round / 2) < 1e-9,
             qPrintable(QStringLiteral("%1 against %2").arg(term_us(tiled, "barrier")).arg(round / 2)));
    // One wave only (320x240: 10 x 8 = 80 blocks): no full wave, no barrier term.
    const GpuPrediction one = predict_convolution(d, ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{32, 32, 1}), 320, 240, mask);
    QVERIFY2(one.ok(), qPrintable(one.error));
    QCOMPARE(one.waves, std::uint64_t(1));
    QCOMPARE(term_us(one, "barrier"), 0.0);
    // A kernel without a barrier never pays it.
    const GpuPrediction naive = predict_convolution(d, ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{32, 32, 1}), 641, 479, mask);
    QVERIFY2(naive.ok(), qPrintable(naive.error));
    QCOMPARE(term_us(naive, "barrier"), 0.0);
    QVERIFY(term_us(naive, "latency") > 0);
}

void TestPerfModel::every_catalogue_variant_gets_a_finite_prediction_on_odd_sizes() {
    const DeviceProfile d = h200();
    for (const KernelInfo& k : kernel_catalogue()) {
        const std::vector<Dim3> blocks = sweep_blocks(k);
        QVERIFY2(!blocks.empty(), k.name.c_str());
        for (const Dim3& b : {blocks.front(), blocks.back()}) {
            std::vector<GpuPrediction> predictions;
            if (k.family == KernelFamily::Grayscale) {
                for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar})
                    predictions.push_back(predict_grayscale(d, LaunchShape::of(GrayscaleVariant(k.variant), b), 1537, 1023, layout));
            } else if (k.family == KernelFamily::Convolution) {
                for (std::uint32_t side : {1u, 3u, 15u}) {
                    const ConvolutionLaunch launch = ConvolutionLaunch::of(ConvolutionVariant(k.variant), b);
                    if (!validate_convolution_launch(launch, 97, 61, side).empty()) continue;  // a tile too big
                    ConvolutionMask mask;
                    mask.side = side;
                    predictions.push_back(predict_convolution(d, launch, 97, 61, mask));
                }
            } else if (k.family == KernelFamily::Matmul) {
                // a fixed block's TILE list (split-K's slices): its largest
                const unsigned tile = k.block == BlockRule::Fixed && !k.tiles.empty() ? k.tiles.back() : b.x;
                const MatmulLaunch launch = MatmulLaunch::of(MatmulVariant(k.variant), b, tile);
                predictions.push_back(predict_matmul(d, launch, 77, 45, 59));
                predictions.push_back(predict_matmul(d, launch, 301, 197, 163));
            }
            for (const GpuPrediction& p : predictions) {
                const QString what = QString::fromStdString(k.name) + " " + QString::fromStdString(to_string(b)) + ": " + p.summary();
                QVERIFY2(p.ok(), qPrintable(what));
                QVERIFY2(std::isfinite(p.total_us) && p.total_us > d.perf.launch_us, qPrintable(what));
                QVERIFY2(p.waves >= 1 && p.blocks >= 1, qPrintable(what));
            }
        }
    }
}

void TestPerfModel::invalid_launch_is_an_error_not_a_number() {
    const GpuPrediction p = predict_grayscale(h200(), LaunchShape::two_d(64, 32), 640, 480);  // 2048 threads
    QVERIFY(!p.ok());
    QVERIFY(p.summary().startsWith(QStringLiteral("no prediction: ")));
    QCOMPARE(p.total_us, 0.0);
}

void TestPerfModel::profile_without_figures_is_an_error() {
    DeviceProfile bare = h200();
    bare.dram_gb_per_s = 0;
    const GpuPrediction p = predict_grayscale(bare, LaunchShape::one_d(256), 640, 480);
    QVERIFY(!p.ok());
    QVERIFY2(p.error.contains(bare.name), qPrintable(p.error));
}

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perf_model.moc"
