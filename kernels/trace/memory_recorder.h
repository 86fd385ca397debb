#pragma once
// The traced context's observer that makes a MemoryTrace (memory_trace.h). Blocks run in parallel on
// host threads; each host thread logs the accesses of the block it is running only, lane by lane,
// forms and costs each warp's requests once the warp has run, and adds their figures to its own
// totals per kernel, per site and per warp. Whole requests are kept only for the blocks the caller asked for,
// so an 8K image never holds its trace in memory. finish() merges the host threads' figures.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../emulator/access_site.h"
#include "../emulator/emu_context.h"
#include "memory_trace.h"
#include "request_cost.h"
#include "site_word.h"

namespace cvz {

// A buffer the launch reads or writes, by its host address: global memory, or constant memory (a
// buffer the body reads as __constant__ on the GPU; its requests are costed as memory_trace.h says).
struct BufferRange {
    std::string name;
    const void* base = nullptr;
    std::size_t bytes = 0;
    MemorySpace space = MemorySpace::Global;
};

class MemoryRecorder;

// A warp's log, row by row: lane l's k-th entry is row k, column l, so that when every lane logged the
// same sequence of sites row k is request k, contiguous. An entry is what the access's call site and
// the access itself give, without a lookup: its host address and its site word (site_word.h: the site
// and the size; 0 for a barrier the lane passed, which tells the rounds of a block's fibers apart).
// Row k holds its 32 addresses, then its 32 site words, so that a lane's site word is a constant
// distance from its address.
struct WarpLog {
    static constexpr std::size_t kRow = 2 * kWarpSize;  // words per row
    std::vector<std::uint64_t> words;  // rows * kRow
    std::size_t rows = 0;
    // Where each lane's next address goes (row k, column l); its site word goes kWarpSize words on.
    // cap: the end of the rows.
    std::uint64_t* at[kWarpSize] = {};
    std::uint64_t* cap = nullptr;
    const std::uint64_t* addresses(std::size_t row) const { return words.data() + row * kRow; }
    const std::uint64_t* sites(std::size_t row) const { return words.data() + row * kRow + kWarpSize; }
    // The entries lane l has logged.
    std::size_t length(std::uint32_t l) const {
        return rows ? std::size_t(at[l] - words.data() - l) / kRow : 0;
    }
};

// One request of a warp being regrouped exactly (PendingRequest is filled lane by lane as the log is
// replayed in execution order): a lane's k-th execution of a site goes into the k-th request of the
// site.
struct PendingRequest {
    std::uint32_t warp;
    std::uint32_t site;
    std::uint32_t occurrence;
    std::uint32_t lane_mask;  // bit l: lane l took part
    std::uint32_t min_seq;    // the first access any lane made of it, in its thread's order: program order
    std::int32_t buffer;      // of the lane that opened it (-1: in no registered buffer)
    MemorySpace space;
    Access access;
    LaneAccess lanes[kWarpSize];  // by lane; valid where lane_mask has its bit
};

// What one host thread of a traced launch records into. The body runs through
// TracedContext<TraceThread>, so the recording is inlined into it (the emulator's runner is
// flattened): per access two stores into the lane's log and the bump of its position. Requests are
// formed warp by warp once the warp has run (without barriers: when the next warp starts; with barriers, whose
// lanes interleave, when the block ends): when every lane that made an access made the same sequence
// of sites (the common case), the k-th entries of the lanes are request k and are costed straight
// from the logs; otherwise, and for the blocks kept whole, the logs are replayed in execution order
// into requests by (site, occurrence), the exact general grouping.
class TraceWorker {
public:
    // Out of line: a warp's log that is full grows, for all its lanes (the flattened runner must not
    // inline that); returns where the lane whose position is *at logs its next address.
    std::uint64_t* grow(WarpLog& log, std::uint64_t* const* at);
    // Out of line: the word of a site that does not pack (site_word.h), from this thread's table.
    std::uint64_t intern(const char* file, std::uint64_t key, std::size_t bytes);

private:
    friend class MemoryRecorder;
    struct Range {
        const unsigned char* base;
        std::size_t bytes;
        MemorySpace space;
    };
    struct CachedSite {
        std::uint64_t word = site_word::kBarrier;  // never looked up
        std::uint32_t id = 0;
        std::uint32_t bytes = 0;
    };
    struct InternedSite {
        const char* file;
        std::uint64_t key;  // line * 2 + access
        std::size_t bytes;
    };

