#pragma once
// Running a user kernel on a family's problem (issue 27), for the CLI and the family sessions, without
// asking which family it is: pick the __global__ function, the call form its signature fits, the
// block and grid (the family's rule unless a grid is given), compile it, run it isolated on the
// emulator or the GPU, and compare its output with the family's reference. Safe on a worker thread.
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "app/trace/schedule_recorder.h"
#include "app/user/launch_dims.h"
#include "app/user/user_variants.h"
#include "kernels/core/block_schedule.h"
#include "kernels/core/cancel_token.h"
#include "kernels/core/dim3.h"
#include "kernels/core/kernel_timing.h"
#include "kernels/core/status.h"
#include "kernels/core/variant_dispatch.h"
#include "kernels/trace/memory_trace.h"
#include "kernels/trace/trace_result.h"
#include "kernels/user/user_call.h"
#include "kernels/user/user_kernel.h"

namespace cvz {

struct UserRunRequest {
    user::SourceFile source;
    std::string kernel_name;           // empty: the file's only __global__ function
    std::optional<Dim3> block;         // empty: 256 for a 1-D form, 16x16 otherwise
    std::optional<Dim3> grid;          // empty: the family's rule
    BackendChoice backend = BackendChoice::Auto;
    double time_limit_s = 30;
    bool writers = true;               // record who wrote each output element (for the comparison)
    bool trace = false;                // the emulator's memory trace (--metrics); on the GPU, a second, emulated run
    bool schedule = false;             // the block schedule of the run
    std::size_t max_listed = 20;       // differences listed in the comparison
    const CancelToken* cancel = nullptr;
};

// Where a run stopped, so that callers can tell the user what to fix.
enum class UserRunStage { Source, Form, Launch, Compile, Run, Done };

struct UserRunResult {
    UserRunStage stage = UserRunStage::Source;
    Status status;                     // InvalidInput for source, form, launch, compile and kernel faults;
                                       // Unavailable or Device for the backend
    user::Fault fault = user::Fault::None;
    std::vector<user::Diagnostic> diagnostics;  // the compile's, errors and warnings
    user::KernelSignature signature;
    std::string form;                  // CallForm::id
    bool one_d = false;
    bool barriers = false;             // the compiled kernel calls __syncthreads()
    Dim3 grid, block;
    QString backend;                   // "CPU emulator (2 threads)", "CUDA (NVIDIA H200)"
    double compile_s = 0;
    double run_ms = 0;                 // the kernel's time: on the GPU the warm median (CUDA events), on the
                                       // emulator the isolated runner's whole run
    QString time_text;                 // run_ms said with what it is: "kernel 0.113 ms warm (median of 20)"
    std::optional<KernelResources> resources;  // registers and static shared memory (NVRTC)
    MemoryTrace trace;                 // when asked
    BlockSchedule schedule;            // when asked
    std::vector<user::Writer> writers; // of the output, one per element
    user::Comparison comparison;       // when the run ended normally

    bool ok() const { return stage == UserRunStage::Done; }
};

// Runs the request over `call`'s problem; the output is left in `call` (FamilyCall::output). On the GPU a
// store outside a buffer is seen after the run in the runner's guard zones (the buffer and the elements);
// that, or a GPU error, re-runs the launch on the emulator, whose message (the thread and the line) is
// appended. A fault so confirmed is the kernel's: InvalidInput with the fault, as the emulator's own.
UserRunResult run_user_kernel(user::FamilyCall& call, const UserRunRequest& request);

// Runs the registered user kernel `v` over `call`'s problem with `block` (a 1-D form takes block.x) on
// `backend`, recording its writers, for a family session's run (the view's overlay, inspector and
// comparison). The output is left in `call`.
UserRunResult run_user_variant(const UserVariant& v, user::FamilyCall& call, Dim3 block, BackendChoice backend,
                               const CancelToken* cancel = nullptr);

// Compile and Run's run, handed on (issue 27): the editor runs the kernel, then makes it the family's
// variant, and the family's session would run it again to show it. offer_user_run keeps the editor's run
// (its result and output; call holds them); run_user_variant takes it instead of running when it asks
// for the same launch: the same kernel text and name, block, grid and backend, and the same input bytes.
// Taken once; a newer offer replaces it; a failed run is not kept.
void offer_user_run(user::FamilyCall& call, const UserRunRequest& request, const UserRunResult& result);
// How many launches run_user_kernel made in this process (emulated or on the GPU; not the traces):
// tests count runs with it.
std::uint64_t user_kernel_runs();

// Runs `v` as run_user_variant does, recording its block schedule (on the GPU %smid and %globaltimer
// per block, on the emulator the host worker and a steady clock); `output` holds the run's output bytes.
ScheduleRun record_user_schedule(const UserVariant& v, user::FamilyCall& call, Dim3 block, BackendChoice backend,
                                 const CancelToken* cancel = nullptr);

// The emulator's compile of `signature` in `source`, cached by text and name. `seconds` is the compile's
// when it ran now, 0 from the cache.
struct EmulatedCompile {
    bool ok = false;
    bool barriers = false;
    std::vector<user::Diagnostic> diagnostics;
    double seconds = 0;
};
EmulatedCompile compile_emulated(const user::SourceFile& source, const user::KernelSignature& signature);

// The emulator's trace of `v` over `call`'s problem with `grid` x `block` (the options' sample_blocks,
// keep_blocks and cancel honoured): the sweep's, the ladder's and the prediction's tracer. A fault or a
// compile error is an InvalidInput status with its message.
TraceResult trace_user_launch(const UserVariant& v, user::FamilyCall& call, Dim3 grid, Dim3 block,
                              const TraceOptions& options, double time_limit_s = 30);

// The same with the family's grid rule for `block` (a 1-D form takes block.x): a session's trace.
TraceResult trace_user_variant(const UserVariant& v, user::FamilyCall& call, Dim3 block, const TraceOptions& options);

// The GPU time of `v` over `call`'s problem (warm-up, repeats, the median, as the built-ins are timed),
// in the isolated GPU runner. Unavailable without a device or without the NVRTC path.
ShapeTiming time_user_launch(const UserVariant& v, user::FamilyCall& call, Dim3 grid, Dim3 block,
                             const TimingOptions& options);

// "out of bounds", "time limit", ...: the kind of a fault, in a word or two, before its message.
QString fault_heading(user::Fault fault);

}  // namespace cvz
