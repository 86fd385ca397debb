#include "app/trace/schedule_replay.h"

#include <algorithm>
#include <numeric>

#include "app/jobs/counted.h"

namespace cvz {

namespace {

QString block_text(Dim3 b) { return QStringLiteral("[%1, %2, %3]").arg(b.x).arg(b.y).arg(b.z); }

std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, double p) {
    if (sorted.empty()) return 0;
    return sorted[std::min(sorted.size() - 1, std::size_t(p * double(sorted.size() - 1) + 0.5))];
}

}  // namespace

QString duration_text(std::uint64_t ns) {
    if (ns < 1000) return QStringLiteral("%1 ns").arg(ns);
    if (ns < 1000000) return QStringLiteral("%1 µs").arg(double(ns) / 1e3, 0, 'f', ns < 10000 ? 2 : 1);
    if (ns < 1000000000) return QStringLiteral("%1 ms").arg(double(ns) / 1e6, 0, 'f', ns < 10000000 ? 2 : 1);
    return QStringLiteral("%1 s").arg(double(ns) / 1e9, 0, 'f', 2);
}

ScheduleReplay::ScheduleReplay(BlockSchedule schedule, Dim3 grid, int model_slots)
    : schedule_(std::move(schedule)), grid_(grid), model_slots_(std::max(0, model_slots)) {
    const std::size_t n = schedule_.blocks.size();
    order_.assign(n, 0);
    per_sm_.assign(std::size_t(std::max(1, schedule_.sms)), 0);
    std::vector<std::uint64_t> last_end(per_sm_.size(), 0);
    sorted_starts_.reserve(n);
    sorted_ends_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const BlockRecord& r = schedule_.blocks[i];
        order_[linear_block_id(r.block, grid_)] = std::uint32_t(i);
        duration_ = std::max(duration_, r.end_ns);
        per_sm_[std::size_t(r.sm)]++;
        last_end[std::size_t(r.sm)] = std::max(last_end[std::size_t(r.sm)], r.end_ns);
        sorted_starts_.push_back(r.start_ns);
        sorted_ends_.push_back(r.end_ns);
    }
    std::sort(sorted_starts_.begin(), sorted_starts_.end());
    std::sort(sorted_ends_.begin(), sorted_ends_.end());
    tail_start_ = duration_;
    for (std::size_t sm = 0; sm < per_sm_.size(); ++sm)
        if (per_sm_[sm]) tail_start_ = std::min(tail_start_, last_end[sm]);
    // Concurrency per SM: a sweep over its starts (+1) and ends (-1); an end at the same instant as a
    // start frees the slot first.
    std::vector<std::vector<std::pair<std::uint64_t, int>>> events(per_sm_.size());
    for (const BlockRecord& r : schedule_.blocks) {
        events[std::size_t(r.sm)].push_back({r.start_ns, +1});
        events[std::size_t(r.sm)].push_back({r.end_ns, -1});
    }
    for (auto& e : events) {
        std::sort(e.begin(), e.end());
        int now = 0;
        for (const auto& [t, d] : e) max_resident_ = std::max(max_resident_, now += d);
    }
    max_resident_ = std::max(1, max_resident_);
}

BlockPhase ScheduleReplay::phase(std::uint64_t b, std::uint64_t t) const {
    const BlockRecord& r = block(b);
    if (t < r.start_ns) return BlockPhase::Waiting;
    // A block of zero length (start == end, below the timer's tick) shows as running at its instant.
    if (t < r.end_ns || (t == r.start_ns && r.start_ns == r.end_ns)) return BlockPhase::Running;
    return BlockPhase::Done;
}

std::vector<std::vector<std::uint64_t>> ScheduleReplay::running_by_sm(std::uint64_t t) const {
    std::vector<std::vector<std::uint64_t>> out(per_sm_.size());
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> starts(per_sm_.size());
    for (std::uint64_t b = 0; b < order_.size(); ++b)
        if (phase(b, t) == BlockPhase::Running) starts[std::size_t(block(b).sm)].push_back({block(b).start_ns, b});
    for (std::size_t sm = 0; sm < out.size(); ++sm) {
        std::sort(starts[sm].begin(), starts[sm].end());
        for (const auto& [s, b] : starts[sm]) out[sm].push_back(b);
    }
    return out;
}

std::uint64_t ScheduleReplay::done_at(std::uint64_t t) const {
    return std::uint64_t(std::upper_bound(sorted_ends_.begin(), sorted_ends_.end(), t) - sorted_ends_.begin());
}

std::uint64_t ScheduleReplay::started_at(std::uint64_t t) const {
    return std::uint64_t(std::upper_bound(sorted_starts_.begin(), sorted_starts_.end(), t) - sorted_starts_.begin());
}

WavePlan ScheduleReplay::model() const {
    return plan_waves(schedule_.blocks.size(), schedule_.sms, model_slots_ ? model_slots_ : max_resident_);
}

std::uint64_t ScheduleReplay::model_wave_at(std::uint64_t t) const {
    const WavePlan m = model();
    if (m.waves == 0 || duration_ == 0) return t > 0 ? m.waves : 0;
    // Wave w occupies [w, w + 1) * duration / waves.
    return std::min<std::uint64_t>(m.waves, std::uint64_t((long double)t * m.waves / duration_));
}

