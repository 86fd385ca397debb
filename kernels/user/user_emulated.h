#pragma once
// The CPU path of a user kernel (issue 27, item 5): the user's CUDA C compiled at run time by the host
// compiler with ThreadSanitizer's instrumentation (compile only: no TSan runtime) and run by
// cudaviz-kernel-runner, an exec'ed process of its own, on the emulator: blocks in parallel, a block's
// threads as fibers when the kernel calls __syncthreads(), __shared__ per block, and every global and
// shared load and store recorded with its source line into the MemoryRecorder the built-in kernels
// use, so its figures are exactly those of a built-in body with the same accesses. A fault (an access
// outside a buffer, an invalid pointer, an endless loop, a divergent barrier, a crash) ends the runner,
// never the caller, and comes back as a Fault with the user's message.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../core/block_schedule.h"
#include "../core/cancel_token.h"
#include "../trace/memory_trace.h"
#include "user_kernel.h"

namespace cvz::user {

struct CompileOutput {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;  // mapped onto the user's file (errors and warnings)
    double seconds = 0;                   // compile and link, wall clock
    std::string log;                      // the compiler's own output, for a "details" box
};

class EmulatedKernel {
public:
    EmulatedKernel() = default;
    // Compiles `kernel` of `file`. Never throws; on failure the kernel is invalid and out->diagnostics
    // say why, at the user's lines.
    // `cancel`, when given, stops the compiler (the kernel is then invalid, with a message saying so).
    static EmulatedKernel compile(const SourceFile& file, const KernelSignature& kernel, CompileOutput* out,
                                  const CancelToken* cancel = nullptr);

    bool valid() const { return state_ != nullptr; }
    const KernelSignature& signature() const;
    const std::string& file_name() const;
    bool barriers() const;  // the file calls __syncthreads(): blocks run as fibers
    // A second object, the direct unit (emulated_source.h, EmulatedSource::direct_text), was built beside
    // the instrumented one: untraced launches run on it, at about the speed of plain compiled code, with
    // every access through a pointer parameter checked against its buffer inline. Built at the same
    // time as the instrumented object, by a second compiler process.
    bool direct() const;

    struct State;
    const State* state() const { return state_.get(); }
    std::shared_ptr<const State> shared_state() const { return state_; }

private:
    std::shared_ptr<const State> state_;  // the compiled object in its private directory; shared by copies
};

struct EmulatedRunOptions {
    double time_limit_s = 30;            // wall clock, then the runner is killed (Fault::TimeLimit)
    bool trace = false;                  // record the memory trace
    // keep_blocks, all_warps, sample_blocks; progress is called on the caller's thread as the runner
    // reports it; its cancel is not read (use `cancel` below, which stops the runner)
    TraceOptions trace_options;
    bool writers = false;                // record who wrote each element of the writable buffers
    bool schedule = false;               // record the block schedule (the host workers as "SMs")
    unsigned host_threads = 0;           // 0: one per core
    std::size_t dynamic_shared_bytes = 0;  // `extern __shared__` memory per block
    // Loads and stores one traced block may make before the run is stopped as an endless loop (a
    // traced block keeps its log until it ends), each thread its share; 0: no limit.
    std::uint64_t access_budget = std::uint64_t(1) << 25;
    const CancelToken* cancel = nullptr;
    // Untraced launches (no trace, no writers, no sample) of a kernel with a direct object run on it;
    // when it meets any fault but the time limit, the launch runs again on the instrumented object,
    // from the caller's buffers, which names the fault exactly. false: the instrumented object always.
    bool direct = true;
    // Runs on the direct object go to the kernel's kept runner: one process that serves run after run of
    // this kernel (no start, no loading, the buffers mapped once), replaced when a fault or the time
    // limit ended it. At most one kernel has one (see end_kept_runner). false: a runner of its own.
    bool keep_runner = true;
};

struct EmulatedRunResult {
    Status status;                // not ok: the launch was refused (InvalidInput) or the runner is missing (Unavailable)
    Fault fault = Fault::None;    // how the kernel's run ended, when not normally
    std::string message;          // the fault's message, the user's (user_kernel.h)
    MemoryTrace trace;            // options.trace
    std::vector<std::vector<Writer>> writers;  // options.writers: per writable arg (in arg order), per element
    std::vector<BlockTiming> schedule;         // options.schedule: per linear block id
    std::string output;           // what the kernel printed (printf), up to 1 MiB
    double seconds = 0;           // the runner's wall clock, start to end (both runs' when it ran twice)
    bool direct = false;            // the result is the direct object's (a fault it met was run again: false)
    int runner_pid = 0;             // the runner process that gave the result (a kept runner gives several)

    bool ok() const { return status.is_ok() && fault == Fault::None; }
};

// Runs the kernel over `launch`: its buffers are copied into memory shared with the runner, and the
// writable ones copied back only when the kernel ran to its end.
EmulatedRunResult run_emulated(const EmulatedKernel& kernel, const UserLaunch& launch, const EmulatedRunOptions& options);

// The kept runner (EmulatedRunOptions::keep_runner): the process id of `kernel`'s, 0 when it has none
// (none was started, or the last one ended). A kernel's runner ends with its last copy, when a run of
// another kernel starts one, at end_kept_runner, and at every compile (a new compile ends the old runner).
int kept_runner_pid(const EmulatedKernel& kernel);
// Ends the kept runner, whichever kernel has it (one that is serving a run ends when the run does).
void end_kept_runner();

// Where cudaviz-kernel-runner is: $CUDAVIZ_KERNEL_RUNNER, else beside the running executable, else its
// place in the build tree; empty when none exists.
std::string kernel_runner_path();

}  // namespace cvz::user
