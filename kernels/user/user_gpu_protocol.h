#pragma once
// What the app and `cudaviz-gpu-runner` say to each other, through files in a private temporary folder:
// the request (the CUBINs, the launch, where each buffer is) and the response (how the run ended,
// timings, the schedule). The buffers themselves are shared files (shared_buffer.h) that both map: the
// runner reads the inputs from them and writes the outputs back into them only when the kernel ran to
// its end. A plain binary layout with a magic word and a version; every read is bounds-checked, so a
// short or foreign file is an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../core/block_schedule.h"
#include "../core/dim3.h"

namespace cvz::user {

struct GpuRunnerArg {
    bool buffer = false;
    bool writable = false;
    int value = 0;                 // an int argument
    std::string name;
    std::uint64_t bytes = 0;       // a buffer's size
    std::uint64_t element_bytes = 1;
    std::string path;              // a buffer's shared file, `bytes` long
};

struct GpuRunnerRequest {
    std::string cubin, function;   // the user's kernel
    std::string recorded_cubin;    // the schedule-recording module ("": no schedule); its kernel is cudaviz_recorded
    int device = 0;
    Dim3 grid, block;
    std::vector<GpuRunnerArg> args;
    bool time = false;
    int warmup = 3, repeats = 20, rounds = 1;
    double budget_ms = 250, spin_up_ms = 100;
    bool hold = true;
};

// How the runner's work ended.
enum class GpuRunnerOutcome : std::uint32_t {
    Ran = 0,          // the kernel ran; the writable buffers' files hold its output
    Unavailable = 1,  // no driver, no device, a device that cannot run the module
    Refused = 2,      // CUDA refused the launch (too many threads, too much shared memory...)
    DeviceFault = 3,  // the kernel faulted on the device (an illegal address, a trap...)
    BadRequest = 4,   // the request file could not be read
    BoundsFault = 5,  // the kernel ran but stored outside a buffer (a guard zone changed); nothing copied back
};

struct GpuRunnerResponse {
    GpuRunnerOutcome outcome = GpuRunnerOutcome::BadRequest;
    std::string message;           // why, when not Ran; a note on timing or schedule failures when Ran
    std::string device;
    int sms = 0;
    double run_ms = 0;
    int registers = 0;             // of the loaded kernel, from the driver (cuFuncGetAttribute)
    std::uint64_t static_shared_bytes = 0;
    std::vector<double> samples_ms;  // timed launches; empty when not asked or not timed
    std::vector<BlockTiming> schedule;
};

// Each returns "" on success, else what went wrong ("PATH: ...").
std::string write_gpu_request(const std::string& path, const GpuRunnerRequest& request);
std::string read_gpu_request(const std::string& path, GpuRunnerRequest* request);
std::string write_gpu_response(const std::string& path, const GpuRunnerResponse& response);
std::string read_gpu_response(const std::string& path, GpuRunnerResponse* response);

}  // namespace cvz::user
