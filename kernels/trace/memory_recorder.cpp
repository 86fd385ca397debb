#include "memory_recorder.h"

#include <algorithm>

#include "../core/cancel_token.h"
#include "../core/cpu_dispatch.h"
#include "../core/index_math.h"
#include "global_request_cost.h"
#include "request_cost.h"

namespace cvz {

namespace {

std::atomic<std::uint64_t> g_next_recorder_id{1};

}  // namespace

void TraceWorker::new_site(CachedSite& c, std::uint64_t word) {
    const char* file;
    std::uint64_t key;
    std::uint32_t bytes;
    if (site_word::interned(word)) {
        const InternedSite& s = interned_[site_word::interned_index(word)];
        file = s.file;
        key = s.key;
        bytes = std::uint32_t(s.bytes);
    } else {
        file = site_word::file(word);
        key = site_word::key(word);
        bytes = site_word::bytes(word);
    }
    c.word = word;
    c.bytes = bytes;
    c.id = owner_->site_id(*this, AccessSite{file, unsigned(key / 2)}, Access(key % 2));
}

std::uint64_t TraceWorker::intern(const char* file, std::uint64_t key, std::size_t bytes) {
    std::size_t i = 0;
    while (i < interned_.size() && !(interned_[i].file == file && interned_[i].key == key && interned_[i].bytes == bytes)) ++i;
    if (i == interned_.size()) interned_.push_back(InternedSite{file, key, bytes});
    return site_word::kInterned | i;
}

std::uint64_t* TraceWorker::grow(WarpLog& w, std::uint64_t* const* at) {
    const std::size_t rows = std::max<std::size_t>(8, 2 * w.rows);
    std::vector<std::uint64_t> words(rows * WarpLog::kRow);
    std::copy(w.words.begin(), w.words.end(), words.begin());
    for (std::uint32_t l = 0; l < kWarpSize; ++l) w.at[l] = words.data() + w.length(l) * WarpLog::kRow + l;
    w.cap = words.data() + rows * WarpLog::kRow;
    w.words.swap(words);
    w.rows = rows;
    return *at;
}

bool TraceWorker::find_range(const unsigned char* q, std::int32_t& hint, std::uint64_t& offset) const {
    for (std::size_t i = 0; i < ranges_.size(); ++i)
        if (within(std::int32_t(i), q, offset)) {
            hint = std::int32_t(i);
            return true;
        }
    return false;
}

std::int32_t TraceWorker::locate_slow(const unsigned char* q, std::int32_t& hint, std::uint64_t& offset) {
    if (find_range(q, hint, offset)) return hint;
    offset = reinterpret_cast<std::uintptr_t>(q);
    ++unmapped;
    return -1;
}

void TraceWorker::next_warp(std::uint32_t warp) {
    if (open_warp != ~std::uint32_t(0))
        reduce_warp(open_warp, warp_logs_[0], std::min(kWarpSize, threads_ - open_warp * kWarpSize));
    open_warp = warp;
}

inline bool TraceWorker::same_rows(const WarpLog& log) {
    // 32 lanes that all logged as many entries, the same in every row (sites, sizes and barriers).
    const std::size_t rows = log.length(0);
    if (rows == 0) return false;
    std::uintptr_t apart = 0;  // lane l's position is lane 0's plus l
    for (std::uint32_t l = 0; l < kWarpSize; ++l)
        apart |= reinterpret_cast<std::uintptr_t>(log.at[l]) ^
                 (reinterpret_cast<std::uintptr_t>(log.at[0]) + l * sizeof(std::uint64_t));
    bool same = apart == 0;
    for (std::size_t k = 0; k < rows && same; ++k) {
        const std::uint64_t* const e = log.sites(k);
        std::uint64_t differ = 0;
        for (std::uint32_t l = 0; l < kWarpSize; ++l) differ |= e[l] ^ e[0];
        same = differ == 0;
    }
    return same;
}

void TraceWorker::name_sites_in_order() {
    // A site's id is given when it is first met (so that the trace lists sites as the body first ran
    // them); with barriers the block ran round by round, every thread up to its next barrier in thread
    // order, which the warps' logs, reduced warp by warp, would not follow. In a warp whose lanes all
    // logged the same rows, lane 0 meets every site first.
    const std::size_t threads = warp_logs_.size() * kWarpSize;
    std::vector<std::size_t>& at = name_at_;
    at.assign(threads, 0);
    std::vector<char>& only_first = name_first_lane_;
    only_first.assign(warp_logs_.size(), 0);
    for (std::size_t w = 0; w < warp_logs_.size(); ++w) only_first[w] = same_rows(warp_logs_[w]);
    for (bool more = true; more;) {
        more = false;
        for (std::size_t t = 0; t < threads; ++t) {
            const WarpLog& log = warp_logs_[t / kWarpSize];
            const std::uint32_t l = std::uint32_t(t % kWarpSize);
            if (log.rows == 0 || (l != 0 && only_first[t / kWarpSize])) continue;
            const std::size_t length = log.length(l);
            std::size_t k = at[t];
            for (; k < length && log.sites(k)[l] != site_word::kBarrier; ++k) (void)site_of(log.sites(k)[l]);
            if (k < length) {  // a barrier
                ++k;
                more = true;
            }
            at[t] = k;
        }
    }
}

inline void TraceWorker::add(std::uint32_t warp, std::uint32_t site, MemorySpace space, Access access, const RequestCost& cost) {
    RequestCounts MemoryMetrics::*const kind =
        space == MemorySpace::Global     ? (access == Access::Load ? &MemoryMetrics::global_ld : &MemoryMetrics::global_st)
        : space == MemorySpace::Constant ? &MemoryMetrics::constant_ld
                                         : (access == Access::Load ? &MemoryMetrics::shared_ld : &MemoryMetrics::shared_st);
    const auto add_to = [&](MemoryMetrics& m) {
        RequestCounts& c = m.*kind;
        ++c.requests;
        c.sectors += cost.sectors;
        c.ideal_sectors += cost.ideal_sectors;
        c.wavefronts += cost.wavefronts;
        c.ideal_wavefronts += cost.ideal_wavefronts;
    };
    add_to(totals);
    add_to(per_site[site]);
    if (per_warp) add_to(warp_metrics[warp]);
}

inline void TraceWorker::reduce_logged_warp(std::uint32_t warp, WarpLog& log, std::uint32_t lanes) {
    std::uint64_t* const base = log.words.data();
    // The common warp: 32 lanes that all logged as many entries, the same in every row (sites, sizes
    // and barriers: with fibers, entry k of every lane then ran in the same round, where lanes run in
    // order). A kept block's requests need their program order: the general grouping.
    const std::size_t rows = log.length(0);
    if (lanes == kWarpSize && !keep && same_rows(log)) {
        // Request k is row k; it opened with lane 0.
        for (std::size_t k = 0; k < rows; ++k) cost_full_row(warp, log, k);
    } else {
        // The lanes that logged anything, and whether all of them logged the same entries.
        std::size_t length[kWarpSize];
        std::uint32_t lane_of[kWarpSize], count = 0;
        for (std::uint32_t l = 0; l < lanes; ++l) {
            length[l] = log.length(l);
            if (length[l] != 0) lane_of[count++] = l;
        }
        if (count != 0) {
            const std::size_t n = length[lane_of[0]];
            bool same = !keep;
            for (std::uint32_t i = 1; i < count && same; ++i) same = length[lane_of[i]] == n;
            for (std::size_t k = 0; k < n && same; ++k) {
                const std::uint64_t* const e = log.sites(k);
                std::uint64_t differ = 0;
                for (std::uint32_t i = 1; i < count; ++i) differ |= e[lane_of[i]] ^ e[lane_of[0]];
                same = differ == 0;
            }
            if (same) {
                // Request k is row k of the present lanes; it opened with the lowest of them.
                for (std::size_t k = 0; k < n; ++k) cost_row(warp, log, k, lane_of, count);
            } else {
                regroup_warp(warp, log, length, lanes);
            }
        }
    }
    for (std::uint32_t l = 0; l < kWarpSize; ++l) log.at[l] = base + l;
}

inline void TraceWorker::cost_full_row(std::uint32_t warp, const WarpLog& log, std::size_t k) {
    const std::uint64_t word = log.sites(k)[0];
    if (word == site_word::kBarrier) return;
    const CachedSite& logged = site_of(word);
    const std::uint32_t site = logged.id;
    const std::uint64_t* const address = log.addresses(k);
    std::int32_t& hint = site_buffer_[site];
    // Every lane in lane 0's global buffer (the common case): offsets from its base, costed as one size.
    // (A line with two loads alternates between two buffers: lane 0's is searched when not the last.)
    const auto* first = reinterpret_cast<const unsigned char*>(address[0]);
    std::uint64_t offset;
    if ((within(hint, first, offset) || find_range(first, hint, offset)) && space_of(hint) == MemorySpace::Global) {
        RequestCost cost;
        // (global_warp_request_cost, inlined: this runs on the CPU path in use already.)
        if (request_cost_detail::warp_cost(address, reinterpret_cast<std::uintptr_t>(ranges_[hint].base),
                                           ranges_[hint].bytes, logged.bytes, cost)) {
            add(warp, site, MemorySpace::Global, site_access_[site], cost);
            return;
        }
    }
    static constexpr std::uint32_t identity[kWarpSize] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    cost_row(warp, log, k, identity, kWarpSize);
}

inline void TraceWorker::cost_row(std::uint32_t warp, const WarpLog& log, std::size_t k, const std::uint32_t* lane_of,
                                  std::uint32_t count) {
    const std::uint64_t word = log.sites(k)[lane_of[0]];
    if (word == site_word::kBarrier) return;
    const CachedSite& logged = site_of(word);
    const std::uint32_t site = logged.id, bytes = logged.bytes;
    const std::uint64_t* const address = log.addresses(k);
    std::int32_t& hint = site_buffer_[site];
    // Lane by lane, each in its own buffer (as the general grouping does); the request's is its first lane's.
    LaneAccess* const request = row_lanes_;  // (a member: a local array would be zeroed on every call)
    std::int32_t buffer = -1;
    for (std::uint32_t i = 0; i < count; ++i) {
        std::uint64_t o;
        const std::int32_t b = locate(reinterpret_cast<const void*>(address[lane_of[i]]), hint, o);
        if (i == 0) buffer = b;
        request[i] = LaneAccess{lane_of[i], bytes, o};
    }
    const MemorySpace space = space_of(buffer);
    add(warp, site, space, site_access_[site],
        space == MemorySpace::Shared     ? shared_request_cost(request, count)
        : space == MemorySpace::Constant ? constant_request_cost(request, count)
                                         : request_cost_detail::global_cost(request, count));
}

void TraceWorker::reduce_warp(std::uint32_t warp, WarpLog& log, std::uint32_t lanes) {
    if (log.rows == 0) return;  // nothing was ever logged
    // Compiled for the CPU path in use: the checks and offsets of a row of 32 lanes vectorise. (The
    // helpers it runs are `inline`, as the library is built with -fPIC, where a function that could
    // be interposed is never inlined, not even by `flatten`.)
    on_cpu_path([&] { reduce_logged_warp(warp, log, lanes); });
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
    r.space = space_of(buffer);
    r.access = access;
    slots_[site].push_back(pending_count_);
    return pending_count_++;
}

__attribute__((noinline)) void TraceWorker::regroup_warp(std::uint32_t warp, const WarpLog& log, const std::size_t* length, std::uint32_t lanes) {
    // (Sized by the recorder for every site this worker knows, which a site first met here grows.)
    std::fill(occurrences_.begin(), occurrences_.end(), 0u);
    for (auto& s : slots_) s.clear();
    pending_count_ = 0;

    // The lanes' accesses in the order they ran: round by round (a round runs every lane up to its next
    // barrier, lanes in order; without barriers there is one round), a lane's k-th execution of a site
    // into the k-th request of the site.
    std::size_t at[kWarpSize] = {};
    std::uint32_t seq[kWarpSize] = {};
    for (bool more = true; more;) {
        more = false;
        for (std::uint32_t l = 0; l < lanes; ++l) {
            std::size_t k = at[l];
            for (; k < length[l]; ++k) {
                const std::uint64_t word = log.sites(k)[l];
                if (word == site_word::kBarrier) break;
                const CachedSite& logged = site_of(word);
                const std::uint32_t site = logged.id, bytes = logged.bytes;
                const std::uint32_t n = occurrences_[std::size_t(site) * kWarpSize + l]++;
                std::uint64_t offset;
                const std::int32_t buffer =
                    locate(reinterpret_cast<const void*>(log.addresses(k)[l]), site_buffer_[site], offset);
                const std::vector<std::uint32_t>& slots = slots_[site];
                const std::uint32_t index = n < slots.size() ? slots[n] : open_request(site, warp, n, site_access_[site], buffer);
                PendingRequest& r = pending_[index];
                r.lane_mask |= 1u << l;
                r.lanes[l] = LaneAccess{l, bytes, offset};
                const std::uint32_t s = seq[l]++;
                if (s < r.min_seq) r.min_seq = s;
            }
            if (k < length[l]) {  // a barrier: the lane goes on in the next round
                ++k;
                more = true;
            }
            at[l] = k;
        }
    }

    // By site, then occurrence: the order the program-order sort keeps among equal keys.
    const std::uint32_t nsites = std::uint32_t(slots_.size());
    const std::size_t first_kept = requests.size();
    program_order_.clear();
    LaneAccess gathered[kWarpSize];
    for (std::uint32_t site = 0; site < nsites; ++site)
        for (const std::uint32_t index : slots_[site]) {
            const PendingRequest& p = pending_[index];
            // A full warp's lanes are already in place; otherwise gather the present ones in lane order.
            const LaneAccess* present = p.lanes;
            std::size_t n = kWarpSize;
            if (p.lane_mask != ~std::uint32_t(0)) {
                n = 0;
                for (std::uint32_t mask = p.lane_mask; mask != 0; mask &= mask - 1)
                    gathered[n++] = p.lanes[__builtin_ctz(mask)];
                present = gathered;
            }
            const RequestCost cost = p.space == MemorySpace::Shared     ? shared_request_cost(present, n)
                                     : p.space == MemorySpace::Constant ? constant_request_cost(present, n)
                                                                        : global_request_cost(present, n);
            add(warp, p.site, p.space, p.access, cost);
            if (keep) {
                MemoryRequest m;
                m.block = block;
                m.warp = p.warp;
                m.site = p.site;
                m.occurrence = p.occurrence;
                m.space = p.space;
                m.access = p.access;
                m.buffer = p.buffer;
                m.sectors = cost.sectors;
                m.ideal_sectors = cost.ideal_sectors;
                m.wavefronts = cost.wavefronts;
                m.ideal_wavefronts = cost.ideal_wavefronts;
                m.lanes.assign(present, present + n);
                program_order_.emplace_back(p.min_seq, requests.size());
                requests.push_back(std::move(m));
            }
        }
    if (keep) {
        // Program order within the warp: by the first access any lane made of the request.
        std::stable_sort(program_order_.begin(), program_order_.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        sorted_.clear();
        for (const auto& p : program_order_) sorted_.push_back(std::move(requests[p.second]));
        requests.resize(first_kept);
        for (MemoryRequest& m : sorted_) requests.push_back(std::move(m));
    }
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
    for (const BufferRange& b : buffers_) w.ranges_.push_back({static_cast<const unsigned char*>(b.base), b.bytes, b.space});
    w.ranges_.push_back({nullptr, shared_bytes_, MemorySpace::Shared});  // its base: the running block's (begin_thread)
    w.threads_ = threads_;
    w.warps_ = warps_;
    // With barriers every warp of the block keeps its own log; without, the first serves each warp in turn.
    w.warp_logs_.resize(warps_);
    t_recorder_slot.owner = id_;
    t_recorder_slot.worker = &w;
    return w;
}

bool MemoryRecorder::kept(std::uint64_t block) const {
    return std::binary_search(options_.keep_blocks.begin(), options_.keep_blocks.end(), block);
}

void MemoryRecorder::next_block(Worker& w, std::uint64_t block, const void* shared) {
    finish_block(w);
    start_block(w, block);
    w.ranges_.back().base = static_cast<const unsigned char*>(shared);
}

void MemoryRecorder::start_block(Worker& w, std::uint64_t block) {
    w.block = block;
    w.skip = options_.cancel && options_.cancel->requested();
    if (w.skip) cancelled_.store(true, std::memory_order_relaxed);
    w.keep = kept(block);
    w.per_warp = w.keep || options_.all_warps;
    w.warp_metrics.assign(w.per_warp ? warps_ : 0, MemoryMetrics{});
    w.whole_block = false;
    w.open_warp = ~std::uint32_t(0);
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
    if (w.site_access_.size() <= id) {
        w.site_access_.resize(id + 1, Access::Load);
        w.site_buffer_.resize(id + 1, 0);
        w.occurrences_.resize(std::size_t(id + 1) * kWarpSize, 0u);
        w.slots_.resize(id + 1);
    }
    w.site_access_[id] = access;
    if (w.per_site.size() <= id) w.per_site.resize(id + 1);
    return id;
}

void MemoryRecorder::finish_block(Worker& w) {
    if (w.block == ~std::uint64_t(0)) return;
    const std::uint64_t block = w.block;
    if (!w.skip) {
        // The warps not reduced yet: all of them with barriers, else the last one that ran.
        if (w.whole_block) {
            w.name_sites_in_order();
            for (std::uint32_t warp = 0; warp < warps_; ++warp)
                w.reduce_warp(warp, w.warp_logs_[warp], std::min(kWarpSize, threads_ - warp * kWarpSize));
        } else if (w.open_warp != ~std::uint32_t(0)) {
            w.next_warp(~std::uint32_t(0));
        }
        for (std::uint32_t i = 0; i < w.warp_metrics.size(); ++i) w.warps.push_back(WarpMetrics{block, i, w.warp_metrics[i]});
    }
    w.block = ~std::uint64_t(0);
    if (w.skip) return;
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
    for (const BufferRange& b : buffers_) t.buffers.push_back(TraceBuffer{b.name, b.space, b.bytes});
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
