// The kept runner of a user kernel's direct object (issue 27, item 5; kernels/user/user_emulated.h,
// EmulatedRunOptions::keep_runner, and kernels/user/kept_child.h): one runner process serves run after
// run of the same compiled kernel, with the bytes a runner of its own gives; a fault or the time limit
// ends it with the same message as before, reaped, and the next run works on a fresh one; a new compile,
// a run of another kernel, a cancel and the kernel's destruction end it, leaving no process behind.
// Processes are told apart by their ids; a runner that is gone and reaped answers kill(pid, 0) with
// ESRCH (a zombie would still answer). No GPU, no wall clock.
#include <QtTest>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/user/child_process.h"
#include "kernels/user/runner_job.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_emulated.h"
#include "support/user_kernel_texts.h"

using namespace cvz;
using namespace cvz::user;

namespace {

using test::lecture_kernel;

EmulatedKernel compile(const std::string& name, const std::string& text) {
    const SourceFile file{name, text};
    KernelSignature sig;
    const Status s = select_kernel(file, find_kernels(file), "", &sig);
    if (!s) qWarning("%s", s.message().c_str());
    CompileOutput out;
    EmulatedKernel k = EmulatedKernel::compile(file, sig, &out);
    for (const Diagnostic& d : out.diagnostics) qWarning("%s", format(d).c_str());
    return k;
}

std::vector<std::uint8_t> bytes(std::size_t n, unsigned seed) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::uint8_t((i * 2654435761u + seed * 40503u) >> 13);
    return v;
}

// A process with this id exists (running, or ended and not reaped).
bool exists(int pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno != ESRCH); }

// The lecture's grayscale over n pixels (planar x of 3n bytes), 1-D blocks of `block`.
struct Gray {
    std::vector<std::uint8_t> x, out;
    UserLaunch launch;
    Gray(int n, unsigned block, unsigned seed) : x(bytes(3 * std::size_t(n), seed)), out(std::size_t(n), 7) {
        launch.block = Dim3{block, 1, 1};
        launch.grid = Dim3{unsigned((n + block - 1) / block), 1, 1};
        launch.args = {UserArg::buffer("x", x.data(), x.size(), 1, false), UserArg::buffer("out", out.data(), out.size(), 1, true),
                       UserArg::integer("n", n)};
    }
};

EmulatedRunOptions kept(unsigned threads = 2) {
    EmulatedRunOptions o;
    o.host_threads = threads;
    return o;
}

EmulatedRunOptions own_runner(unsigned threads = 2) {
    EmulatedRunOptions o = kept(threads);
    o.keep_runner = false;
    return o;
}

// Copies x into out while i < n: with n larger than out, the last threads write past its end; with n
// negative, one thread writes through a made-up pointer; with n zero, thread 0 loops for ever.
const char* const kCopy = "__global__ void copy(unsigned char* x, unsigned char* out, int n) {\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (n < 0 && i == 2) *(int*)(long)(64 - n) = 1;\n"
                          "    volatile int spin = n == 0 && i == 0;\n"
                          "    while (spin) {}\n"
                          "    if (i < n) out[i] = x[i];\n"
                          "}\n";

UserLaunch copy_launch(std::vector<std::uint8_t>& x, std::vector<std::uint8_t>& out, int n) {
    UserLaunch l;
    l.block = Dim3{32, 1, 1};
    l.grid = Dim3{unsigned((std::max<std::size_t>(x.size(), 1) + 31) / 32), 1, 1};
    l.args = {UserArg::buffer("x", x.data(), x.size(), 1, false), UserArg::buffer("out", out.data(), out.size(), 1, true),
              UserArg::integer("n", n)};
    return l;
}

}  // namespace

class TestUserKeptRunner : public QObject {
    Q_OBJECT
private slots:
    void one_runner_serves_runs_with_the_bytes_of_a_runner_of_its_own();
    void a_fault_keeps_its_message_and_the_next_run_takes_a_fresh_runner();
    void the_time_limit_ends_the_runner_and_the_next_run_works();
    void a_cancel_ends_the_runner_and_the_next_run_works();
    void a_new_compile_ends_the_old_runner();
    void a_run_of_another_kernel_ends_the_runner();
    void destroying_the_kernel_leaves_no_process();
    void only_direct_runs_are_kept();
    void a_runner_ends_when_its_caller_hangs_up();
};

