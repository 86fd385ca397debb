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

// What one host thread of a traced launch records into: the traced context's observer. The body
// runs through TracedContext<TraceWorker>, so on_access is inlined into it (the emulator's runner is
// flattened) and costs a site lookup, two counters and a store into the lane's slot of its request;
// opening a request (once per warp and execution of a site) is out of line, and the block's reduction
// happens when the host thread moves on to its next block (MemoryRecorder).
class TraceWorker {
public:
    void on_access(const EmuContext& ctx, Access access, const void* address, std::size_t bytes, const AccessSite& site) {
        const std::uint32_t tid =
            std::uint32_t(ctx.thread_idx().x + block_x_ * (ctx.thread_idx().y + std::uint64_t(block_y_) * ctx.thread_idx().z));
        const std::uint32_t s = site_id(site, access);
        const std::uint32_t k = occurrences_[std::size_t(s) * threads_ + tid]++;
        const auto* q = static_cast<const unsigned char*>(address);
        const auto* shared = static_cast<const unsigned char*>(ctx.shared_);
        MemorySpace space;
        std::int32_t buffer;
        std::uint64_t offset;
        if (q >= shared && q < shared + shared_bytes_) {
            space = MemorySpace::Shared;
            buffer = std::int32_t(ranges_.size());  // the shared buffer follows the global ones
            offset = std::uint64_t(q - shared);
        } else {
            space = MemorySpace::Global;
            buffer = locate(q, offset);
        }
        const std::uint32_t warp = tid / kWarpSize;
        const std::vector<std::uint32_t>& slots = slots_[std::size_t(s) * warps_ + warp];
        const std::uint32_t index = k < slots.size() ? slots[k] : open_request(s, warp, k, space, access, buffer);
        PendingRequest& r = pending_[index];
        const std::uint32_t lane = tid % kWarpSize;
        r.lane_mask |= 1u << lane;
        r.lanes[lane] = LaneAccess{lane, std::uint32_t(bytes), offset};
        if (keep) {  // program order matters only for the requests kept whole
            const std::uint32_t seq = seq_[tid]++;
            if (seq < r.min_seq) r.min_seq = seq;
        }
    }
    void on_sync(const EmuContext&) {}

private:
    friend class MemoryRecorder;
    struct Range {
        const unsigned char* base;
        std::size_t bytes;
    };
    struct CachedSite {
        const char* file = nullptr;
        unsigned line = 0;
        Access access = Access::Load;
        std::uint32_t id = 0;
    };

    std::uint32_t site_id(const AccessSite& site, Access access) {
        // Direct-mapped by line: the few sites of a body never collide in 64 slots in practice, and a
        // collision only costs a trip to the recorder.
        const CachedSite& c = site_cache_[(site.line * 2 + unsigned(access)) & 63];
        if (c.line == site.line && c.file == site.file && c.access == access) return c.id;
        return new_site(site, access);
    }
    std::uint32_t new_site(const AccessSite& site, Access access);
    // Out of line: once per request, and it grows vectors (the flattened runner must not inline that).
    std::uint32_t open_request(std::uint32_t site, std::uint32_t warp, std::uint32_t occurrence, MemorySpace space,
                               Access access, std::int32_t buffer);
    std::int32_t locate(const unsigned char* q, std::uint64_t& offset) {
        for (std::size_t i = 0; i < ranges_.size(); ++i)
            if (q >= ranges_[i].base && q < ranges_[i].base + ranges_[i].bytes) {
                offset = std::uint64_t(q - ranges_[i].base);
                return std::int32_t(i);
            }
        offset = reinterpret_cast<std::uintptr_t>(q);
        ++unmapped;
        return -1;
    }

    MemoryRecorder* owner_ = nullptr;
    std::uint64_t block_x_ = 1, block_y_ = 1;
    std::uint32_t threads_ = 0, warps_ = 0;
    std::vector<Range> ranges_;
    std::size_t shared_bytes_ = 0;
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

class MemoryRecorder {
public:
    MemoryRecorder(Dim3 grid, Dim3 block, std::vector<BufferRange> buffers, std::size_t shared_bytes,
                   const TraceOptions& options);
    ~MemoryRecorder();
    MemoryRecorder(const MemoryRecorder&) = delete;
    MemoryRecorder& operator=(const MemoryRecorder&) = delete;

    // Called by the launch before each emulated thread's body: starts a new block when the thread
    // belongs to one, and returns the host thread's worker to run the body's TracedContext with; null
    // when the trace was cancelled before its block started (skip the body; a block is skipped whole,
    // so a body with barriers never waits on a thread that did not run).
    TraceWorker* begin_thread(const EmuContext& ctx);

    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

    // After the launch: reduces the last block of every host thread and merges everything.
    MemoryTrace finish();

private:
    friend class TraceWorker;
    using Worker = TraceWorker;
    Worker& worker();
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
