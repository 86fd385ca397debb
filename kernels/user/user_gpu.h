#pragma once
// The user's kernel on the GPU (issue 27): compiled by NVRTC in this process (no GPU needed, so CI
// tests the compile errors), run in an exec'ed helper, `cudaviz-gpu-runner`, so that a fault, a hang or
// a broken context ends there and never in the app or the CLI (fork() without exec leaves CUDA
// unusable in the child: own-kernels.md). The runner loads the CUBIN with the driver API, launches it
// on copies of the caller's buffers, times it as the built-ins are timed and records its block schedule
// on request; the writable buffers come back only when the kernel ran to its end.
//
// Floating point: NVRTC compiles with --fmad=false, so that `a*b + c` is two roundings on the GPU as in
// the emulator's host build (-ffp-contract=off): the same source gives the same bytes on both. A
// kernel that wants a fused multiply-add writes fmaf, as the built-ins do.
#include <cstddef>
#include <string>
#include <vector>

#include "../core/block_schedule.h"
#include "../core/cancel_token.h"
#include "../core/kernel_timing.h"
#include "../core/status.h"
#include "user_kernel.h"

namespace cvz::user {

struct GpuCompileOutput {
    Status status;  // not ok: NVRTC is absent or failed as a program (not the source's fault)
    std::vector<Diagnostic> diagnostics;  // errors and warnings on the user's file, in NVRTC's order
    bool compiled() const;                // status ok and no error among the diagnostics

    SourceFile source;           // what was compiled (kept for the schedule's second compile)
    KernelSignature signature;   // the kernel launched
    int sm = 0;                  // the architecture compiled for (90: sm_90)
    bool fmad = false;           // compiled with --fmad=true (see compile_for_gpu)
    std::string cubin;           // the kernel's module
    std::string lowered_name;    // its symbol in the module ("_Z4grayPhS_i"; the name itself for extern "C")
    std::string demangled;       // "gray(unsigned char*, unsigned char*, int)", "" for extern "C"

    // From --ptxas-options=-v, for the occupancy model; from the CUBIN when NVRTC took the code from the
    // compute cache and ptxas said nothing (stack_bytes is then 0).
    int registers = 0;
    int barriers = 0;
    std::size_t static_shared_bytes = 0;
    std::size_t stack_bytes = 0;
    double compile_ms = 0;       // NVRTC alone
    std::string log;             // NVRTC's log as it was
};

// Compiles `source` for architecture sm_`sm` (0: device 0's, or sm_90 when there is none) and finds
// `signature.name` in it. Errors in the source come back as diagnostics on source.name with their line
// and column. A kernel whose parameters, as the compiler sees them, differ in kind from `signature`'s
// is an error on its line (a signature read wrong would launch with the wrong arguments).
// `fmad` true compiles with --fmad=true (nvcc's default: a*b + c contracted into one fused multiply-add),
// which the app never does (see above); bench_user_kernel_gpu times both, to show what the flag costs.
GpuCompileOutput compile_for_gpu(const SourceFile& source, const KernelSignature& signature, int sm = 0, bool fmad = false);

// The source of the schedule-recording compile: the user's text with its __global__ functions made
// __device__ (line numbers unchanged), and after it a generated __global__ `cudaviz_recorded` that takes
// the kernel's parameters plus three arrays, records %smid and %globaltimer per block around a call of
// the user's function (per warp, as kernels/cuda/schedule_recording_context.cuh does for the built-ins)
// and passes the parameters through. Exposed for the tests.
std::string schedule_recording_source(const SourceFile& source, const KernelSignature& signature);

struct GpuRunOptions {
    int device = 0;
    bool time = false;              // time the kernel (TimingOptions' warm-up, repeats, budget; the median)
    TimingOptions timing;           // cancel and progress are not used: see `cancel` below
    bool record_schedule = false;   // record the block schedule (a second compile, see above)
    double time_limit_s = 30;       // the runner is stopped past this (wall clock from its start, so CUDA's
                                    // start-up, about 0.3-1 s, counts too)
    const CancelToken* cancel = nullptr;  // stops the runner when requested
    std::string runner;             // the runner's path; empty: find_gpu_runner()
};

// How a run ended:
//   ran                    the output is in the writable buffers; `message` may note a timing or schedule
//                          that could not be taken (the run itself is good)
//   Unavailable            no runner, no driver, no device, a module this GPU cannot load
//   InvalidInput           not compiled, arguments that do not fit, a launch CUDA refused (too many threads)
//   Device + Fault::Device     the GPU stopped the kernel (an illegal address...): the kernel's fault.
//                              Each buffer ends where unmapped memory begins (guard_zone.h), so a load
//                              or store past its end lands here; the message does not say which buffer
//                              (the GPU does not tell): the app re-runs the launch on the emulator for it
//   Device + Fault::Bounds     the kernel stored into a guard zone (before a buffer, or in the rounding
//                              of its end to 32 bytes), checked after the launch; the message names the
//                              buffer and the elements ("out[1000..1023] were written, past the end of
//                              out (1000 elements)"), not the thread or line
//   Device + Fault::TimeLimit  stopped at options.time_limit_s
//   Device + Fault::Crashed    the runner itself died or answered nonsense
//   ok + Fault::Cancelled      options.cancel was requested: stopped, nothing to report
struct GpuRunResult {
    Status status;
    Fault fault = Fault::None;
    std::string message;      // the user's message, ready to show (status's message too when not ok)
    bool ran = false;         // the kernel ran to its end and the writable buffers were copied back
    std::string device;       // "NVIDIA H200"
    int sms = 0;
    double run_ms = 0;        // the one launch whose output came back (CUDA events)
    int registers = 0;        // of the loaded kernel, as the driver reports them
    std::size_t static_shared_bytes = 0;
    ShapeTiming timing;       // when options.time
    std::vector<BlockTiming> schedule;  // when options.record_schedule: per linear block id
    double runner_ms = 0;     // the runner's whole life, start to exit
};

// Runs `compiled` with `launch` in the runner. The writable buffers of `launch` receive the kernel's
// output only when it ran to its end (result.ran); otherwise they are left as they were.
GpuRunResult run_on_gpu(const GpuCompileOutput& compiled, const UserLaunch& launch, const GpuRunOptions& options = {});

// Where the runner is: $CUDAVIZ_GPU_RUNNER, else beside this program's executable, else where the build
// put it, else on PATH. Empty when none is found.
std::string find_gpu_runner();

}  // namespace cvz::user
