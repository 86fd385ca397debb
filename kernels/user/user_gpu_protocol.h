#pragma once
// What the app and `cudaviz-gpu-runner` say to each other, through two files in a private temporary
// folder: the request (the CUBINs, the launch, the buffers' contents) and the response (how the run
// ended, timings, the schedule, the writable buffers). A plain binary layout with a magic word and a
// version; every read is bounds-checked, so a short or foreign file is an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../core/block_schedule.h"
#include "../core/dim3.h"

namespace cvz::user {

struct RunnerArg {
    bool buffer = false;
    bool writable = false;
    int value = 0;                 // an int argument
    std::string name;
    std::uint64_t bytes = 0;       // a buffer's size
    std::uint64_t element_bytes = 1;
    const void* data = nullptr;    // writing: the caller's memory (not owned)
    std::vector<unsigned char> contents;  // reading: the buffer's bytes
};

struct RunnerRequest {
    std::string cubin, function;   // the user's kernel
    std::string recorded_cubin;    // the schedule-recording module ("": no schedule); its kernel is cudaviz_recorded
    int device = 0;
    Dim3 grid, block;
    std::vector<RunnerArg> args;
    bool time = false;
    int warmup = 3, repeats = 20, rounds = 1;
    double budget_ms = 250, spin_up_ms = 100;
    bool hold = true;
};

// How the runner's work ended.
enum class RunnerOutcome : std::uint32_t {
    Ran = 0,          // the kernel ran; the writable buffers follow
    Unavailable = 1,  // no driver, no device, a device that cannot run the module
    Refused = 2,      // CUDA refused the launch (too many threads, too much shared memory...)
    DeviceFault = 3,  // the kernel faulted on the device (an illegal address, a trap...)
    BadRequest = 4,   // the request file could not be read
};

struct RunnerResponse {
    RunnerOutcome outcome = RunnerOutcome::BadRequest;
    std::string message;           // why, when not Ran; a note on timing or schedule failures when Ran
    std::string device;
    int sms = 0;
    double run_ms = 0;
    std::vector<double> samples_ms;  // timed launches; empty when not asked or not timed
    std::vector<BlockTiming> schedule;
    std::vector<std::vector<unsigned char>> outputs;  // the writable buffers, in argument order
};

// Each returns "" on success, else what went wrong ("PATH: ..."). Reading a request fills each
// buffer's `contents`; writing one reads `data`.
std::string write_request(const std::string& path, const RunnerRequest& request);
std::string read_request(const std::string& path, RunnerRequest* request);
std::string write_response(const std::string& path, const RunnerResponse& response);
std::string read_response(const std::string& path, RunnerResponse* response);

}  // namespace cvz::user
