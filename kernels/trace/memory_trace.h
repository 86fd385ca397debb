#pragma once
// The memory trace of one launch (issue 10): every load and store the kernel body makes through the
// traced context, grouped into warp-level requests and reduced to Nsight Compute's figures per
// kernel, per source line and per warp. Made by each family's traced launch
// (kernels/<family>/<family>_trace.h) on the emulator; Qt-free, so the app, the CLI and the tests share it.
//
// Definitions (exactly issue 10's):
// - warp: 32 consecutive linear thread ids t = tx + ty*bx + tz*bx*by of a block; the last warp of a
//   block may have fewer lanes.
// - request: the k-th execution of one access site by each lane of a warp, over the lanes that
//   execute it; a lane that skips a guarded access stays aligned with the others because k counts
//   that lane's executions of that site only. A site is the file:line of ctx.load/ctx.store and
//   whether it loads or stores: with no column to tell them apart (access_site.h), a line like
//   `ctx.store(as + i, in ? ctx.load(a + j) : 0.0f)` holds a guarded load and an unguarded store,
//   which must not share occurrences. Two loads on one line (`fmaf(ctx.load(a), ctx.load(b), acc)`)
//   are one site whose occurrences alternate between them, the same for every lane.
// - global addresses: byte offsets within each buffer, each buffer taken as 256-byte aligned (as
//   cudaMalloc returns): images as u8 (interleaved RGB, planar CxHxW, gray HxW), matrices as float32
//   row-major. sectors = the distinct aligned 32-byte segments [32s, 32s+32) the lanes' bytes touch.
// - ideal sectors of a global request = ceil(distinct bytes the lanes touch / 32): the fewest 32-byte
//   sectors that could hold them (Nsight Compute's "L2 Theoretical Sectors Global Ideal"); the excess
//   (sectors - ideal) is its "L2 Theoretical Sectors Global Excessive". A broadcast (every lane reads
//   one word) is 1 sector, ideal 1.
// - shared memory: 4-byte words, word = byte offset / 4, bank = word % 32. wavefronts of a request =
//   the largest number of distinct words addressed in any one bank (lanes reading one word is a
//   broadcast, not a conflict). 8-byte accesses are served per half-warp (lanes 0-15, 16-31) and
//   16-byte accesses per quarter-warp (lanes 0-7, 8-15, ...), as the hardware does: the request's
//   wavefronts are the sum over its groups that have a lane, each group counted as above, and its
//   ideal wavefronts the number of such groups (1 for 1-, 2- and 4-byte accesses). bank conflicts =
//   wavefronts - ideal wavefronts, i.e. wavefronts - requests for 4-byte accesses.
// - constant memory (a buffer the launch registers as constant, as a mask kept in __constant__ memory):
//   4-byte words as for shared memory. The constant cache serves one address per pass: a request's
//   wavefronts = the distinct words its lanes read (a broadcast, every lane one word, is 1; n distinct
//   words are n passes, serialised), ideal wavefronts 1; the excess is the serialisation (replays).
//   Nsight Compute has no per-request counterpart in the ten figures; its indexed constant cache unit
//   (idc) counts the compiled LDC instructions' requests, and a uniform read the compiler folds into an
//   instruction's constant operand makes none there. So these figures are kept apart from the ten.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../core/dim3.h"
#include "../emulator/access_site.h"

namespace cvz {

class CancelToken;

enum class MemorySpace : std::uint8_t { Global, Shared, Constant };

// One lane's part of a request.
struct LaneAccess {
    std::uint32_t lane = 0;    // 0..31
    std::uint32_t bytes = 0;   // 1, 4 or 16 in the catalogue
    std::uint64_t offset = 0;  // byte offset in the request's buffer (or in the block's shared memory)
};

// One warp-level request (the k-th execution of a site by the lanes of a warp).
struct MemoryRequest {
    std::uint64_t block = 0;       // linear block id (x fastest)
    std::uint32_t warp = 0;        // warp of the block
    std::uint32_t site = 0;        // index into MemoryTrace::sites (its line: sites[site].where)
    std::uint32_t occurrence = 0;  // k, from 0
    MemorySpace space = MemorySpace::Global;
    Access access = Access::Load;
    int buffer = -1;                  // index into MemoryTrace::buffers (the shared buffer for shared requests)
    std::vector<LaneAccess> lanes;    // by lane
    std::uint32_t sectors = 0;        // global: distinct 32-byte sectors
    std::uint32_t ideal_sectors = 0;  // global: ceil(distinct bytes / 32)
    std::uint32_t wavefronts = 0;     // shared; constant: distinct words (serialised passes)
    std::uint32_t ideal_wavefronts = 0;  // shared: groups with a lane (1, 2 or 4); constant: 1
};

// Sums over requests of one kind (space x load/store).
struct RequestCounts {
    std::uint64_t requests = 0;
    std::uint64_t sectors = 0;
    std::uint64_t ideal_sectors = 0;
    std::uint64_t wavefronts = 0;
    std::uint64_t ideal_wavefronts = 0;

