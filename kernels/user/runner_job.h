#pragma once
// What the caller tells the emulated runner (cudaviz-kernel-runner) to do, as a small text file in the
// run's private directory, and what the runner answers on its message channel. Both sides use this
// file, so the format is written once.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../core/dim3.h"

namespace cvz::user {

struct RunnerArg {
    bool buffer = false;
    std::string name;
    std::string path;             // buffer: its shared file
    std::size_t bytes = 0;
    std::size_t element_bytes = 1;
    bool writable = false;
    std::string writers_path;     // buffer, when writers are recorded: a shared file of Writer per element
    int value = 0;                // int
};

struct RunnerJob {
    std::string object;     // the compiled kernel (a shared object)
    std::string file_name;  // the user's file, as messages and trace lines name it
    Dim3 grid, block;
    bool barriers = false;
    unsigned host_threads = 0;
    std::size_t dynamic_shared = 0;
    bool trace = false;
    bool all_warps = false;
    std::vector<std::uint64_t> keep_blocks, sample_blocks;
    bool schedule = false;
    bool progress = false;
    double time_limit_s = 0;  // the runner's own watchdog (it names the looping line); 0: none  // report the trace's progress on the message channel: "progress F" lines
    std::uint64_t access_budget = 0;  // loads and stores per block when tracing; 0: none
    std::string trace_path, schedule_path;  // where the runner writes them
    std::vector<RunnerArg> args;
};

std::string write_job(const RunnerJob& job);
// Empty on success; else what is wrong with the text.
std::string read_job(const std::string& text, RunnerJob* job);

// A kept runner (user_emulated.cpp, kept_child.h) is started with this one argument instead of a job's
// file, and reads its jobs from stdin, each framed by frame_job; it answers each as below.
constexpr const char* kRunnerServe = "--serve";
// A job's text with a line of its length in bytes before it.
std::string frame_job(const std::string& job_text);

// The runner's answer on its message channel, after any "progress F" lines (F in [0, 1]): "ok", or
// "fault KIND" then the message, or "error" then what kept it from running the kernel.
constexpr const char* kRunnerProgress = "progress ";
constexpr const char* kRunnerOk = "ok";
constexpr const char* kRunnerFault = "fault";

}  // namespace cvz::user
