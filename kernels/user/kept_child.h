#pragma once
// A child process kept between requests (issue 27): started once, exec'ed and isolated as run_child's
// children are (child_process.h: its own process group, its output captured, the message channel at
// kMessageFd), it takes one request after another on its stdin, a socket, and answers each on the
// message channel. A child whose answer is complete waits for the next request; one that ends instead
// (a fault, a crash), or is killed at the time limit or on a cancel, is reaped before the request
// returns, and the KeptChild is then ended() for good: its owner starts another.
//
// The child's stdin is the only end of the socket outside the caller, so the child sees it hang up when
// the caller closes it or dies (no PR_SET_PDEATHSIG: that follows the thread that started the child,
// which may end long before the caller does). Destroying the KeptChild kills its group and reaps it.
#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

#include "../core/cancel_token.h"
#include "child_process.h"

namespace cvz::user {

class KeptChild {
public:
    // Starts spec.argv (env and working_dir as run_child; the limits are given per request). Null with
    // *error set when it cannot be started.
    static std::unique_ptr<KeptChild> start(const ChildSpec& spec, std::string* error);
    ~KeptChild();
    KeptChild(const KeptChild&) = delete;
    KeptChild& operator=(const KeptChild&) = delete;

    pid_t pid() const { return pid_; }
    // It has ended (and was reaped): it takes no more requests. Looks first, without waiting.
    bool ended();

    // Sends `request` and waits until the message channel's first line since then is `done_line` (the
    // child goes on: end Exited, exit code 0), or the child ends (then reaped: Exited or Signalled, the
    // channel's whole text in messages), or `time_limit_s` passes (0: none) or `cancel` asks: then its
    // group is killed and reaped (TimeLimit, Cancelled). `output` is what the child wrote on stdout and
    // stderr meanwhile (up to output_limit), `seconds` the request's wall clock. NotStarted when the
    // request could not be sent (the child had ended before it).
    ChildResult exchange(const std::string& request, const std::string& done_line, double time_limit_s,
                         const CancelToken* cancel, std::size_t output_limit = 1 << 20);

private:
    KeptChild() = default;
    void reap(bool wait);
    void close_fds();
    pid_t pid_ = -1;
    int input_ = -1;     // the caller's end of the child's stdin
    int output_ = -1;    // its stdout and stderr
    int messages_ = -1;  // its message channel
    int exit_fd_ = -1;   // a pidfd (readable once it exited); -1 where the kernel has none
    bool reaped_ = false;
    int status_ = 0;     // waitpid's, once reaped
};

}  // namespace cvz::user