    std::uint64_t excess_sectors() const { return sectors - ideal_sectors; }
    std::uint64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
    RequestCounts& operator+=(const RequestCounts& o);
};

// The ten figures of issue 10 under Nsight Compute's names, in this order.
constexpr std::size_t kNsightMetricCount = 10;
extern const std::array<const char*, kNsightMetricCount> kNsightMetricNames;

struct MemoryMetrics {
    RequestCounts global_ld, global_st, shared_ld, shared_st;
    // Constant-memory reads (requests, wavefronts = serialised passes, ideal 1 a request; the excess,
    // bank_conflicts(), is the replays of requests whose lanes read distinct addresses). Not one of the
    // ten figures: nsight() leaves it out. Constant memory is read-only, so there is no store kind.
    RequestCounts constant_ld;

    void add(const MemoryRequest& r);
    MemoryMetrics& operator+=(const MemoryMetrics& o);
    const RequestCounts& counts(MemorySpace space, Access access) const;
    RequestCounts& counts(MemorySpace space, Access access);
    // The value of each of kNsightMetricNames, in its order:
    //   l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum      global_ld.requests
    //   l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum       global_ld.sectors
    //   l1tex__t_requests_pipe_lsu_mem_global_op_st.sum      global_st.requests
    //   l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum       global_st.sectors
    //   smsp__sass_inst_executed_op_shared_ld.sum            shared_ld.requests
    //   smsp__sass_inst_executed_op_shared_st.sum            shared_st.requests
    //   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum shared_ld.wavefronts
    //   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum shared_st.wavefronts
    //   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum shared_ld.bank_conflicts()
    //   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum shared_st.bank_conflicts()
    std::array<std::uint64_t, kNsightMetricCount> nsight() const;
    // The value of one of kNsightMetricNames; false when `name` is not one of them.
    bool nsight(const std::string& name, std::uint64_t& value) const;
};

// A source line of a kernel body: file relative to the repository (starting at "kernels/", the path
// the app embeds the source under) and its 1-based line.
struct SourceLine {
    std::string file;
    unsigned line = 0;
};
bool operator<(const SourceLine& a, const SourceLine& b);
bool operator==(const SourceLine& a, const SourceLine& b);

// "kernels/matmul/matmul_body.h" from whatever path the compiler saw (the last "kernels/" on); the
// path unchanged when it has none.
std::string repo_relative_source(const char* compiler_path);

// An access site: a line and whether it loads or stores.
struct TraceSite {
    SourceLine where;
    Access access = Access::Load;
};

struct LineMetrics {
    SourceLine where;
    MemoryMetrics metrics;
};

struct WarpMetrics {
    std::uint64_t block = 0;  // linear block id
    std::uint32_t warp = 0;
    MemoryMetrics metrics;
};

// A buffer the trace maps addresses into.
struct TraceBuffer {
    std::string name;  // as the traced launch names it ("rgb", "A", "mask", ...); "shared" for shared memory
    MemorySpace space = MemorySpace::Global;
    std::uint64_t bytes = 0;
};

struct MemoryTrace {
    Dim3 grid, block;
    std::vector<TraceBuffer> buffers;   // MemoryRequest::buffer indexes this
    std::vector<TraceSite> sites;       // MemoryRequest::site indexes this
    MemoryMetrics totals;               // the whole launch
    std::vector<LineMetrics> lines;     // every line with an access, by file then line
    std::vector<WarpMetrics> warps;     // the kept blocks' warps (every warp with TraceOptions::all_warps), by block, warp
    std::vector<MemoryRequest> requests;  // the kept blocks' requests, by block, warp, then program order
    std::uint64_t unmapped_accesses = 0;  // addresses in no registered buffer (a body bug; 0 for the catalogue)

    // The requests of one warp of a kept block, in program order (empty when the block was not kept).
    std::vector<const MemoryRequest*> requests_of(std::uint64_t block, std::uint32_t warp) const;
    const LineMetrics* line(const std::string& file, unsigned line) const;
};

// What a traced launch records and how it reports.
struct TraceOptions {
    std::vector<std::uint64_t> keep_blocks;  // linear ids of the blocks whose requests are kept whole
    bool all_warps = false;                  // per-warp figures for every warp (memory grows with the grid)
    // When not empty: only these blocks (linear ids into the launch's grid, each once) run and are
    // recorded; the totals are theirs alone. The performance model traces a sample this way and scales.
    std::vector<std::uint64_t> sample_blocks;
    unsigned host_threads = 0;               // 0: one per core
    const CancelToken* cancel = nullptr;     // checked before each block; a cancelled trace returns an error
    // Fraction of blocks done, in [0, 1], nondecreasing; called from the emulator's host threads, one
    // call at a time, at most about 100 times per launch.
    std::function<void(double)> progress;
};

}  // namespace cvz
