#pragma once
// The traced context's observer that makes a MemoryTrace (memory_trace.h). Blocks run in parallel on
// host threads; each host thread keeps the raw accesses of the block it is running only, and when
// the block ends reduces them to requests and adds the requests' figures to its own totals per
// kernel, per site and per warp. Whole requests are kept only for the blocks the caller asked for,
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

class MemoryRecorder {
public:
    MemoryRecorder(Dim3 grid, Dim3 block, std::vector<BufferRange> buffers, std::size_t shared_bytes,
                   const TraceOptions& options);
    ~MemoryRecorder();
    MemoryRecorder(const MemoryRecorder&) = delete;
    MemoryRecorder& operator=(const MemoryRecorder&) = delete;

    // Called by the launch before each emulated thread's body: starts a new block when the thread
    // belongs to one; false when the trace was cancelled before its block started (skip the body; a
    // block is skipped whole, so a body with barriers never waits on a thread that did not run).
    bool begin_thread(const EmuContext& ctx);

    void on_access(const EmuContext& ctx, Access access, const void* address, std::size_t bytes, const AccessSite& site);
    void on_sync(const EmuContext&) {}

    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

    // After the launch: reduces the last block of every host thread and merges everything.
    MemoryTrace finish();

private:
    struct Worker;
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
