#include "kept_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace cvz::user {

namespace {

// Appends what the non-blocking `fd` holds now (up to `limit` kept, the rest read and dropped), at most
// 1 MiB a call, so that a child that writes without end still lets the caller look at its limits; false
// at its end.
bool read_available(int fd, std::string& into, std::size_t limit) {
    char buffer[65536];
    for (int round = 0; round < 16; ++round) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            if (into.size() < limit) into.append(buffer, std::min<std::size_t>(std::size_t(n), limit - into.size()));
            continue;
        }
        if (n == 0) return false;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    return true;
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

std::unique_ptr<KeptChild> KeptChild::start(const ChildSpec& spec, std::string* error) {
    if (spec.argv.empty()) {
        *error = "no program to run";
        return nullptr;
    }
    std::unique_ptr<KeptChild> c(new KeptChild);
    int input[2] = {-1, -1}, output[2] = {-1, -1}, messages[2] = {-1, -1};
    const auto close_child_ends = [&] {
        close_fd(input[1]);
        close_fd(output[1]);
        close_fd(messages[1]);
    };
    // A socket for the requests, so that a send to a child that has ended fails (MSG_NOSIGNAL) instead
    // of raising SIGPIPE in the caller.
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0 || ::pipe2(output, O_CLOEXEC) != 0 ||
        ::pipe2(messages, O_CLOEXEC) != 0) {
        *error = std::string("cannot make a pipe: ") + std::strerror(errno);
        close_fd(input[0]);
        close_fd(output[0]);
        close_fd(messages[0]);
        close_child_ends();
        return nullptr;
    }
    c->input_ = input[0];
    c->output_ = output[0];
    c->messages_ = messages[0];
    c->pid_ = spawn_child(spec, input[1], output[1], messages[1], error);
    close_child_ends();
    if (c->pid_ < 0) return nullptr;
    ::fcntl(c->output_, F_SETFL, ::fcntl(c->output_, F_GETFL) | O_NONBLOCK);
    ::fcntl(c->messages_, F_SETFL, ::fcntl(c->messages_, F_GETFL) | O_NONBLOCK);
    c->exit_fd_ = int(::syscall(SYS_pidfd_open, c->pid_, 0));
    return c;
}

KeptChild::~KeptChild() {
    if (pid_ > 0 && !reaped_) {
        // Its group while the leader is unreaped (its id cannot be another's yet), then the leader.
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        reap(true);
    }
    close_fds();
}

void KeptChild::close_fds() {
    close_fd(input_);
    close_fd(output_);
    close_fd(messages_);
    close_fd(exit_fd_);
}

void KeptChild::reap(bool wait) {
    if (reaped_ || pid_ <= 0) return;
    for (;;) {
        const pid_t w = ::waitpid(pid_, &status_, wait ? 0 : WNOHANG);
        if (w == pid_ || (w < 0 && errno != EINTR)) reaped_ = true;
        if (w >= 0 || errno != EINTR) return;
    }
}

bool KeptChild::ended() {
    if (reaped_) return true;
    if (exit_fd_ >= 0) {
        pollfd exited{exit_fd_, POLLIN, 0};
        if (::poll(&exited, 1, 0) > 0) reap(true);
    } else {
        reap(false);
    }
    return reaped_;
}

ChildResult KeptChild::exchange(const std::string& request, const std::string& done_line, double time_limit_s,
                                const CancelToken* cancel, std::size_t output_limit) {
    using Clock = std::chrono::steady_clock;
    ChildResult result;
    const Clock::time_point start = Clock::now();
    if (ended()) {
        result.error = "the kept process had ended";
        return result;
    }
    // What the child wrote after its last answer, if anything (more than a call reads), is not this request's.
    std::string stale;
    (void)read_available(output_, stale, 0);
    for (std::size_t sent = 0; sent < request.size();) {
        const ssize_t n = ::send(input_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n > 0) sent += std::size_t(n);
        else if (n < 0 && errno == EINTR) continue;
        else {
            result.error = std::string("cannot send the request: ") + std::strerror(errno);
            ::kill(-pid_, SIGKILL);
            reap(true);
            close_fds();
            return result;
        }
    }

    bool output_open = true, messages_open = true, timed_out = false, cancelled = false;
    for (;;) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (time_limit_s > 0 && elapsed >= time_limit_s) timed_out = true;
        else if (cancel && cancel->requested()) cancelled = true;
        if (timed_out || cancelled) {
            ::kill(-pid_, SIGKILL);
            ::kill(pid_, SIGKILL);
            reap(true);
            break;
        }
        // Wait for output, the limit, or (when a cancel can come) the next look at the token.
        int wait_ms = time_limit_s > 0 ? int((time_limit_s - elapsed) * 1000.0) + 1 : -1;
        if (cancel) wait_ms = wait_ms < 0 ? 50 : std::min(wait_ms, 50);
        if (!output_open && !messages_open) {
            // Both closed: it is ending. Wait for its exit (or the limit, or the token's next look).
            if (exit_fd_ >= 0) {
                pollfd exited{exit_fd_, POLLIN, 0};
                if (::poll(&exited, 1, wait_ms) > 0) reap(true);
            } else {
                reap(false);
                if (!reaped_) ::poll(nullptr, 0, wait_ms < 0 ? 5 : std::min(wait_ms, 5));
            }
            if (reaped_) break;
            continue;
        }
        pollfd fds[2];
        nfds_t n = 0;
        if (messages_open) fds[n++] = pollfd{messages_, POLLIN, 0};
        if (output_open) fds[n++] = pollfd{output_, POLLIN, 0};
        if (::poll(fds, n, wait_ms) <= 0) continue;
        if (messages_open) messages_open = read_available(messages_, result.messages, std::size_t(1) << 30);
        if (output_open) output_open = read_available(output_, result.output, output_limit);
        const std::size_t line_end = result.messages.find('\n');
        if (messages_open && line_end != std::string::npos && result.messages.compare(0, line_end, done_line) == 0 &&
            line_end == done_line.size()) {
            // Answered and waiting for the next request. What it printed came before the answer (it
            // flushes first), so it is in the pipe now.
            if (output_open) (void)read_available(output_, result.output, output_limit);
            result.end = ChildResult::End::Exited;
            result.exit_code = 0;
            result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
            return result;
        }
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (timed_out) {
        result.end = ChildResult::End::TimeLimit;
    } else if (cancelled) {
        result.end = ChildResult::End::Cancelled;
    } else if (WIFEXITED(status_)) {
        result.end = ChildResult::End::Exited;
        result.exit_code = WEXITSTATUS(status_);
    } else if (WIFSIGNALED(status_)) {
        result.end = ChildResult::End::Signalled;
        result.signal = WTERMSIG(status_);
    }
    close_fds();
    return result;
}

}  // namespace cvz::user