    // The site and size of a logged site word: a direct-mapped cache by its line and access (the few
    // sites of a body never collide in 64 slots in practice, and a collision only costs a trip to the
    // recorder).
    const CachedSite& site_of(std::uint64_t word) {
        CachedSite& c = site_cache_[(word >> (site_word::kFileBits + 4) ^ word) & 63];
        if (c.word != word) new_site(c, word);
        return c;
    }
    // Fills c for a site not in the cache (its id from the recorder).
    void new_site(CachedSite& c, std::uint64_t word);
    // With barriers, at the block's end: ids for the sites first met in it, in the order they ran.
    void name_sites_in_order();
    // True when the warp's 32 lanes logged the same entries, row by row.
    bool same_rows(const WarpLog& log);
    // Without barriers: the thread about to run is in `warp`, so the warp before it is done.
    void next_warp(std::uint32_t warp);
    // Forms, costs and adds up the requests of one warp of the running block from its log (`lanes`
    // lanes), and empties the log.
    void reduce_warp(std::uint32_t warp, WarpLog& log, std::uint32_t lanes);
    void reduce_logged_warp(std::uint32_t warp, WarpLog& log, std::uint32_t lanes);
    // Request k of a warp whose `count` present lanes (lane_of) all logged the same sites: row k.
    void cost_full_row(std::uint32_t warp, const WarpLog& log, std::size_t k);  // 32 lanes
    void cost_row(std::uint32_t warp, const WarpLog& log, std::size_t k, const std::uint32_t* lane_of, std::uint32_t count);
    // The exact general grouping of one warp: its log replayed in execution order into requests.
    void regroup_warp(std::uint32_t warp, const WarpLog& log, const std::size_t* length, std::uint32_t lanes);
    std::uint32_t open_request(std::uint32_t site, std::uint32_t warp, std::uint32_t occurrence, Access access,
                               std::int32_t buffer);
    // Adds one costed request to the block's figures.
    void add(std::uint32_t warp, std::uint32_t site, MemorySpace space, Access access, const RequestCost& cost);
    bool within(std::int32_t range, const unsigned char* q, std::uint64_t& offset) const {
        offset = std::uint64_t(reinterpret_cast<std::uintptr_t>(q) - reinterpret_cast<std::uintptr_t>(ranges_[range].base));
        return offset < ranges_[range].bytes;
    }
    // The range that holds q, trying `hint` (a valid range index, updated to the one found) first;
    // -1 (offset: the address, counted as unmapped) in none. Ranges never overlap (each is its own
    // allocation), so the answer does not depend on the hint.
    std::int32_t locate(const void* address, std::int32_t& hint, std::uint64_t& offset) {
        const auto* q = static_cast<const unsigned char*>(address);
        if (within(hint, q, offset)) return hint;
        return locate_slow(q, hint, offset);
    }
    std::int32_t locate_slow(const unsigned char* q, std::int32_t& hint, std::uint64_t& offset);
    // The range that holds q, into hint (left as it was when none does).
    bool find_range(const unsigned char* q, std::int32_t& hint, std::uint64_t& offset) const;
    MemorySpace space_of(std::int32_t buffer) const {
        return buffer < 0 ? MemorySpace::Global : ranges_[std::size_t(buffer)].space;
    }

    MemoryRecorder* owner_ = nullptr;
    std::uint32_t threads_ = 0, warps_ = 0;
    std::vector<Range> ranges_;  // the global and constant buffers, then the running block's shared memory
    CachedSite site_cache_[64];
    std::vector<InternedSite> interned_;
    std::vector<Access> site_access_;  // [site]: the sites this worker has seen
    std::vector<std::int32_t> site_buffer_;  // [site]: the range its last access fell in (a hint)

    std::uint64_t block = ~std::uint64_t(0);
    bool skip = false;
    bool keep = false;
    bool per_warp = false;      // figures per warp for this block
    bool whole_block = false;   // the block runs with barriers: its logs are by thread id, reduced at its end
    std::uint32_t open_warp = ~std::uint32_t(0);  // without barriers: the warp whose lanes log now
    std::vector<WarpLog> warp_logs_;  // [warp] with barriers; without, [0] for each warp in turn
    std::vector<std::size_t> name_at_;     // scratch of name_sites_in_order
    std::vector<char> name_first_lane_;

    // Scratch of the general grouping, reused from warp to warp.
    std::vector<std::uint32_t> occurrences_;  // [site * kWarpSize + lane]
    // [site]: the warp's requests of that site by occurrence, as indices into pending_.
    std::vector<std::vector<std::uint32_t>> slots_;
    std::vector<PendingRequest> pending_;     // the warp's requests, the first `pending_count_` in use
    std::uint32_t pending_count_ = 0;
    std::vector<std::pair<std::uint32_t, std::size_t>> program_order_;  // kept block: (min seq, request)
    std::vector<MemoryRequest> sorted_;
    LaneAccess row_lanes_[kWarpSize];  // scratch of cost_row