QStringList ScheduleReplay::differences() const {
    QStringList out;
    if (empty()) return out;
    const WavePlan m = model();
    const std::size_t n = schedule_.blocks.size();
    const bool gpu = schedule_.backend == "cuda";
    const QString unit = gpu ? QStringLiteral("SM") : QStringLiteral("host worker");

    // Dispatch order: the SMs in the order they received their first block.
    std::vector<std::uint32_t> by_start(n);
    std::iota(by_start.begin(), by_start.end(), 0u);
    std::stable_sort(by_start.begin(), by_start.end(), [&](std::uint32_t a, std::uint32_t b) {
        const BlockRecord &ra = schedule_.blocks[a], &rb = schedule_.blocks[b];
        return ra.start_ns != rb.start_ns ? ra.start_ns < rb.start_ns
                                          : linear_block_id(ra.block, grid_) < linear_block_id(rb.block, grid_);
    });
    std::vector<bool> seen(per_sm_.size(), false);
    QStringList first_sms;
    for (std::uint32_t i : by_start) {
        const int sm = schedule_.blocks[i].sm;
        if (seen[std::size_t(sm)]) continue;
        seen[std::size_t(sm)] = true;
        first_sms << QString::number(sm);
        if (first_sms.size() == 12) break;
    }
    QStringList model_sms;
    for (int sm = 0; sm < std::min(12, m.sm_count); ++sm) model_sms << QString::number(sm);
    std::size_t used_sms = 0;
    for (std::uint64_t c : per_sm_) used_sms += c ? 1 : 0;
    const QString more = QStringLiteral(", …");
    out << QStringLiteral("Dispatch order: the first blocks went to %1s %2%3; the model deals block i to %1 i mod %4 (%5%6).")
               .arg(unit, first_sms.join(QStringLiteral(", ")), used_sms > std::size_t(first_sms.size()) ? more : QString())
               .arg(m.sm_count)
               .arg(model_sms.join(QStringLiteral(", ")), m.sm_count > model_sms.size() ? more : QString());

    std::uint64_t on_model_sm = 0;
    for (const BlockRecord& r : schedule_.blocks)
        if (m.slot_of(linear_block_id(r.block, grid_)).sm == r.sm) ++on_model_sm;
    out << QStringLiteral("%1 of %2 ran on the %3 the model predicts (%4%).")
               .arg(QLocale(QLocale::English).toString(qulonglong(on_model_sm)), counted(n, QStringLiteral("block"), QStringLiteral("blocks")), unit)
               .arg(100.0 * double(on_model_sm) / double(n), 0, 'f', 1);

    // The tail.
    const std::uint64_t tail = duration_ - tail_start_;
    out << QStringLiteral("Tail: %1s went idle for good from %2; the last %3 (%4% of the run) had idle %1s. "
                          "The model's last wave is %5% full.")
               .arg(unit, duration_text(tail_start_), duration_text(tail))
               .arg(duration_ ? 100.0 * double(tail) / double(duration_) : 0.0, 0, 'f', 1)
               .arg(100.0 * m.tail_fill, 0, 'f', 0);

    // Blocks per SM.
    std::size_t most = 0, fewest = 0, used = 0;
    for (std::size_t sm = 0; sm < per_sm_.size(); ++sm) {
        if (per_sm_[sm] > per_sm_[most]) most = sm;
        if (per_sm_[sm] < per_sm_[fewest]) fewest = sm;
        used += per_sm_[sm] ? 1 : 0;
    }
    const std::uint64_t model_lo = n / std::uint64_t(m.sm_count), model_hi = model_lo + (n % std::uint64_t(m.sm_count) ? 1 : 0);
    out << QStringLiteral("Blocks per %1: %2 ran %3, %1 %4 ran %5 (%6 of %7 %1s used); the model gives each %8.")
               .arg(unit)
               .arg(unit + QLatin1Char(' ') + QString::number(most))
               .arg(qulonglong(per_sm_[most]))
               .arg(fewest)
               .arg(qulonglong(per_sm_[fewest]))
               .arg(used)
               .arg(per_sm_.size())
               .arg(model_lo == model_hi ? QString::number(model_lo) : QStringLiteral("%1 or %2").arg(model_lo).arg(model_hi));

    // Duration spread.
    std::vector<std::uint64_t> d(n);
    std::size_t longest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        d[i] = schedule_.blocks[i].end_ns - schedule_.blocks[i].start_ns;
        if (d[i] > d[longest]) longest = i;
    }
    const BlockRecord& lr = schedule_.blocks[longest];
    std::sort(d.begin(), d.end());
    out << QStringLiteral("Block durations: median %1, 10–90% %2 to %3, longest %4 (block %5 on %6 %7); the model "
                          "gives every block the same time.")
               .arg(duration_text(percentile(d, 0.5)), duration_text(percentile(d, 0.1)), duration_text(percentile(d, 0.9)),
                    duration_text(d.back()), block_text(lr.block), unit)
               .arg(lr.sm);
    // Overlap counts a block from its first warp's start to its last warp's end.
    out << QStringLiteral("At most %1 on one %2 at once; the model runs %3 per %2 (%4): %5 of %6.")
               .arg(counted(qulonglong(max_resident_), QStringLiteral("block"), QStringLiteral("blocks")), unit)
               .arg(counted(qulonglong(m.blocks_per_sm), QStringLiteral("block"), QStringLiteral("blocks")),
                    model_slots_ ? QStringLiteral("the occupancy model") : QStringLiteral("the most seen at once"))
               .arg(counted(m.waves, QStringLiteral("wave"), QStringLiteral("waves")))
               .arg(counted(m.blocks_per_wave, QStringLiteral("block"), QStringLiteral("blocks")));
    return out;
}

}  // namespace cvz
