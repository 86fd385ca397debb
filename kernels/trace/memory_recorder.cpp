#include "memory_recorder.h"

#include <algorithm>

#include "../core/cancel_token.h"
#include "../core/index_math.h"
#include "request_cost.h"

namespace cvz {

namespace {

std::atomic<std::uint64_t> g_next_recorder_id{1};

struct Tls {
    std::uint64_t owner = 0;
    void* worker = nullptr;
};
thread_local Tls t_slot;

}  // namespace

std::uint32_t TraceWorker::new_site(const AccessSite& site, Access access) {
    const std::uint32_t id = owner_->site_id(*this, site, access);
    site_cache_[(site.line * 2 + unsigned(access)) & 63] = CachedSite{site.file, site.line, access, id};
    return id;
}

MemoryRecorder::MemoryRecorder(Dim3 grid, Dim3 block, std::vector<BufferRange> buffers, std::size_t shared_bytes,
                               const TraceOptions& options)
    : grid_(grid), block_(block), buffers_(std::move(buffers)), shared_bytes_(shared_bytes), options_(options),
      id_(g_next_recorder_id.fetch_add(1)) {
    threads_ = std::uint32_t(block.volume());
    warps_ = (threads_ + kWarpSize - 1) / kWarpSize;
    std::sort(options_.keep_blocks.begin(), options_.keep_blocks.end());
}

MemoryRecorder::~MemoryRecorder() = default;

MemoryRecorder::Worker& MemoryRecorder::worker() {
    if (t_slot.owner == id_) return *static_cast<Worker*>(t_slot.worker);
    std::lock_guard lock(mutex_);
    workers_.push_back(std::make_unique<Worker>());
    Worker& w = *workers_.back();
    w.owner_ = this;
    w.block_x_ = block_.x;
    w.block_y_ = block_.y;
    for (const BufferRange& b : buffers_) w.ranges_.push_back({static_cast<const unsigned char*>(b.base), b.bytes});
    w.shared_bytes_ = shared_bytes_;
    w.seq.assign(threads_, 0);
    t_slot.owner = id_;
    t_slot.worker = &w;
    return w;
}

bool MemoryRecorder::kept(std::uint64_t block) const {
    return std::binary_search(options_.keep_blocks.begin(), options_.keep_blocks.end(), block);
}

TraceWorker* MemoryRecorder::begin_thread(const EmuContext& ctx) {
    Worker& w = worker();
    const std::uint64_t b = linear_block_id(ctx.block_idx(), grid_);
    if (b != w.block) {
        finish_block(w);
        start_block(w, b);
    }
    return w.skip ? nullptr : &w;
}

void MemoryRecorder::start_block(Worker& w, std::uint64_t block) {
    w.block = block;
    w.skip = options_.cancel && options_.cancel->requested();
    if (w.skip) cancelled_.store(true, std::memory_order_relaxed);
    w.keep = kept(block);
    w.records.clear();
    for (auto& o : w.occurrences) std::fill(o.begin(), o.end(), 0u);
    std::fill(w.seq.begin(), w.seq.end(), 0u);
}

std::uint32_t MemoryRecorder::site_id(Worker& w, const AccessSite& site, Access access) {
    // A new (file pointer, line): one file may reach us through several pointers (one per translation
    // unit), so ids are given per normalised path and line.
    const std::string file = repo_relative_source(site.file);
    const std::string key = file + ":" + std::to_string(site.line) + (access == Access::Load ? ":L" : ":S");
    std::uint32_t id = 0;
    {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(site_keys_.begin(), site_keys_.end(), [&](const auto& k) { return k.first == key; });
        if (it != site_keys_.end()) {
            id = it->second;
        } else {
            id = std::uint32_t(sites_.size());
            sites_.push_back(TraceSite{SourceLine{file, site.line}, access});
            site_keys_.emplace_back(key, id);
        }
    }
    if (w.occurrences.size() <= id) w.occurrences.resize(id + 1, std::vector<std::uint32_t>(threads_, 0u));
    if (w.per_site.size() <= id) w.per_site.resize(id + 1);
    return id;
}

void MemoryRecorder::finish_block(Worker& w) {
    if (w.block == ~std::uint64_t(0)) return;
    const std::uint64_t block = w.block;
    w.block = ~std::uint64_t(0);
    if (w.skip) return;
    const std::uint32_t nsites = std::uint32_t(w.occurrences.size());

    // Requests of (warp, site) are its occurrences 0..max: each exists, since the lane with the most
    // executions of the site took part in every one. first_request[warp*nsites + site] numbers them.
    const std::size_t keys = std::size_t(warps_) * nsites;
    w.first_request.assign(keys + 1, 0u);
    for (const TraceRecord& r : w.records) {
        std::uint32_t& n = w.first_request[std::size_t(r.tid / kWarpSize) * nsites + r.site];
        n = std::max(n, r.occurrence + 1);
    }
    std::uint32_t total = 0;
    for (std::size_t i = 0; i < keys; ++i) {
        const std::uint32_t n = w.first_request[i];
        w.first_request[i] = total;
        total += n;
    }
    w.first_request[keys] = total;

    // Counting sort of the records by request: request_lanes[q]..request_lanes[q+1] index `order`.
    w.request_lanes.assign(std::size_t(total) + 1, 0u);
    auto request_of = [&](const TraceRecord& r) {
        return w.first_request[std::size_t(r.tid / kWarpSize) * nsites + r.site] + r.occurrence;
    };
    for (const TraceRecord& r : w.records) ++w.request_lanes[request_of(r) + 1];
    for (std::size_t q = 0; q < total; ++q) w.request_lanes[q + 1] += w.request_lanes[q];
    w.order.resize(w.records.size());
    w.fill.assign(w.request_lanes.begin(), w.request_lanes.end() - 1);
    for (std::uint32_t i = 0; i < w.records.size(); ++i) w.order[w.fill[request_of(w.records[i])]++] = i;

    const bool per_warp = w.keep || options_.all_warps;
    std::vector<MemoryMetrics>& warp_metrics = w.warp_metrics;
    warp_metrics.assign(per_warp ? warps_ : 0, MemoryMetrics{});
    std::vector<std::pair<std::uint64_t, std::size_t>> program_order;  // kept block: (warp, min seq) -> request
    const std::size_t first_kept = w.requests.size();

    for (std::uint32_t q = 0; q < total; ++q) {
        const std::uint32_t begin = w.request_lanes[q], end = w.request_lanes[q + 1];
        const TraceRecord& head = w.records[w.order[begin]];
        w.lanes.clear();
        std::uint32_t min_seq = head.seq;
        for (std::uint32_t i = begin; i < end; ++i) {
            const TraceRecord& r = w.records[w.order[i]];
            w.lanes.push_back(LaneAccess{r.tid % kWarpSize, r.bytes, r.offset});
            min_seq = std::min(min_seq, r.seq);
        }
        auto by_lane = [](const LaneAccess& a, const LaneAccess& b) { return a.lane < b.lane; };
        if (!std::is_sorted(w.lanes.begin(), w.lanes.end(), by_lane)) std::sort(w.lanes.begin(), w.lanes.end(), by_lane);
        MemoryRequest m;
        m.block = block;
        m.warp = head.tid / kWarpSize;
        m.site = head.site;
        m.occurrence = head.occurrence;
        m.space = head.space;
        m.access = head.access;
        m.buffer = head.buffer;
        const RequestCost cost = head.space == MemorySpace::Shared ? shared_request_cost(w.lanes) : global_request_cost(w.lanes);
        m.sectors = cost.sectors;
        m.ideal_sectors = cost.ideal_sectors;
        m.wavefronts = cost.wavefronts;
        m.ideal_wavefronts = cost.ideal_wavefronts;
        w.totals.add(m);
        w.per_site[m.site].add(m);
        if (per_warp) warp_metrics[m.warp].add(m);
        if (w.keep) {
            m.lanes = w.lanes;
            program_order.emplace_back((std::uint64_t(m.warp) << 32) | min_seq, w.requests.size());
            w.requests.push_back(std::move(m));
        }
    }
    if (w.keep) {
        // Program order within each warp: by the first access any lane made of the request.
        std::stable_sort(program_order.begin(), program_order.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<MemoryRequest> sorted;
        sorted.reserve(program_order.size());
        for (const auto& p : program_order) sorted.push_back(std::move(w.requests[p.second]));
        w.requests.resize(first_kept);
        for (MemoryRequest& m : sorted) w.requests.push_back(std::move(m));
    }
    for (std::uint32_t i = 0; i < warp_metrics.size(); ++i) w.warps.push_back(WarpMetrics{block, i, warp_metrics[i]});
    block_done();
}

void MemoryRecorder::block_done() {
    const std::uint64_t done = blocks_done_.fetch_add(1) + 1;
    if (!options_.progress) return;
    const int percent = int(done * 100 / std::max<std::uint64_t>(1, grid_.volume()));
    int reported = percent_reported_.load();
    while (percent > reported)
        if (percent_reported_.compare_exchange_weak(reported, percent)) {
            std::lock_guard lock(mutex_);
            options_.progress(double(done) / double(std::max<std::uint64_t>(1, grid_.volume())));
            break;
        }
}

MemoryTrace MemoryRecorder::finish() {
    for (auto& w : workers_) finish_block(*w);
    MemoryTrace t;
    t.grid = grid_;
    t.block = block_;
    for (const BufferRange& b : buffers_) t.buffers.push_back(TraceBuffer{b.name, MemorySpace::Global, b.bytes});
    t.buffers.push_back(TraceBuffer{"shared", MemorySpace::Shared, shared_bytes_});
    t.sites = sites_;
    std::vector<MemoryMetrics> per_site(sites_.size());
    for (auto& w : workers_) {
        t.totals += w->totals;
        for (std::size_t s = 0; s < w->per_site.size(); ++s) per_site[s] += w->per_site[s];
        t.warps.insert(t.warps.end(), w->warps.begin(), w->warps.end());
        for (MemoryRequest& m : w->requests) t.requests.push_back(std::move(m));
        t.unmapped_accesses += w->unmapped;
    }
    for (std::size_t s = 0; s < sites_.size(); ++s) {
        const SourceLine& where = sites_[s].where;
        auto it = std::find_if(t.lines.begin(), t.lines.end(), [&](const LineMetrics& l) { return l.where == where; });
        if (it == t.lines.end()) t.lines.push_back(LineMetrics{where, per_site[s]});
        else it->metrics += per_site[s];
    }
    std::sort(t.lines.begin(), t.lines.end(), [](const LineMetrics& a, const LineMetrics& b) { return a.where < b.where; });
    std::sort(t.warps.begin(), t.warps.end(), [](const WarpMetrics& a, const WarpMetrics& b) {
        return a.block != b.block ? a.block < b.block : a.warp < b.warp;
    });
    // Requests stay in program order within a warp; blocks come from different host threads.
    std::stable_sort(t.requests.begin(), t.requests.end(), [](const MemoryRequest& a, const MemoryRequest& b) {
        return a.block != b.block ? a.block < b.block : a.warp < b.warp;
    });
    return t;
}

}  // namespace cvz
