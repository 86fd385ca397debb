#include "memory_recorder.h"

#include <algorithm>

#include "../core/cancel_token.h"
#include "../core/index_math.h"
#include "request_cost.h"

namespace cvz {

namespace {

std::atomic<std::uint64_t> g_next_recorder_id{1};

}  // namespace

void TraceWorker::new_site(CachedSite& c, const AccessSite& site, Access access) {
    c = CachedSite{};
    c.file = site.file;
    c.key = site.line * 2 + unsigned(access);
    c.id = owner_->site_id(*this, site, access);
    // A new site may have grown the rows of every cached one.
    for (CachedSite& e : site_cache_)
        if (e.file || &e == &c) {
            e.occurrences = &occurrences_[std::size_t(e.id) * threads_];
            e.slots = &slots_[std::size_t(e.id) * warps_];
        }
}

std::int32_t TraceWorker::locate(CachedSite& c, const unsigned char* q, std::uint64_t& offset) {
    for (std::size_t i = 0; i < ranges_.size(); ++i)
        if (within(std::int32_t(i), q, offset)) {
            c.previous = c.buffer;
            c.buffer = std::int32_t(i);
            return c.buffer;
        }
    offset = reinterpret_cast<std::uintptr_t>(q);
    ++unmapped;
    return -1;
}

std::uint32_t TraceWorker::open_request(std::uint32_t site, std::uint32_t warp, std::uint32_t occurrence, Access access,
                                        std::int32_t buffer) {
    // The lane's earlier executions of the site opened requests 0..occurrence-1, so this is the next.
    if (pending_count_ == pending_.size()) pending_.emplace_back();
    PendingRequest& r = pending_[pending_count_];
    r.warp = warp;
    r.site = site;
    r.occurrence = occurrence;
    r.lane_mask = 0;
    r.min_seq = ~std::uint32_t(0);
    r.buffer = buffer;
    r.space = buffer == std::int32_t(ranges_.size() - 1) ? MemorySpace::Shared : MemorySpace::Global;
    r.access = access;
    slots_[std::size_t(site) * warps_ + warp].push_back(pending_count_);
    return pending_count_++;
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
    if (t_recorder_slot.owner == id_) return *t_recorder_slot.worker;
    std::lock_guard lock(mutex_);
    workers_.push_back(std::make_unique<Worker>());
    Worker& w = *workers_.back();
    w.owner_ = this;
    for (const BufferRange& b : buffers_) w.ranges_.push_back({static_cast<const unsigned char*>(b.base), b.bytes});
    w.ranges_.push_back({nullptr, shared_bytes_});  // its base: the running block's (begin_thread)
    w.threads_ = threads_;
    w.warps_ = warps_;
    w.seq_.assign(threads_, 0);
    t_recorder_slot.owner = id_;
    t_recorder_slot.worker = &w;
    return w;
}

bool MemoryRecorder::kept(std::uint64_t block) const {
    return std::binary_search(options_.keep_blocks.begin(), options_.keep_blocks.end(), block);
}

void MemoryRecorder::next_block(Worker& w, std::uint64_t block) {
    finish_block(w);
    start_block(w, block);
}

void MemoryRecorder::start_block(Worker& w, std::uint64_t block) {
    w.block = block;
    w.skip = options_.cancel && options_.cancel->requested();
    if (w.skip) cancelled_.store(true, std::memory_order_relaxed);
    w.keep = kept(block);
    std::fill(w.occurrences_.begin(), w.occurrences_.end(), 0u);
    std::fill(w.seq_.begin(), w.seq_.end(), 0u);
    for (auto& s : w.slots_) s.clear();
    w.pending_count_ = 0;
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
    if (w.occurrences_.size() < std::size_t(id + 1) * threads_) w.occurrences_.resize(std::size_t(id + 1) * threads_, 0u);
    if (w.slots_.size() < std::size_t(id + 1) * warps_) w.slots_.resize(std::size_t(id + 1) * warps_);
    if (w.per_site.size() <= id) w.per_site.resize(id + 1);
    return id;
}

void MemoryRecorder::finish_block(Worker& w) {
    if (w.block == ~std::uint64_t(0)) return;
    const std::uint64_t block = w.block;
    w.block = ~std::uint64_t(0);
    if (w.skip) return;
    const std::uint32_t nsites = warps_ ? std::uint32_t(w.slots_.size() / warps_) : 0u;

    const bool per_warp = w.keep || options_.all_warps;
    std::vector<MemoryMetrics>& warp_metrics = w.warp_metrics;
    warp_metrics.assign(per_warp ? warps_ : 0, MemoryMetrics{});
    std::vector<std::pair<std::uint64_t, std::size_t>> program_order;  // kept block: (warp, min seq) -> request
    const std::size_t first_kept = w.requests.size();

    // By warp, site, then occurrence: the order program_order's stable sort keeps among equal keys.
    LaneAccess lanes[kWarpSize];
    for (std::uint32_t warp = 0; warp < warps_; ++warp)
        for (std::uint32_t site = 0; site < nsites; ++site)
            for (const std::uint32_t index : w.slots_[std::size_t(site) * warps_ + warp]) {
                const PendingRequest& p = w.pending_[index];
                // A full warp's lanes are already in place; otherwise gather the present ones in lane order.
                const LaneAccess* present = p.lanes;
                std::size_t n = kWarpSize;
                if (p.lane_mask != ~std::uint32_t(0)) {
                    n = 0;
                    for (std::uint32_t mask = p.lane_mask; mask != 0; mask &= mask - 1)
                        lanes[n++] = p.lanes[__builtin_ctz(mask)];
                    present = lanes;
                }
                MemoryRequest m;
                m.block = block;
                m.warp = p.warp;
                m.site = p.site;
                m.occurrence = p.occurrence;
                m.space = p.space;
                m.access = p.access;
                m.buffer = p.buffer;
                const RequestCost cost =
                    p.space == MemorySpace::Shared ? shared_request_cost(present, n) : global_request_cost(present, n);
                m.sectors = cost.sectors;
                m.ideal_sectors = cost.ideal_sectors;
                m.wavefronts = cost.wavefronts;
                m.ideal_wavefronts = cost.ideal_wavefronts;
                w.totals.add(m);
                w.per_site[m.site].add(m);
                if (per_warp) warp_metrics[m.warp].add(m);
                if (w.keep) {
                    m.lanes.assign(present, present + n);
                    program_order.emplace_back((std::uint64_t(m.warp) << 32) | p.min_seq, w.requests.size());
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