void TestUserKeptRunner::one_runner_serves_runs_with_the_bytes_of_a_runner_of_its_own() {
    const EmulatedKernel k = compile("grayscale_1d.cu", lecture_kernel("grayscale_1d.cu"));
    QVERIFY(k.valid() && k.direct());
    QCOMPARE(kept_runner_pid(k), 0);
    // Odd sizes, several launches in a row: other sizes (other buffers), other inputs of the same sizes
    // (the same shared memory, mapped once), other blocks; each against a runner of its own.
    struct Case {
        int n;
        unsigned block, seed;
    };
    int pid = 0;
    for (const Case c : {Case{1001, 64, 1}, Case{1001, 64, 2}, Case{77, 32, 3}, Case{1001, 96, 4}, Case{4097, 256, 5}}) {
        Gray a(c.n, c.block, c.seed), b(c.n, c.block, c.seed);
        const EmulatedRunResult ra = run_emulated(k, a.launch, kept());
        const EmulatedRunResult rb = run_emulated(k, b.launch, own_runner());
        QVERIFY2(ra.ok() && ra.direct, ra.message.c_str());
        QVERIFY2(rb.ok() && rb.direct, rb.message.c_str());
        QVERIFY(a.out == b.out);
        QVERIFY(a.out != std::vector<std::uint8_t>(std::size_t(c.n), 7));
        QVERIFY(ra.runner_pid > 0 && rb.runner_pid > 0 && ra.runner_pid != rb.runner_pid);
        if (pid) QCOMPARE(ra.runner_pid, pid);  // the same process, run after run
        pid = ra.runner_pid;
        QCOMPARE(kept_runner_pid(k), pid);
        QVERIFY(exists(pid));
        QVERIFY(!exists(rb.runner_pid));  // a runner of its own ends with its run
    }
}

void TestUserKeptRunner::a_fault_keeps_its_message_and_the_next_run_takes_a_fresh_runner() {
    const EmulatedKernel k = compile("copy.cu", kCopy);
    QVERIFY(k.valid() && k.direct());
    std::vector<std::uint8_t> x = bytes(100, 1), out(90, 9);
    const EmulatedRunResult first = run_emulated(k, copy_launch(x, out, 90), kept());
    QVERIFY2(first.ok(), first.message.c_str());
    const int pid = kept_runner_pid(k);
    QVERIFY(pid > 0 && pid == first.runner_pid);

    // Past the end of out: the same message as with a runner of its own, and no output.
    std::vector<std::uint8_t> fresh(90, 9);
    const EmulatedRunResult bounds = run_emulated(k, copy_launch(x, fresh, 95), kept());
    std::vector<std::uint8_t> fresh_own(90, 9);
    const EmulatedRunResult bounds_own = run_emulated(k, copy_launch(x, fresh_own, 95), own_runner());
    QCOMPARE(bounds.fault, Fault::Bounds);
    QCOMPARE(bounds.message, bounds_own.message);
    QCOMPARE(bounds.message, std::string("line 6: thread (2, 0, 0)/(26, 0, 0) writes out[90], 0 past the end of out (90 elements)"));
    QVERIFY(fresh == std::vector<std::uint8_t>(90, 9));
    QCOMPARE(kept_runner_pid(k), 0);
    QVERIFY(!exists(pid));  // ended and reaped

    // The next run works, on another runner, which is kept.
    const EmulatedRunResult after = run_emulated(k, copy_launch(x, out, 90), kept());
    QVERIFY2(after.ok(), after.message.c_str());
    QVERIFY(after.runner_pid != pid);
    QCOMPARE(kept_runner_pid(k), after.runner_pid);

    // A made-up pointer (a segfault in the runner): the same message as before, then a working run.
    const int before_crash = after.runner_pid;
    const EmulatedRunResult invalid = run_emulated(k, copy_launch(x, out, -1), kept());
    const EmulatedRunResult invalid_own = run_emulated(k, copy_launch(x, out, -1), own_runner());
    QCOMPARE(invalid.fault, Fault::Invalid);
    QCOMPARE(invalid.message, invalid_own.message);
    QCOMPARE(invalid.message, std::string("line 3: thread (0, 0, 0)/(2, 0, 0) made an invalid memory access (address 0x41, in no buffer)"));
    QVERIFY(!exists(before_crash));
    std::vector<std::uint8_t> again(90, 0);
    const EmulatedRunResult last = run_emulated(k, copy_launch(x, again, 90), kept());
    QVERIFY2(last.ok(), last.message.c_str());
    QVERIFY(std::equal(again.begin(), again.end(), x.begin()));
    QVERIFY(last.runner_pid != before_crash);
}

