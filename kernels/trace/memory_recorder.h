#pragma once
// The traced context's observer that makes a MemoryTrace (memory_trace.h). Blocks run in parallel on
// host threads; each host thread fills the requests of the block it is running only, each access
// straight into its request, and when the block ends costs them in one pass and adds their figures
// to its own totals per kernel, per site and per warp. Whole requests are kept only for the blocks the caller asked for,
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

namespace cvz {

// A global buffer the launch reads or writes, by its host address.
struct BufferRange {
    std::string name;
    const void* base = nullptr;
    std::size_t bytes = 0;
};

class MemoryRecorder;

// One request of the running block, filled lane by lane as the accesses arrive: a lane's k-th
// execution of a site goes straight into the k-th request of its (warp, site), so the block's
// reduction is one pass over its requests, never a regrouping of records.
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
// TracedContext<TraceThread>, so record() is inlined into it (the emulator's runner is flattened) and
// costs a site lookup, a counter, a buffer check and a store into the lane's slot of its request;
// opening a request (once per warp and execution of a site) is out of line, and the block's reduction
// happens when the host thread moves on to its next block (MemoryRecorder).
class TraceWorker {
public:
    void record(std::uint32_t tid, Access access, const void* address, std::size_t bytes, const AccessSite& site) {
        // The site's cache entry, direct-mapped by line and access: the few sites of a body never collide
        // in 64 slots in practice, and a collision only costs a trip to the recorder.
        const std::uint32_t key = site.line * 2 + unsigned(access);
        CachedSite& c = site_cache_[key & 63];
        if (!(c.key == key && c.file == site.file)) new_site(c, site, access);
        const std::uint32_t k = c.occurrences[tid]++;
        // The two buffers this site hit last (a site addresses one buffer, or two when a line holds two
        // accesses: `ctx.load(a + i) * ctx.load(b + j)`); else a search.
        const auto* q = static_cast<const unsigned char*>(address);
        std::uint64_t offset;
        std::int32_t buffer = c.buffer;
        if (!within(buffer, q, offset) && !within(buffer = c.previous, q, offset)) buffer = locate(c, q, offset);
        const std::uint32_t warp = tid / kWarpSize;
        const std::vector<std::uint32_t>& slots = c.slots[warp];
        const std::uint32_t index = k < slots.size() ? slots[k] : open_request(c.id, warp, k, access, buffer);
        PendingRequest& r = pending_[index];
        const std::uint32_t lane = tid % kWarpSize;
        r.lane_mask |= 1u << lane;
        r.lanes[lane] = LaneAccess{lane, std::uint32_t(bytes), offset};
        if (keep) {  // program order matters only for the requests kept whole
            const std::uint32_t seq = seq_[tid]++;
            if (seq < r.min_seq) r.min_seq = seq;
        }
    }

private:
    friend class MemoryRecorder;
    struct Range {
        const unsigned char* base;
        std::size_t bytes;
    };
    struct CachedSite {
        const char* file = nullptr;
        std::uint32_t key = 0;  // line * 2 + access
        std::uint32_t id = 0;
        std::int32_t buffer = 0, previous = 0;  // indices into ranges_: the buffers the site addressed last
        std::uint32_t* occurrences = nullptr;   // the site's row of occurrences_
        std::vector<std::uint32_t>* slots = nullptr;  // the site's row of slots_
    };

    // Fills c for a site not in the cache (its id from the recorder).
    void new_site(CachedSite& c, const AccessSite& site, Access access);
    // Out of line: once per request, and it grows vectors (the flattened runner must not inline that).
    std::uint32_t open_request(std::uint32_t site, std::uint32_t warp, std::uint32_t occurrence, Access access,
                               std::int32_t buffer);
    bool within(std::int32_t range, const unsigned char* q, std::uint64_t& offset) const {
        offset = std::uint64_t(reinterpret_cast<std::uintptr_t>(q) - reinterpret_cast<std::uintptr_t>(ranges_[range].base));
        return offset < ranges_[range].bytes;
    }
    // The range that holds q, remembered as the site's last (ranges never overlap: each is its own
    // allocation); -1 (offset: the address) in none.
    std::int32_t locate(CachedSite& c, const unsigned char* q, std::uint64_t& offset);

    MemoryRecorder* owner_ = nullptr;
    std::uint32_t threads_ = 0, warps_ = 0;
    std::vector<Range> ranges_;  // the global buffers, then the running block's shared memory
    CachedSite site_cache_[64];

    std::uint64_t block = ~std::uint64_t(0);
    bool skip = false;
    bool keep = false;
    std::vector<std::uint32_t> occurrences_;  // [site * threads + tid]
    std::vector<std::uint32_t> seq_;          // [tid]
    // [site * warps + warp]: the running block's requests of that warp and site by occurrence, as
    // indices into pending_ (cleared per block, capacity kept).
    std::vector<std::vector<std::uint32_t>> slots_;
    std::vector<PendingRequest> pending_;     // the block's requests, the first `pending_count_` in use
    std::uint32_t pending_count_ = 0;

    MemoryMetrics totals;
    std::vector<MemoryMetrics> per_site;
    std::vector<WarpMetrics> warps;
    std::vector<MemoryRequest> requests;
    std::uint64_t unmapped = 0;

    // Scratch of the reduction, reused from block to block.
    std::vector<MemoryMetrics> warp_metrics;
};

// The traced context's observer for one emulated thread: its host thread's worker and its linear
// thread id, worked out once per thread rather than per access. Null when the block is skipped.
class TraceThread {
public:
    TraceThread() = default;
    TraceThread(TraceWorker* worker, std::uint32_t tid) : worker_(worker), tid_(tid) {}
    explicit operator bool() const { return worker_ != nullptr; }
    void on_access(const EmuContext&, Access access, const void* address, std::size_t bytes, const AccessSite& site) {
        worker_->record(tid_, access, address, bytes, site);
    }
    void on_sync(const EmuContext&) {}

private:
    TraceWorker* worker_ = nullptr;
    std::uint32_t tid_ = 0;
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
    TraceThread begin_thread(const EmuContext& ctx) {
        Worker& w = t_recorder_slot.owner == id_ ? *t_recorder_slot.worker : worker();
        const std::uint64_t b = linear_block_id(ctx.block_idx(), grid_);
        if (b != w.block) next_block(w, b);
        if (w.skip) return {};
        w.ranges_.back().base = static_cast<const unsigned char*>(ctx.shared_);
        const Dim3 t = ctx.thread_idx();
        return TraceThread(&w, std::uint32_t(t.x + std::uint64_t(block_.x) * (t.y + std::uint64_t(block_.y) * t.z)));
    }

    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

    // After the launch: reduces the last block of every host thread and merges everything.
    MemoryTrace finish();

private:
    friend class TraceWorker;
    using Worker = TraceWorker;
    // This host thread's worker, made on its first call for this recorder.
    Worker& worker();
    void next_block(Worker& w, std::uint64_t block);
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
