#pragma once
// Running a program isolated from the caller (issue 27): an exec'ed child in its own process group,
// with a wall-clock limit, cancellation, its output captured, and a message channel (a pipe the child
// finds at file descriptor kMessageFd). User code runs only in such a child, never in the caller's
// process and never in a fork without exec (which, besides sharing the caller's state, leaves CUDA
// unusable in the child). Generic: the emulated runner, the GPU runner and the compiler all go through it.
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "../core/cancel_token.h"

namespace cvz::user {

// The child's end of the message channel.
constexpr int kMessageFd = 3;

struct ChildSpec {
    std::vector<std::string> argv;  // argv[0]: a path, or a name looked up in PATH
    std::vector<std::string> env;   // "NAME=VALUE" added to (or replacing in) the caller's environment
    std::string working_dir;        // empty: the caller's
    double time_limit_s = 0;        // wall clock; 0: none. At the limit the whole process group is killed
    const CancelToken* cancel = nullptr;  // checked while waiting; a request kills the process group
    bool message_channel = false;   // open the pipe at kMessageFd
    std::size_t output_limit = 1 << 20;  // bytes of stdout+stderr kept (the rest is read and dropped)
    // When set, called on the caller's thread with each line the child writes on the message channel
    // (without its newline), as it arrives; the lines are also kept in ChildResult::messages.
    std::function<void(const std::string&)> on_message;
    // When set, called on the caller's thread with the child's process id once it has started.
    std::function<void(int)> on_started;
};

struct ChildResult {
    enum class End { Exited, Signalled, TimeLimit, Cancelled, NotStarted };
    End end = End::NotStarted;
    int exit_code = -1;    // Exited
    int signal = 0;        // Signalled
    std::string output;    // stdout and stderr, interleaved as written
    std::string messages;  // all the child wrote to the message channel
    std::string error;     // NotStarted: why
    double seconds = 0;    // wall clock from start to end

    bool succeeded() const { return end == End::Exited && exit_code == 0; }
};

// Runs the child to its end (or its limit) and returns how it ended. Never throws, never runs the
// program in this process.
ChildResult run_child(const ChildSpec& spec);

// Starts spec.argv (its env and working_dir; nothing else of spec is read) in a process group of its own,
// with default signal handling and an empty mask: stdin from `input_fd` (-1: /dev/null), stdout and
// stderr into `output_fd`, and `message_fd`, when not -1, at kMessageFd. Its pid, or -1 with *error set.
// The caller waits for it (run_child does; a KeptChild, kept_child.h, keeps it for several requests).
pid_t spawn_child(const ChildSpec& spec, int input_fd, int output_fd, int message_fd, std::string* error);

// "SIGSEGV (segmentation fault)" for a signal number.
std::string signal_text(int signal);

}  // namespace cvz::user