void TestUserKeptRunner::the_time_limit_ends_the_runner_and_the_next_run_works() {
    const EmulatedKernel k = compile("copy.cu", kCopy);
    QVERIFY(k.valid() && k.direct());
    std::vector<std::uint8_t> x = bytes(64, 2), out(64, 0);
    EmulatedRunOptions o = kept(1);
    o.time_limit_s = 0.5;
    const EmulatedRunResult first = run_emulated(k, copy_launch(x, out, 64), o);
    QVERIFY2(first.ok(), first.message.c_str());
    const int pid = first.runner_pid;
    QCOMPARE(kept_runner_pid(k), pid);
    const EmulatedRunResult spin = run_emulated(k, copy_launch(x, out, 0), o);
    QCOMPARE(spin.fault, Fault::TimeLimit);
    QCOMPARE(spin.message, std::string("line 5: the time limit of 0.5 s was reached in thread (0, 0, 0)/(0, 0, 0): the kernel "
                                       "was stopped (an endless loop?)"));
    QCOMPARE(kept_runner_pid(k), 0);
    QVERIFY(!exists(pid));
    std::vector<std::uint8_t> again(64, 0);
    const EmulatedRunResult after = run_emulated(k, copy_launch(x, again, 64), o);
    QVERIFY2(after.ok(), after.message.c_str());
    QVERIFY(again == x);
    QVERIFY(after.runner_pid != pid);
}

void TestUserKeptRunner::a_cancel_ends_the_runner_and_the_next_run_works() {
    const EmulatedKernel k = compile("copy.cu", kCopy);
    QVERIFY(k.valid() && k.direct());
    std::vector<std::uint8_t> x = bytes(64, 3), out(64, 0);
    const EmulatedRunResult first = run_emulated(k, copy_launch(x, out, 64), kept());
    QVERIFY2(first.ok(), first.message.c_str());
    // An endless loop, cancelled (the token is set from the start: the runner is killed at once).
    CancelToken cancel;
    cancel.request();
    EmulatedRunOptions o = kept();
    o.cancel = &cancel;
    const EmulatedRunResult stopped = run_emulated(k, copy_launch(x, out, 0), o);
    QCOMPARE(stopped.fault, Fault::Cancelled);
    QCOMPARE(stopped.runner_pid, first.runner_pid);
    QVERIFY(!exists(first.runner_pid));
    QCOMPARE(kept_runner_pid(k), 0);
    std::vector<std::uint8_t> again(64, 0);
    const EmulatedRunResult after = run_emulated(k, copy_launch(x, again, 64), kept());
    QVERIFY2(after.ok(), after.message.c_str());
    QVERIFY(again == x);
}

void TestUserKeptRunner::a_new_compile_ends_the_old_runner() {
    const EmulatedKernel old = compile("copy.cu", kCopy);
    QVERIFY(old.valid() && old.direct());
    std::vector<std::uint8_t> x = bytes(64, 4), out(64, 0);
    const EmulatedRunResult r = run_emulated(old, copy_launch(x, out, 64), kept());
    QVERIFY2(r.ok(), r.message.c_str());
    QVERIFY(exists(r.runner_pid));
    // The same text compiled again (the learner pressed Compile and Run): the old kernel still exists,
    // but its runner does not.
    const EmulatedKernel again = compile("copy.cu", kCopy);
    QVERIFY(again.valid());
    QVERIFY(!exists(r.runner_pid));
    QCOMPARE(kept_runner_pid(old), 0);
    // Both still run.
    const EmulatedRunResult a = run_emulated(again, copy_launch(x, out, 64), kept());
    QVERIFY2(a.ok(), a.message.c_str());
    const EmulatedRunResult b = run_emulated(old, copy_launch(x, out, 64), kept());
    QVERIFY2(b.ok(), b.message.c_str());
    QVERIFY(out == x);
}

void TestUserKeptRunner::a_run_of_another_kernel_ends_the_runner() {
    const EmulatedKernel copy = compile("copy.cu", kCopy);
    const EmulatedKernel gray = compile("grayscale_1d.cu", lecture_kernel("grayscale_1d.cu"));
    QVERIFY(copy.valid() && gray.valid());
    std::vector<std::uint8_t> x = bytes(64, 5), out(64, 0);
    const EmulatedRunResult c = run_emulated(copy, copy_launch(x, out, 64), kept());
    QVERIFY2(c.ok(), c.message.c_str());
    QCOMPARE(kept_runner_pid(copy), c.runner_pid);
    Gray g(333, 64, 6);
    const EmulatedRunResult r = run_emulated(gray, g.launch, kept());
    QVERIFY2(r.ok(), r.message.c_str());
    QVERIFY(!exists(c.runner_pid));  // one kernel keeps a runner at a time
    QCOMPARE(kept_runner_pid(copy), 0);
    QCOMPARE(kept_runner_pid(gray), r.runner_pid);
    end_kept_runner();
    QVERIFY(!exists(r.runner_pid));
    QCOMPARE(kept_runner_pid(gray), 0);
}

