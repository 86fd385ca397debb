#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace cvz::user {

namespace {

struct Pipe {
    int read = -1, write = -1;
    bool open() {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) return false;
        read = fds[0];
        write = fds[1];
        return true;
    }
    void close_read() {
        if (read >= 0) ::close(read);
        read = -1;
    }
    void close_write() {
        if (write >= 0) ::close(write);
        write = -1;
    }
    ~Pipe() {
        close_read();
        close_write();
    }
};

// The caller's environment with `extra` added, a variable of the same name replaced.
std::vector<std::string> environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string v = *e;
        bool replaced = false;
        for (const std::string& x : extra) {
            const std::size_t eq = x.find('=');
            if (eq != std::string::npos && v.compare(0, eq + 1, x, 0, eq + 1) == 0) replaced = true;
        }
        if (!replaced) env.push_back(v);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& v) {
    std::vector<char*> p;
    for (std::string& s : v) p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

// Reads what is there; false at end of file.
bool drain(int fd, std::string& into, std::size_t limit) {
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
        if (into.size() < limit) into.append(buffer, std::min<std::size_t>(std::size_t(n), limit - into.size()));
        return true;
    }
    return n < 0 && (errno == EINTR || errno == EAGAIN);
}

}  // namespace

std::string signal_text(int signal) {
    const char* name = sigabbrev_np(signal);
    const char* what = sigdescr_np(signal);
    std::string s = name ? std::string("SIG") + name : "signal " + std::to_string(signal);
    if (what) s += std::string(" (") + what + ")";
    return s;
}

pid_t spawn_child(const ChildSpec& spec, int input_fd, int output_fd, int message_fd, std::string* error) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (input_fd >= 0) posix_spawn_file_actions_adddup2(&actions, input_fd, 0);
    else posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, output_fd, 2);
    if (message_fd >= 0) posix_spawn_file_actions_adddup2(&actions, message_fd, kMessageFd);
    if (!spec.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.working_dir.c_str());

    // Its own process group, so that a limit or a cancel ends everything it started (a compiler's
    // cc1plus and as); default signal handling and an empty mask whatever the caller set.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> args = spec.argv, env = environment(spec.env);
    std::vector<char*> argv = pointers(args), envp = pointers(env);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        *error = "cannot run " + spec.argv[0] + ": " + std::strerror(spawned);
        return -1;
    }
    return pid;
}

ChildResult run_child(const ChildSpec& spec) {
    using Clock = std::chrono::steady_clock;
    ChildResult result;
    if (spec.argv.empty()) {
        result.error = "no program to run";
        return result;
    }
    Pipe output, messages;
    if (!output.open() || (spec.message_channel && !messages.open())) {
        result.error = std::string("cannot make a pipe: ") + std::strerror(errno);
        return result;
    }

    const Clock::time_point start = Clock::now();
    const pid_t pid = spawn_child(spec, -1, output.write, spec.message_channel ? messages.write : -1, &result.error);
    if (pid < 0) return result;
    if (spec.on_started) spec.on_started(int(pid));
    output.close_write();
    messages.close_write();
    // Readable once the child has exited, so that its end is waited for, not polled; -1 where the
    // kernel has no pidfd_open (before Linux 5.3), and then the loop below naps between looks.
    const int exit_fd = int(::syscall(SYS_pidfd_open, pid, 0));

    const auto kill_group = [&] {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);  // in case it left its group
    };
    bool timed_out = false, cancelled = false, reaped = false;
    std::size_t delivered = 0;  // messages up to here were given to on_message
    int status = 0;
    while (!reaped) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (!timed_out && !cancelled) {
            if (spec.time_limit_s > 0 && elapsed >= spec.time_limit_s) {
                timed_out = true;
                kill_group();
            } else if (spec.cancel && spec.cancel->requested()) {
                cancelled = true;
                kill_group();
            }
        }
        // Wait for output, the limit, or (when a cancel can come) the next look at the token.
        int wait_ms = -1;
        if (spec.time_limit_s > 0 && !timed_out && !cancelled)
            wait_ms = int((spec.time_limit_s - elapsed) * 1000.0) + 1;
        if (spec.cancel && !cancelled && !timed_out) wait_ms = wait_ms < 0 ? 50 : std::min(wait_ms, 50);
        pollfd fds[2];
        nfds_t n = 0;
        if (output.read >= 0) fds[n++] = pollfd{output.read, POLLIN, 0};
        if (messages.read >= 0) fds[n++] = pollfd{messages.read, POLLIN, 0};
        if (n == 0) {
            // Both pipes closed: the child is ending (or closed them and runs on). Wait for its exit, the
            // limit or the next look at the token, then reap it.
            if (exit_fd >= 0) {
                pollfd exited{exit_fd, POLLIN, 0};
                ::poll(&exited, 1, wait_ms);
            }
            const pid_t w = ::waitpid(pid, &status, exit_fd >= 0 || wait_ms >= 0 ? WNOHANG : 0);
            if (w == pid) reaped = true;
            else if (w == 0 && exit_fd < 0) ::poll(nullptr, 0, std::min(wait_ms, 5));
            else if (w < 0 && errno != EINTR) reaped = true;
            continue;
        }
        const int ready = ::poll(fds, n, wait_ms);
        if (ready <= 0) continue;
        for (nfds_t k = 0; k < n; ++k) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (fds[k].fd == output.read) {
                if (!drain(output.read, result.output, spec.output_limit)) output.close_read();
            } else {
                if (!drain(messages.read, result.messages, std::size_t(1) << 30)) messages.close_read();
                for (std::size_t end; spec.on_message && (end = result.messages.find('\n', delivered)) != std::string::npos;
                     delivered = end + 1)
                    spec.on_message(result.messages.substr(delivered, end - delivered));
            }
        }
    }
    if (exit_fd >= 0) ::close(exit_fd);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (timed_out) {
        result.end = ChildResult::End::TimeLimit;
    } else if (cancelled) {
        result.end = ChildResult::End::Cancelled;
    } else if (WIFEXITED(status)) {
        result.end = ChildResult::End::Exited;
        result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.end = ChildResult::End::Signalled;
        result.signal = WTERMSIG(status);
    }
    // Whatever it started and left behind in its group goes too.
    ::kill(-pid, SIGKILL);
    return result;
}

}  // namespace cvz::user
