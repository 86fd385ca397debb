#include "app/models/perf_model.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/models/wave_model.h"

namespace cvz {

namespace {

// A typical thread's instructions in its round trip, in microseconds: the chain that waits on itself at
// an instruction's latency each, the independent rest at an issue slot (a clock) each.
double typical_chain_us(const DeviceProfile& d, const LaunchWork& w) {
    return w.chain_per_thread * d.perf.instruction_ns * 1e-3 + w.independent_per_thread / (d.sm_clock_mhz * 1e6) * 1e6;
}

// The launch's longest thread's chain (0 when every thread is typical), in microseconds.
double longest_chain_us(const DeviceProfile& d, const LaunchWork& w) { return w.longest_chain * d.perf.instruction_ns * 1e-3; }

// The warps ahead of the longest thread's warp on its SM in the last wave: the blocks its SM started
// before its block (blocks go round-robin over the SMs) and the warps before it in its block.
double warps_ahead_of_longest(const DeviceProfile& d, const LaunchWork& w, const WavePlan& plan) {
    const double threads = std::max(1, w.resources.threads);
    const double block = std::floor(w.longest_thread / threads);
    const double in_wave = block - double(plan.waves > 0 ? plan.waves - 1 : 0) * double(plan.blocks_per_wave);
    const double before = std::floor(std::max(0.0, in_wave) / std::max(1, d.sm_count));
    return before * double(w.figures.warps_per_block) + std::floor((w.longest_thread - block * threads) / 32.0);
}

// How long the longest thread's warp waits for its loads behind those warps: their bytes (the launch's
// bytes a warp) through the SM's port, in microseconds.
double longest_wait_us(const DeviceProfile& d, const LaunchWork& w, const WavePlan& plan) {
    if (w.longest_chain <= 0 || d.perf.sm_port_bytes_per_clock <= 0) return 0;
    const double warps = double(std::max<std::uint64_t>(1, w.figures.blocks)) * double(std::max<std::uint64_t>(1, w.figures.warps_per_block));
    const double bytes_per_warp = w.figures.compulsory_bytes() / warps;
    return warps_ahead_of_longest(d, w, plan) * bytes_per_warp / (d.perf.sm_port_bytes_per_clock * d.sm_clock_mhz * 1e6) * 1e6;
}

// What a round trip waits for besides the memory: a typical thread's chain, and in the last wave the
// longest thread's wait and chain when that is longer.
double thread_chain_us(const DeviceProfile& d, const LaunchWork& w, double longest_us) {
    return std::max(typical_chain_us(d, w), longest_us);
}

// The wave terms of a wave of `blocks` blocks, in microseconds.
struct WaveTerms {
    double dram = 0, l2 = 0, latency = 0, blocks = 0, l1 = 0, shared = 0, issue = 0, fp32 = 0, tensor = 0, reread = 0;
    double barrier = 0;     // the round trip a staged block waits at its barrier, not hidden by the SM's other blocks
    double last_start = 0;  // when the busiest SM starts the last of its blocks: its round trip begins then
    double slowest() const {
        return std::max({dram, l2, last_start + latency, blocks, l1, shared, issue, fp32, tensor, reread}) + barrier;
    }
};

// The fraction of the streaming bandwidth reached with `blocks` resident per SM.
double bandwidth_fraction(const PerfCalibration& c, double blocks) {
    const auto& t = c.bandwidth_by_blocks_per_sm;
    if (t.empty() || blocks >= t.back().first) return 1.0;
    if (blocks <= t.front().first) return t.front().second;
    for (std::size_t i = 1; i < t.size(); ++i)
        if (blocks <= t[i].first) {
            const double a = std::log2(double(t[i - 1].first)), b = std::log2(double(t[i].first));
            const double x = (std::log2(blocks) - a) / (b - a);
            return t[i - 1].second + x * (t[i].second - t[i - 1].second);
        }
    return 1.0;
}

WaveTerms wave_terms(const DeviceProfile& d, const LaunchWork& w, const Occupancy& occ, std::uint64_t blocks,
                     bool l2_resident, bool full_wave, double longest_us) {
    const LaunchFigures& f = w.figures;
    const PerfCalibration& c = d.perf;
    const double per_block = 1.0 / double(std::max<std::uint64_t>(1, f.blocks));
    const double clock_hz = d.sm_clock_mhz * 1e6;
    const int sms = std::max(1, d.sm_count);
    // The busiest SM's blocks in this wave (blocks go round-robin over the SMs) and its warps.
    const double on_sm = std::ceil(double(blocks) / sms);
    const double resident_warps = on_sm * double(f.warps_per_block);
    const double hide = std::min(1.0, resident_warps / std::max(1, c.saturating_warps));
    const double share = double(blocks) * per_block;  // this wave's share of the launch
    WaveTerms t;
    const double to_us = 1e6;
    // Bandwidth: DRAM for what must come from or go to it, L2 for every sector the SMs move.
    const double dram_bytes = f.compulsory_bytes() * share;
    const double dram_rate = (l2_resident ? c.l2_gb_per_s * 1e9 : d.dram_gb_per_s * 1e9 * c.dram_efficiency) *
                             bandwidth_fraction(c, std::min<double>(on_sm, occ.blocks_per_sm));
    t.dram = dram_bytes / dram_rate * to_us;
    t.l2 = f.l2_lines * share / (c.l2_lines_per_ns * 1e3);
    // Latency (Little's law): a wave waits at least one round trip, more when a warp needs more bytes
    // than it can keep in flight.
    const double warps = double(f.blocks) * double(f.warps_per_block);
    // The bytes a warp needs from DRAM (its share of the footprint), not those L1 or L2 serve again.
    const double load_bytes_per_warp = std::min(32.0 * f.global_ld_ideal_sectors, f.buffer_bytes) / std::max(1.0, warps);
    const double rounds = std::max(1.0, std::ceil(load_bytes_per_warp / c.max_bytes_in_flight_per_warp - 1e-9));
    const bool any_memory = f.global_ld_requests + f.global_st_requests > 0;
    const double chain_us = thread_chain_us(d, w, full_wave ? 0.0 : longest_us);
    const double round = chain_us + (l2_resident ? c.l2_round_us + double(f.warps_per_block) * c.l2_warp_round_us
                                                 : c.dram_round_us + double(f.warps_per_block) * c.warp_round_us);
    t.latency = any_memory ? rounds * round : 0;
    // A block that stages its tile and waits at a barrier issues nothing for a round trip; the SM's
    // other blocks issue meanwhile, so of the busiest SM's waits one block's share is not hidden:
    // a round trip over the blocks resident in the wave, added to the wave's slowest term.
    t.barrier = any_memory && on_sm > 0 && full_wave ? w.barrier_stages * round / on_sm : 0;
    // The SM starts its blocks one after another, and the last one's round trip begins only then.
    t.blocks = on_sm * c.block_us;
    t.last_start = std::max(0.0, on_sm - 1) * c.dispatch_us;
    // The busiest SM's pipes, slowed when too few warps hide their latency (a compiled kernel's issue
    // rate says how well its warps hide it: its pipes are then priced at their throughput).
    const double sm_seconds = on_sm * per_block / (clock_hz * (w.compiled ? 1.0 : hide));
    // L1 and shared memory are one unit: its tag stage (a request's distinct lines), its data stage
    // (a request's wavefronts over the 32 banks), its sectors and its shared wavefronts share the clock;
    // of the pipeline's stages the slowest sets the pace.
    const double tag_clocks = (f.global_ld_requests + f.global_st_requests) * c.l1_tag_clocks_per_request +
                              f.request_lines / c.l1_tags_per_clock;
    t.l1 = std::max({tag_clocks, f.request_wavefronts / c.l1_wavefronts_per_clock,
                     (f.global_ld_sectors + f.global_st_sectors) / c.l1_sectors_per_clock}) *
           sm_seconds * to_us;
    // The compiled kernel's wavefronts where known (nvcc merges the source's shared loads into wider
    // ones), else the trace's.
    const double warps_launched = double(f.blocks) * double(f.warps_per_block);
    const double wavefronts = w.compiled ? w.compiled->shared_wavefronts_per_k * w.k_steps * warps_launched : f.shared_wavefronts;
    t.shared = wavefronts / c.shared_wavefronts_per_clock * sm_seconds * to_us;
    t.l1 += t.shared;  // the same unit: a kernel waits for both
    if (w.compiled) {
        // The busiest SM's warp instructions at the rate its schedulers issue them with this wave's
        // resident warps (issue_per_clock schedulers, the warps spread evenly over them).
        const double schedulers = std::max(1.0, c.issue_per_clock);
        const double rate = w.compiled->rate(resident_warps / schedulers);
        const double instructions = on_sm * double(f.warps_per_block) * w.compiled->warp_instructions(w.k_steps);
        t.issue = rate > 0 ? instructions / (schedulers * rate) / clock_hz * to_us : 0;
    } else {
        const double requests = f.global_ld_requests + f.global_st_requests + f.shared_requests;
        t.issue = (requests + w.lane_instructions / 32.0) / c.issue_per_clock * sm_seconds * to_us;
    }
    t.fp32 = w.fmas / std::max(1, d.fp32_lanes_per_sm) * sm_seconds * to_us;
    // The tensor cores' multiply-adds at their rate; a profile without TF32 tensor cores prices them
    // on the FP32 lanes.
    const double tensor_rate = d.tf32_fmas_per_sm > 0 ? d.tf32_fmas_per_sm : std::max(1, d.fp32_lanes_per_sm);
    t.tensor = w.tensor_fmas / tensor_rate * sm_seconds * to_us;
    t.reread = blocks > 0 ? w.reread_us_per_wave : 0;
    return t;
}

QString us_text(double us) {
    if (us >= 1000) return QStringLiteral("%1 ms").arg(us / 1000, 0, 'f', us >= 10000 ? 1 : 2);
    return QStringLiteral("%1 us").arg(us, 0, 'f', us >= 100 ? 0 : 1);
}

}  // namespace

QString bytes_text(double b) {
    if (b >= 1e9) return QStringLiteral("%1 GB").arg(b / 1e9, 0, 'f', 2);
    if (b >= 1e6) return QStringLiteral("%1 MB").arg(b / 1e6, 0, 'f', 1);
    return QStringLiteral("%1 KB").arg(b / 1e3, 0, 'f', 1);
}

// The issue term's phrase: for a compiled kernel its warp instructions, how often one warp alone is
// ready and what the first wave's resident warps issue a clock per scheduler.
namespace {

// The latency term's thread chain: "; a thread's 19 dependent instructions x 10 ns + 105 independent x 1
// clock = 0.243 us in each round", and the longest thread's when there is one.
QString chain_detail(const DeviceProfile& d, const LaunchWork& w, const WavePlan& plan) {
    if (w.chain_per_thread <= 0 && w.independent_per_thread <= 0 && w.longest_chain <= 0) return {};
    QString s = QStringLiteral("; a thread's %1 dependent instructions x %2 ns + %3 independent x 1 clock = %4 us in each round")
                    .arg(w.chain_per_thread, 0, 'g', 3)
                    .arg(d.perf.instruction_ns, 0, 'g', 3)
                    .arg(w.independent_per_thread, 0, 'g', 3)
                    .arg(typical_chain_us(d, w), 0, 'f', 3);
    if (w.longest_chain > 0) {
        const double longest_us = longest_wait_us(d, w, plan) + longest_chain_us(d, w);
        s += QStringLiteral("; the longest thread (%1), in the last wave: behind %2 warps' bytes on its SM %3 us, then "
                            "%4 dependent x %5 ns = %6 us%7")
                 .arg(w.longest_chain_detail)
                 .arg(warps_ahead_of_longest(d, w, plan), 0, 'g', 4)
                 .arg(longest_wait_us(d, w, plan), 0, 'f', 3)
                 .arg(w.longest_chain, 0, 'g', 3)
                 .arg(d.perf.instruction_ns, 0, 'g', 3)
                 .arg(longest_us, 0, 'f', 3)
                 .arg(longest_us > typical_chain_us(d, w) ? QStringLiteral(", which the round waits for") : QString());
    }
    return s;
}

QString issue_detail(const DeviceProfile& d, const LaunchWork& w, const GpuPrediction& p) {
    if (!w.compiled) return QStringLiteral("warp instructions per SM");
    const CompiledIssue& ci = *w.compiled;
    const double sms = std::max(1, d.sm_count);
    const double on_sm = std::min(double(p.occupancy.blocks_per_sm), std::ceil(double(p.blocks) / sms));
    const double per_scheduler = on_sm * double(w.figures.warps_per_block) / std::max(1.0, d.perf.issue_per_clock);
    return QStringLiteral("%1 warp instructions (%2 a warp per K step); one warp ready %3% of cycles, %4 a scheduler "
                          "issue %5 a clock")
        .arg(double(p.blocks) * double(w.figures.warps_per_block) * ci.warp_instructions(w.k_steps), 0, 'g', 3)
        .arg(ci.instructions_per_k, 0, 'g', 4)
        .arg(int(std::lround(ci.ready * 100)))
        .arg(per_scheduler, 0, 'g', 3)
        .arg(ci.rate(per_scheduler), 0, 'f', 2);
}

}  // namespace

GpuPrediction predict_launch(const DeviceProfile& d, const LaunchWork& w) {
    GpuPrediction p;
    p.profile = d.name;
    const LaunchFigures& f = w.figures;
    if (!f.ok()) {
        p.error = f.error;
        return p;
    }
    if (d.sm_count <= 0 || d.sm_clock_mhz <= 0 || d.dram_gb_per_s <= 0) {
        p.error = QStringLiteral("the device profile '%1' has no throughput figures").arg(d.name);
        return p;
    }
    p.occupancy = compute_occupancy(d, w.resources);
    if (p.occupancy.blocks_per_sm <= 0) {
        p.error = p.occupancy.error.isEmpty() ? QStringLiteral("no block fits on an SM") : p.occupancy.error;
        return p;
    }
    const WavePlan plan = plan_waves(f.blocks, d.sm_count, p.occupancy.blocks_per_sm);
    p.blocks = f.blocks;
    p.waves = plan.waves;
    p.tail_fill = plan.tail_fill;
    p.sampling = f.sampling;
    // The share of the footprint still in L2 from the previous launch: the waves are priced both ways
    // (from L2, from DRAM) and blended by it.
    const double resident = l2_resident_share(d, f.buffer_bytes);

    const std::uint64_t full = plan.waves > 0 ? plan.waves - 1 : 0;
    // The longest thread (a tail) is in the last wave: its wait behind the warps ahead of it and its chain.
    const double longest_us = w.longest_chain > 0 ? longest_wait_us(d, w, plan) + longest_chain_us(d, w) : 0;
    const WaveTerms a_l2 = wave_terms(d, w, p.occupancy, plan.blocks_per_wave, true, true, 0);
    const WaveTerms b_l2 = wave_terms(d, w, p.occupancy, plan.tail_blocks, true, false, longest_us);
    const WaveTerms a_dram = wave_terms(d, w, p.occupancy, plan.blocks_per_wave, false, true, 0);
    const WaveTerms b_dram = wave_terms(d, w, p.occupancy, plan.tail_blocks, false, false, longest_us);
    auto blend = [&](double l2, double dram) { return resident * l2 + (1 - resident) * dram; };
    auto sum = [&](double WaveTerms::*m) {
        return blend(double(full) * (a_l2.*m) + b_l2.*m, double(full) * (a_dram.*m) + b_dram.*m);
    };
    const double waves_us = blend(double(full) * a_l2.slowest() + b_l2.slowest(), double(full) * a_dram.slowest() + b_dram.slowest());
    // The drain: the last wave's busiest SM sends and receives its bytes through its port after its
    // round trip, and no later wave overlaps that.
    const double last_on_sm = std::min<double>(p.occupancy.blocks_per_sm,
                                               std::ceil(double(plan.tail_blocks) / std::max(1, d.sm_count)));
    const double drain_bytes = f.compulsory_bytes() * last_on_sm / double(std::max<std::uint64_t>(1, f.blocks));
    const double drain_us = d.perf.sm_port_bytes_per_clock > 0
                                ? drain_bytes / (d.perf.sm_port_bytes_per_clock * d.sm_clock_mhz * 1e6) * 1e6
                                : 0;
    p.total_us = d.perf.launch_us + waves_us + drain_us + w.epilogue_us;

    const double dram_rate = d.dram_gb_per_s * d.perf.dram_efficiency;
    QString source;
    if (resident >= 1) source = QStringLiteral("%1 GB/s from L2 (resident between launches)").arg(d.perf.l2_gb_per_s, 0, 'f', 0);
    else if (resident <= 0) source = QStringLiteral("%1 GB/s from DRAM").arg(dram_rate, 0, 'f', 0);
    else
        source = QStringLiteral("%1% from L2 (resident between launches), the rest from DRAM at %2 GB/s")
                     .arg(int(std::lround(resident * 100)))
                     .arg(dram_rate, 0, 'f', 0);
    // The wave the details describe: a full one, or the only (partial) one.
    const WaveTerms& first = full > 0 ? (resident >= 0.5 ? a_l2 : a_dram) : (resident >= 0.5 ? b_l2 : b_dram);
    p.terms = {
        {QStringLiteral("launch"), d.perf.launch_us, QStringLiteral("fixed cost of a launch")},
        {QStringLiteral("memory"), sum(&WaveTerms::dram), QStringLiteral("%1 at %2").arg(bytes_text(f.compulsory_bytes()), source)},
        {QStringLiteral("L2"), sum(&WaveTerms::l2),
         QStringLiteral("%1 L2 transactions (%2 sectors per request in L1)")
             .arg(f.l2_lines, 0, 'g', 3)
             .arg((f.global_ld_sectors + f.global_st_sectors) / std::max(1.0, f.global_ld_requests + f.global_st_requests), 0, 'f', 1)},
        {QStringLiteral("latency"), sum(&WaveTerms::latency) + sum(&WaveTerms::last_start),
         (first.last_start > 0
              ? QStringLiteral("%1 waves x %2 round trip, begun %3 into the wave (the busiest SM's last block starts then)")
                    .arg(plan.waves)
                    .arg(us_text(first.latency), us_text(first.last_start))
              : QStringLiteral("%1 waves x %2 round trip").arg(plan.waves).arg(us_text(first.latency))) +
             chain_detail(d, w, plan)},
        {QStringLiteral("blocks"), sum(&WaveTerms::blocks),
         QStringLiteral("%1 blocks per SM at %2 us each").arg(std::ceil(double(f.blocks) / d.sm_count)).arg(d.perf.block_us)},
        {QStringLiteral("L1"), sum(&WaveTerms::l1), QStringLiteral("global requests and sectors per SM")},
        {QStringLiteral("shared"), sum(&WaveTerms::shared),
         w.compiled ? QStringLiteral("%1 wavefronts (the compiled kernel's; the source's loads make %2)")
                          .arg(w.compiled->shared_wavefronts_per_k * w.k_steps * double(f.blocks) * double(f.warps_per_block), 0, 'g', 3)
                          .arg(f.shared_wavefronts, 0, 'g', 3)
                    : QStringLiteral("%1 wavefronts").arg(f.shared_wavefronts, 0, 'g', 3)},
        {QStringLiteral("issue"), sum(&WaveTerms::issue), issue_detail(d, w, p)},
        {QStringLiteral("FP32"), sum(&WaveTerms::fp32),
         QStringLiteral("%1 FMAs at %2 TFLOP/s").arg(w.fmas, 0, 'g', 3).arg(d.fp32_gflops() / 1000, 0, 'f', 1)},
        {QStringLiteral("tensor"), sum(&WaveTerms::tensor),
         d.tf32_fmas_per_sm > 0
             ? QStringLiteral("%1 TF32 FMAs at %2 TFLOP/s (tensor cores)")
                   .arg(w.tensor_fmas, 0, 'g', 3)
                   .arg(d.tf32_tflops(), 0, 'f', 0)
             : QStringLiteral("%1 TF32 FMAs on the FP32 lanes (no TF32 tensor cores)").arg(w.tensor_fmas, 0, 'g', 3)},
        {QStringLiteral("re-reads"), sum(&WaveTerms::reread), w.reread_detail},
        {QStringLiteral("barrier"), sum(&WaveTerms::barrier),
         w.barrier_stages > 0
             ? QStringLiteral("%1 waves x %2: the tile's round trip at the barrier over the %3 blocks the busiest SM runs "
                              "at once, added to each wave")
                   .arg(plan.waves)
                   .arg(us_text(first.barrier))
                   .arg(std::min<double>(p.occupancy.blocks_per_sm, std::ceil(double(plan.blocks_per_wave) / std::max(1, d.sm_count))))
             : QStringLiteral("none: no block waits on its own staged loads")},
        {QStringLiteral("epilogue"), w.epilogue_us, w.epilogue_detail},
        {QStringLiteral("drain"), drain_us,
         QStringLiteral("the last wave's busiest SM: %1 through its port at %2 bytes a clock, after its round trip")
             .arg(bytes_text(drain_bytes))
             .arg(d.perf.sm_port_bytes_per_clock, 0, 'g', 3)},
    };
    const PredictionTerm* top = &p.terms[0];
    for (const PredictionTerm& t : p.terms)
        if (t.us > top->us) top = &t;
    p.bound = top->name;
    return p;
}


double streaming_pass_us(const DeviceProfile& d, double read_bytes, double write_bytes, QString* detail) {
    const PerfCalibration& c = d.perf;
    const double bytes = read_bytes + write_bytes;
    const double resident = l2_resident_share(d, bytes);
    const double dram_rate = d.dram_gb_per_s * c.dram_efficiency;
    const double rate = 1.0 / (resident / c.l2_gb_per_s + (1 - resident) / dram_rate);  // GB/s
    const double us = c.launch_us + (resident * c.l2_round_us + (1 - resident) * c.dram_round_us) + bytes / (rate * 1e3);
    if (detail)
        *detail = QStringLiteral("a second launch: %1 read and %2 written at %3 GB/s (%4% from L2), launch included")
                      .arg(bytes_text(read_bytes), bytes_text(write_bytes))
                      .arg(rate, 0, 'f', 0)
                      .arg(int(std::lround(resident * 100)));
    return us;
}

const PredictionTerm* GpuPrediction::term(const QString& name) const {
    for (const PredictionTerm& t : terms)
        if (t.name == name) return &t;
    return nullptr;
}

QString GpuPrediction::summary() const {
    if (!ok()) return QStringLiteral("no prediction: ") + error;
    // The two largest wave terms, the waves with their tail, the launch, the total and the bound.
    std::vector<const PredictionTerm*> wave;
    for (const PredictionTerm& t : terms)
        if (t.name != QLatin1String("launch") && t.us > 0) wave.push_back(&t);
    std::sort(wave.begin(), wave.end(), [](const PredictionTerm* x, const PredictionTerm* y) { return x->us > y->us; });
    QStringList parts;
    for (std::size_t i = 0; i < wave.size() && i < 2; ++i) parts << wave[i]->name + " " + us_text(wave[i]->us);
    parts << QStringLiteral("waves %1 (tail %2%)").arg(waves).arg(int(std::lround(tail_fill * 100)));
    if (const PredictionTerm* l = term(QStringLiteral("launch"))) parts << "launch " + us_text(l->us);
    return parts.join(QStringLiteral(", ")) + QStringLiteral(" -> ") + us_text(total_us) + QStringLiteral("; bound by ") + bound;
}

}  // namespace cvz
