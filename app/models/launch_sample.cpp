#include "app/models/launch_sample.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "kernels/trace/request_cost.h"

namespace cvz {

namespace {

constexpr std::uint64_t kThreadsPerSample = 1024;  // the interior class's sample: about this many threads
constexpr std::uint64_t kMaxInteriorPicks = 16;

// One class of blocks: how many the grid has and which of them the sample traces.
struct SampleClass {
    std::uint64_t count = 0;
    std::vector<std::uint64_t> picks;
};

// The classes of `grid` by position (interior or last, in x and in y) and their picks.
std::vector<SampleClass> sample_classes(Dim3 grid, std::uint64_t threads_per_block) {
    const std::uint64_t interior_picks =
        std::clamp<std::uint64_t>(kThreadsPerSample / std::max<std::uint64_t>(1, threads_per_block), 1, kMaxInteriorPicks);
    struct Range {
        std::uint64_t first, count;
    };
    auto ranges = [](unsigned extent) {
        std::vector<Range> r;
        if (extent > 1) r.push_back({0, extent - 1u});
        r.push_back({extent - 1u, 1});
        return r;
    };
    std::vector<SampleClass> classes;
    const std::uint64_t planes = std::max(1u, grid.z);
    for (const Range& ry : ranges(grid.y))
        for (const Range& rx : ranges(grid.x)) {
            SampleClass c;
            c.count = rx.count * ry.count * planes;
            // The interior takes the most picks; the last column and row half as many; the corner one.
            const bool interior = rx.count > 1 && ry.count > 1;
            const bool edge = rx.count > 1 || ry.count > 1;
            const std::uint64_t want = interior ? interior_picks : edge ? std::max<std::uint64_t>(1, interior_picks / 2) : 1;
            const std::uint64_t picks = std::min(c.count, want);
            for (std::uint64_t i = 0; i < picks; ++i) {
                // The middle of the i-th of `picks` equal parts of the class, walked x fastest.
                const std::uint64_t at = (2 * i + 1) * c.count / (2 * picks);
                const std::uint64_t x = rx.first + at % rx.count, y = ry.first + (at / rx.count) % ry.count;
                const std::uint64_t z = at / (rx.count * ry.count);
                c.picks.push_back(x + std::uint64_t(grid.x) * (y + std::uint64_t(grid.y) * z));
            }
            classes.push_back(std::move(c));
        }
    return classes;
}

}  // namespace

ScaledSample trace_and_scale(Dim3 grid, Dim3 block, const SampleTracer& tracer) {
    ScaledSample s;
    const std::vector<SampleClass> classes = sample_classes(grid, block.volume());
    TraceOptions options;
    options.all_warps = true;  // per-warp figures of the sampled blocks: summed per block below
    std::map<std::uint64_t, double> weight;  // block -> how many blocks of the grid it stands for
    for (const SampleClass& c : classes)
        for (std::uint64_t b : c.picks) {
            options.sample_blocks.push_back(b);
            weight[b] = double(c.count) / double(c.picks.size());
        }
    options.keep_blocks = options.sample_blocks;  // their requests, for the sectors each block loads
    TraceResult r = tracer(options);
    if (!r.status) {
        s.error = QString::fromStdString(r.status.message());
        return s;
    }
    for (const WarpMetrics& w : r.trace.warps) {
        const double k = weight.count(w.block) ? weight[w.block] : 0.0;
        const MemoryMetrics& m = w.metrics;
        const double add[8] = {double(m.global_ld.requests), double(m.global_ld.sectors), double(m.global_ld.ideal_sectors),
                               double(m.global_st.requests), double(m.global_st.sectors), double(m.global_st.ideal_sectors),
                               double(m.shared_ld.requests + m.shared_st.requests),
                               double(m.shared_ld.wavefronts + m.shared_st.wavefronts)};
        for (int i = 0; i < 8; ++i) s.v[i] += k * add[i];
    }
    // The distinct sectors each sampled block loads: what its SM's L1 must fetch from L2 at least
    // (requests of one block that touch a sector another request of it touched hit in L1).
    std::vector<std::uint64_t> sectors, lines, store_lines, request_lines;
    std::uint64_t current = ~std::uint64_t(0);
    auto distinct = [](std::vector<std::uint64_t>& v) {
        std::sort(v.begin(), v.end());
        const double d = double(std::unique(v.begin(), v.end()) - v.begin());
        v.clear();
        return d;
    };
    double block_store_lines = 0;
    auto flush = [&] {
        if (current == ~std::uint64_t(0)) return;
        const double w = weight.count(current) ? weight[current] : 0.0;
        s.v[8] += w * distinct(sectors);
        s.v[9] += w * (distinct(lines) + block_store_lines);
        block_store_lines = 0;
    };
    for (const MemoryRequest& q : r.trace.requests) {
        if (q.block != current) {
            flush();
            current = q.block;
        }
        if (q.space != MemorySpace::Global) continue;
        const std::uint64_t tag = std::uint64_t(q.buffer) << 48;
        {
            const double w = weight.count(q.block) ? weight[q.block] : 0.0;
            std::vector<std::uint64_t>& own = request_lines;
            for (const LaneAccess& l : q.lanes)
                for (std::uint64_t line = l.offset / 128; line <= (l.offset + std::max(1u, l.bytes) - 1) / 128; ++line)
                    own.push_back(line);
            s.v[10] += w * distinct(own);
            // The L1 data stage: the L1 and shared memory are one array of 32 banks of 4-byte words,
            // and a global request's words are served as a shared request's are (its wavefronts: the
            // most distinct words one bank holds). A buffer starts at least 256-byte aligned, so an
            // offset's bank is its address's: 32 rows of a matrix whose row is a whole number of
            // 128-byte lines put their words in one bank (32 wavefronts); any other row length
            // spreads them.
            s.v[11] += w * shared_request_cost(q.lanes).wavefronts;
        }
        if (q.access == Access::Store) {
            for (const LaneAccess& l : q.lanes)
                for (std::uint64_t line = l.offset / 128; line <= (l.offset + std::max(1u, l.bytes) - 1) / 128; ++line)
                    store_lines.push_back(tag | line);
            block_store_lines += distinct(store_lines);
            continue;
        }
        for (const LaneAccess& l : q.lanes) {
            const std::uint64_t last = l.offset + std::max(1u, l.bytes) - 1;
            for (std::uint64_t sec = l.offset / 32; sec <= last / 32; ++sec) sectors.push_back(tag | sec);
            for (std::uint64_t line = l.offset / 128; line <= last / 128; ++line) lines.push_back(tag | line);
        }
    }
    flush();
    s.sampled = options.sample_blocks.size();
    return s;
}

namespace {

void fill(LaunchFigures* f, const ScaledSample& s) {
    f->global_ld_requests = s.v[0];
    f->global_ld_sectors = s.v[1];
    f->global_ld_ideal_sectors = s.v[2];
    f->global_st_requests = s.v[3];
    f->global_st_sectors = s.v[4];
    f->global_st_ideal_sectors = s.v[5];
    f->shared_requests = s.v[6];
    f->shared_wavefronts = s.v[7];
    f->block_load_sectors = s.v[8];
    f->l2_lines = s.v[9];
    f->request_lines = s.v[10];
    f->request_wavefronts = s.v[11];
}

QString sampling_text(std::uint64_t sampled, std::uint64_t blocks, int classes) {
    return QStringLiteral("traced %1 of %2 blocks (%3 classes by position), scaled to the grid")
        .arg(sampled)
        .arg(blocks)
        .arg(classes);
}

// A small cache of figures by key; a slider's shapes come back often.
class FiguresCache {
public:
    bool find(const QString& key, LaunchFigures* out) {
        QMutexLocker lock(&mutex_);
        auto it = map_.find(key);
        if (it == map_.end()) return false;
        *out = it.value();
        return true;
    }
    void put(const QString& key, const LaunchFigures& f) {
        QMutexLocker lock(&mutex_);
        if (map_.size() >= 512) map_.clear();
        map_.insert(key, f);
    }

private:
    QMutex mutex_;
    QHash<QString, LaunchFigures> map_;
};

FiguresCache& cache() {
    static FiguresCache c;
    return c;
}

}  // namespace

double LaunchFigures::compulsory_bytes() const {
    return std::min(buffer_bytes, 32.0 * (global_ld_ideal_sectors + global_st_ideal_sectors));
}

LaunchFigures sampled_launch_figures(const QString& key, Dim3 grid, Dim3 block, double buffer_bytes,
                                     const std::function<ScaledSample()>& sample, const QString& note) {
    LaunchFigures f;
    if (cache().find(key, &f)) return f;
    f.grid = grid;
    f.block = block;
    f.blocks = grid.volume();
    f.warps_per_block = (block.volume() + 31) / 32;
    const ScaledSample s = sample();
    if (!s.error.isEmpty()) {
        f.error = s.error;
        return f;
    }
    fill(&f, s);
    f.buffer_bytes = buffer_bytes;
    f.sampled_blocks = s.sampled;
    f.classes = int(sample_classes(f.grid, f.block.volume()).size());
    f.sampling = sampling_text(f.sampled_blocks, f.blocks, f.classes) + note;
    cache().put(key, f);
    return f;
}

}  // namespace cvz