void TestUserKeptRunner::destroying_the_kernel_leaves_no_process() {
    int pid = 0;
    {
        const EmulatedKernel k = compile("grayscale_1d.cu", lecture_kernel("grayscale_1d.cu"));
        QVERIFY(k.valid());
        Gray g(1001, 64, 7);
        const EmulatedRunResult r = run_emulated(k, g.launch, kept());
        QVERIFY2(r.ok(), r.message.c_str());
        pid = r.runner_pid;
        {
            const EmulatedKernel copy = k;  // copies share the compile and its runner
            QCOMPARE(kept_runner_pid(copy), pid);
        }
        QVERIFY(exists(pid));  // a copy's end is not the kernel's
    }
    QVERIFY(pid > 0);
    QVERIFY(!exists(pid));
}

void TestUserKeptRunner::only_direct_runs_are_kept() {
    // Traced runs and kernels with barriers run on the instrumented object, each in a runner of its own.
    const EmulatedKernel k = compile("grayscale_1d.cu", lecture_kernel("grayscale_1d.cu"));
    QVERIFY(k.valid());
    Gray g(300, 64, 8);
    EmulatedRunOptions traced = kept();
    traced.trace = true;
    const EmulatedRunResult t = run_emulated(k, g.launch, traced);
    QVERIFY2(t.ok() && !t.direct, t.message.c_str());
    QVERIFY(!exists(t.runner_pid));
    QCOMPARE(kept_runner_pid(k), 0);
    const EmulatedKernel tiled = compile("matmul_tiled.cu", lecture_kernel("matmul_tiled.cu"));
    QVERIFY(tiled.valid() && !tiled.direct());
    const std::uint32_t s = 19;
    std::vector<float> a(s * s, 1.0f), b(s * s, 2.0f), c(s * s, 0.0f);
    UserLaunch l;
    l.block = Dim3{16, 16, 1};
    l.grid = Dim3{2, 2, 1};
    l.args = {UserArg::buffer("m", a.data(), a.size() * 4, 4, false), UserArg::buffer("n", b.data(), b.size() * 4, 4, false),
              UserArg::buffer("out", c.data(), c.size() * 4, 4, true), UserArg::integer("h", int(s)),
              UserArg::integer("w", int(s)), UserArg::integer("k", int(s))};
    const EmulatedRunResult m = run_emulated(tiled, l, kept());
    QVERIFY2(m.ok() && !m.direct, m.message.c_str());
    QCOMPARE(c[s * s - 1], 2.0f * float(s));
    QCOMPARE(kept_runner_pid(tiled), 0);
}

void TestUserKeptRunner::a_runner_ends_when_its_caller_hangs_up() {
    // A kept runner has no PR_SET_PDEATHSIG (kept_child.h): when its caller dies, its request socket
    // hangs up, and it ends by itself. Here the caller's end is closed with nothing sent and nothing
    // killed; the runner must exit, cleanly.
    const std::string runner = kernel_runner_path();
    QVERIFY(!runner.empty());
    int request[2], output[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, request), 0);
    QCOMPARE(::pipe2(output, O_CLOEXEC), 0);
    ChildSpec spec;
    spec.argv = {runner, kRunnerServe};
    std::string error;
    const pid_t pid = spawn_child(spec, request[1], output[1], -1, &error);
    ::close(request[1]);
    ::close(output[1]);
    QVERIFY2(pid > 0, error.c_str());
    const int exited = int(::syscall(SYS_pidfd_open, pid, 0));
    ::close(request[0]);  // the caller hangs up
    // Its exit is waited for on its pidfd; the bound is only there so that a runner that never ends
    // fails the test instead of hanging it.
    if (exited >= 0) {
        pollfd p{exited, POLLIN, 0};
        const int ready = ::poll(&p, 1, 120 * 1000);
        ::close(exited);
        if (ready != 1) ::kill(pid, SIGKILL);
        QCOMPARE(ready, 1);
    }
    int status = 0;
    QCOMPARE(::waitpid(pid, &status, 0), pid);
    ::close(output[0]);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
}

QTEST_GUILESS_MAIN(TestUserKeptRunner)
#include "tst_user_kept_runner.moc"