    MemoryMetrics totals;
    std::vector<MemoryMetrics> per_site;
    std::vector<WarpMetrics> warps;
    std::vector<MemoryRequest> requests;
    std::uint64_t unmapped = 0;
    std::vector<MemoryMetrics> warp_metrics;  // the running block's, when per_warp
};

// The traced context's observer for one emulated thread: its host thread's worker and its own log,
// found once per thread rather than per access. Null when the block is skipped.
class TraceThread {
public:
    TraceThread() = default;
    TraceThread(TraceWorker* worker, WarpLog* log, std::uint32_t lane) : worker_(worker), log_(log), at_(&log->at[lane]) {}
    explicit operator bool() const { return worker_ != nullptr; }
    void on_access(const EmuContext&, Access access, const void* address, std::size_t bytes, const AccessSite& site) {
        // Line, access and size are constants once the body is inlined: the first test folds.
        const std::uint64_t key = std::uint64_t(site.line) * 2 + unsigned(access);
        append(address, site_word::packable_code(key, bytes) && site_word::packable_file(site.file)
                            ? site_word::pack(site.file, key, bytes)
                            : worker_->intern(site.file, key, bytes));
    }
    void on_sync(const EmuContext&) { append(nullptr, site_word::kBarrier); }

private:
    void append(const void* address, std::uint64_t word) {
        std::uint64_t* at = *at_;
        if (__builtin_expect(at >= log_->cap, 0)) at = worker_->grow(*log_, at_);
        at[0] = reinterpret_cast<std::uintptr_t>(address);
        at[kWarpSize] = word;
        *at_ = at + WarpLog::kRow;
    }

    TraceWorker* worker_ = nullptr;
    WarpLog* log_ = nullptr;
    std::uint64_t** at_ = nullptr;  // its lane's position in log_
};

// The worker a host thread last used, and the id of the recorder it belongs to.
struct RecorderThreadSlot {
    std::uint64_t owner = 0;
    TraceWorker* worker = nullptr;
};
inline thread_local RecorderThreadSlot t_recorder_slot;

class MemoryRecorder {
public:
    MemoryRecorder(Dim3 grid, Dim3 block, std::vector<BufferRange> buffers, std::size_t shared_bytes,
                   const TraceOptions& options);
    ~MemoryRecorder();
    MemoryRecorder(const MemoryRecorder&) = delete;
    MemoryRecorder& operator=(const MemoryRecorder&) = delete;

    // Called by the launch before each emulated thread's body: starts a new block when the thread
    // belongs to one, and returns the thread's observer to run the body's TracedContext with; null
    // when the trace was cancelled before its block started (skip the body; a block is skipped whole,
    // so a body with barriers never waits on a thread that did not run).
    // Inline, as the runner calls it once per emulated thread: a new block is out of line.
    TraceThread begin_thread(const EmuContext& ctx) { return begin_thread(ctx, this_thread_worker()); }
    // The same with this host thread's worker (this_thread_worker()) already found: a body run without
    // barriers keeps it from thread to thread, as the emulator runs a copy of such a body for each range
    // of blocks, on one host thread.
    TraceThread begin_thread(const EmuContext& ctx, TraceWorker& w) {
        const Dim3 t = ctx.thread_idx();
        const auto tid = std::uint32_t(t.x + std::uint64_t(block_.x) * (t.y + std::uint64_t(block_.y) * t.z));
        if (ctx.barrier_) {  // fibers: the block's threads interleave, so each keeps its own log to the end
            const std::uint64_t b = linear_block_id(ctx.block_idx(), grid_);
            if (b != w.block) next_block(w, b, ctx.shared_);
            if (w.skip) return {};
            w.whole_block = true;
            return TraceThread(&w, &w.warp_logs_[tid / kWarpSize], tid % kWarpSize);
        }
        // Without barriers the threads of a block run one after another in linear order from thread 0
        // (run_blocks_plain), so a block starts with its thread 0, and its warps one after another.
        if (tid == 0) next_block(w, linear_block_id(ctx.block_idx(), grid_), ctx.shared_);
        if (w.skip) return {};
        if (tid % kWarpSize == 0) w.next_warp(tid / kWarpSize);
        return TraceThread(&w, &w.warp_logs_[0], tid % kWarpSize);
    }

    TraceWorker& this_thread_worker() { return t_recorder_slot.owner == id_ ? *t_recorder_slot.worker : worker(); }

    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

    // After the launch: reduces the last block of every host thread and merges everything.
    MemoryTrace finish();

private:
    friend class TraceWorker;
    using Worker = TraceWorker;
    // This host thread's worker, made on its first call for this recorder.
    Worker& worker();
    // A new block (its shared memory at `shared`: the same for all its threads).
    void next_block(Worker& w, std::uint64_t block, const void* shared);
    std::uint32_t site_id(Worker& w, const AccessSite& site, Access access);
    void start_block(Worker& w, std::uint64_t block);
    void finish_block(Worker& w);
    bool kept(std::uint64_t block) const;
    void block_done();

    Dim3 grid_, block_;
    std::uint32_t threads_ = 0, warps_ = 0;
    std::vector<BufferRange> buffers_;
    std::size_t shared_bytes_ = 0;
    TraceOptions options_;
    std::uint64_t id_ = 0;  // tells this recorder's host-thread state from an earlier recorder's

    std::mutex mutex_;  // guards workers_, sites_ and progress calls
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<TraceSite> sites_;
    std::vector<std::pair<std::string, std::uint32_t>> site_keys_;  // "file:line:L|S" -> id, few entries

    std::atomic<std::uint64_t> blocks_done_{0};
    std::atomic<int> percent_reported_{-1};
    std::atomic<bool> cancelled_{false};
};

}  // namespace cvz
