#include "user_emulated.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "../core/launch_limits.h"
#include "../trace/memory_trace_io.h"
#include "child_process.h"
#include "emulated_source.h"
#include "kept_child.h"
#include "runner_job.h"
#include "shared_buffer.h"

#ifndef CVZ_KERNEL_RUNNER_BUILD_PATH
#define CVZ_KERNEL_RUNNER_BUILD_PATH ""
#endif
#ifndef CVZ_USER_CXX
#define CVZ_USER_CXX "g++"
#endif

namespace cvz::user {

struct EmulatedKernel::State {
    TempDir dir;
    std::string object;
    std::string direct_object;  // the direct unit's object (emulated_source.h); empty when there is none
    std::string file_name;
    KernelSignature signature;
    bool barriers = false;
    // The kept runner of the direct object (EmulatedRunOptions::keep_runner), held by one run at a time;
    // destroyed (killed and reaped) with the state, before the directory with its object goes.
    mutable std::mutex runner_mutex;
    mutable std::unique_ptr<KeptChild> runner;
};

const KernelSignature& EmulatedKernel::signature() const { return state_->signature; }
const std::string& EmulatedKernel::file_name() const { return state_->file_name; }
bool EmulatedKernel::barriers() const { return state_->barriers; }
bool EmulatedKernel::direct() const { return !state_->direct_object.empty(); }

namespace {

bool executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

std::string compiler() {
    const char* e = std::getenv("CUDAVIZ_USER_CXX");
    return e && *e ? e : CVZ_USER_CXX;
}

bool write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return bool(out);
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool starts_with(const std::string& s, const std::string& head) { return s.compare(0, head.size(), head) == 0; }

// "FILE:LINE:COL: error: MESSAGE" (COL optional) into its parts; false for other lines.
bool parse_message(const std::string& line, std::string* file, unsigned* row, unsigned* col, bool* error,
                   std::string* message) {
    static const char* const kKinds[] = {": fatal error: ", ": error: ", ": warning: "};
    for (const char* kind : kKinds) {
        const std::size_t at = line.find(kind);
        if (at == std::string::npos) continue;
        std::string where = line.substr(0, at);
        // Peel ":COL" and ":LINE" off the end.
        std::vector<unsigned> numbers;
        while (numbers.size() < 2) {
            const std::size_t colon = where.rfind(':');
            if (colon == std::string::npos || colon + 1 == where.size()) break;
            const std::string n = where.substr(colon + 1);
            if (n.find_first_not_of("0123456789") != std::string::npos) break;
            numbers.insert(numbers.begin(), unsigned(std::strtoul(n.c_str(), nullptr, 10)));
            where.resize(colon);
        }
        if (numbers.empty()) return false;
        *file = where;
        *row = numbers[0];
        *col = numbers.size() > 1 ? numbers[1] : 0;
        *error = std::strcmp(kind, ": warning: ") != 0;
        *message = line.substr(at + std::strlen(kind));
        return true;
    }
    return false;
}

// The compiler's messages mapped onto the user's file: its own lines as they are; the prelude's and the
// entry's (a call that does not fit the kernel, a clash with a name the prelude defines) at the kernel's line.
std::vector<Diagnostic> diagnostics(const std::string& log, const SourceFile& file, const KernelSignature& kernel) {
    // The user's own lines first: an error there (an unclosed macro call) often shows in the wrapping
    // code too, where it says less.
    std::vector<Diagnostic> own, mapped;
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        Diagnostic d;
        std::string where;
        if (!parse_message(line, &where, &d.line, &d.column, &d.error, &d.message)) continue;
        d.file = file.name;
        if (d.message.find("[-Werror=stack-usage=]") != std::string::npos)
            d.message += " (the emulator runs each thread on a small stack of its own: keep a thread's local arrays "
                         "under 32 KiB, or put large ones in __shared__ or global memory)";
        if (where == file.name) {
            own.push_back(std::move(d));
            continue;
        }
        const bool ours = where == kPreludeName || where == kEntryName;
        d.message = (ours ? std::string("in the code cudaviz wraps the kernel in: ")
                          : "in " + where + ":" + std::to_string(d.line) + ": ") + d.message;
        d.line = kernel.line;
        d.column = 0;
        mapped.push_back(std::move(d));
    }
    own.insert(own.end(), mapped.begin(), mapped.end());
    return own;
}

std::string seconds_text(double s) {
    std::ostringstream o;
    o << s;
    return o.str();
}

Fault fault_of(const std::string& word) {
    if (word == "Bounds") return Fault::Bounds;
    if (word == "Invalid") return Fault::Invalid;
    if (word == "TimeLimit") return Fault::TimeLimit;
    if (word == "Barrier") return Fault::Barrier;
    return Fault::Crashed;
}

// Writes `bytes` of `data` into the shared memory through its file: the pages are made and filled by
// the write, not by a page fault each as a copy into the mapping would (a launch's input is megabytes).
// False when that fails (the caller then copies into the mapping).
bool fill(const SharedBuffer& b, const void* data, std::size_t bytes) {
    const int fd = ::open(b.path().c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    std::size_t done = 0;
    while (done < bytes) {
        const ssize_t n = ::pwrite(fd, static_cast<const char*>(data) + done, bytes - done, off_t(done));
        if (n <= 0) break;
        done += std::size_t(n);
    }
    ::close(fd);
    return done == bytes;
}

// The reverse: reads the shared memory's `bytes` into `data` through its file, without faulting its
// pages into this process's mapping. False when that fails (the caller then copies from the mapping).
bool drain(const SharedBuffer& b, void* data, std::size_t bytes) {
    const int fd = ::open(b.path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    std::size_t done = 0;
    while (done < bytes) {
        const ssize_t n = ::pread(fd, static_cast<char*>(data) + done, bytes - done, off_t(done));
        if (n <= 0) break;
        done += std::size_t(n);
    }
    ::close(fd);
    return done == bytes;
}

// The shared memory of runs that ended (ok, or asking for the instrumented run), kept for the next
// launch with buffers of the same sizes: a launch's megabytes are then neither allocated nor freed
// again (about a third of a small launch's time went there). Up to kPoolBytes, the oldest given up
// first; a buffer is filled afresh before each run, and one whose runner ended otherwise is not kept.
constexpr std::size_t kPoolBytes = std::size_t(128) << 20;
std::mutex g_pool_mutex;
std::vector<SharedBuffer> g_pool;  // oldest first

SharedBuffer take_buffer(std::size_t bytes, const std::string& name, std::string* error) {
    {
        std::lock_guard<std::mutex> lock(g_pool_mutex);
        for (std::size_t k = g_pool.size(); k-- > 0;)
            if (g_pool[k].size() == bytes && bytes > 0) {
                SharedBuffer b = std::move(g_pool[k]);
                g_pool.erase(g_pool.begin() + std::ptrdiff_t(k));
                return b;
            }
    }
    return SharedBuffer::create_anonymous(name, bytes, error);
}

void give_buffers(std::vector<SharedBuffer>& buffers) {
    std::lock_guard<std::mutex> lock(g_pool_mutex);
    for (SharedBuffer& b : buffers)
        if (b.valid() && b.size() > 0 && b.size() <= kPoolBytes) g_pool.push_back(std::move(b));
    std::size_t total = 0;
    for (const SharedBuffer& b : g_pool) total += b.size();
    std::size_t drop = 0;
    while (total > kPoolBytes) total -= g_pool[drop++].size();
    g_pool.erase(g_pool.begin(), g_pool.begin() + std::ptrdiff_t(drop));
}

std::string tail(const std::string& s, std::size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

// The host compiler's command for a unit of the emulated path. Compile only with -fsanitize=thread (the
// hooks are the runner's; linking TSan's runtime would make the object unloadable), with a debug line
// table for the access sites, no contraction (the emulator's bytes), nothing that widens or merges
// accesses (the trace must see the code's own), and a cap on a function's stack: fiber stacks have no
// guard page. No sibling calls: an atomic function called last in the kernel must return to the user's
// line (its return address is its site).
std::vector<std::string> compile_command(const std::string& include, const std::string& source, const std::string& object) {
    return {compiler(), "-std=c++17", "-O2", "-fPIC", "-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0",
            "-gdwarf-4", "-ffp-contract=off", "-Werror=stack-usage=32768", "-fno-tree-vectorize",
            "-fno-tree-slp-vectorize", "-fno-tree-loop-distribute-patterns", "-fno-store-merging", "-fno-optimize-sibling-calls",
            "-fno-exceptions", "-fno-rtti", "-fno-plt", "-fvisibility=hidden", "-fdiagnostics-color=never",
            "-fno-diagnostics-show-caret", "-fmax-errors=30", "-I", include, "-c", "-x", "c++", source, "-o", object};
}

// Compiles and links the direct unit into `shared_object`; true when it did. Its messages are not the
// user's: a file the direct unit cannot take runs on the instrumented object only.
bool build_direct_object(const std::string& include, const std::string& source, const std::string& shared_object,
                       const CancelToken* cancel) {
    ChildSpec cc;
    cc.argv = compile_command(include, source, source + ".o");
    // For this machine's processor (the object runs nowhere else): fewer instructions for the same
    // arithmetic (three-operand conversions and the like). Contraction stays off, so the results are
    // the instrumented object's to the bit.
    cc.argv.insert(cc.argv.begin() + 1, "-march=native");
    cc.time_limit_s = 120;
    cc.cancel = cancel;
    if (!run_child(cc).succeeded()) return false;
    ChildSpec ld;
    ld.argv = {compiler(), "-shared", "-o", shared_object, source + ".o"};
    ld.time_limit_s = 120;
    ld.cancel = cancel;
    return run_child(ld).succeeded();
}

}  // namespace

EmulatedKernel EmulatedKernel::compile(const SourceFile& file, const KernelSignature& kernel, CompileOutput* out,
                                       const CancelToken* cancel) {
    *out = CompileOutput{};
    end_kept_runner();  // a new compile: the kernel it replaces needs no runner kept for it
    const auto fail = [&](std::string message, unsigned line = 0) {
        Diagnostic d;
        d.file = file.name;
        d.line = line;
        d.message = std::move(message);
        out->diagnostics.push_back(std::move(d));
        return EmulatedKernel();
    };
    const EmulatedSource unit = make_emulated_source(file, kernel);
    if (!unit.error.empty()) return fail(unit.error, kernel.line);

    auto state = std::make_shared<State>();
    std::string error;
    state->dir = TempDir::make("cudaviz-kernel", &error);
    if (!state->dir.valid()) return fail(error);
    const std::string source = state->dir.file("kernel.cpp"), object = state->dir.file("kernel.o");
    state->object = state->dir.file("kernel.so");
    state->file_name = file.name;
    state->signature = kernel;
    state->barriers = unit.barriers;
    if (!write_text(source, unit.text)) return fail("cannot write " + source);
    // The CUDA headers a kernel file may include: empty here, the prelude declares what they would.
    const std::string include = state->dir.file("include");
    if (::mkdir(include.c_str(), 0700) != 0) return fail("cannot make " + include);
    for (const char* h : {"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "device_launch_parameters.h",
                          "device_functions.h"})
        if (!write_text(include + "/" + h, "// cudaviz: the emulator's prelude declares what this header would\n"))
            return fail("cannot write " + include + "/" + h);

    // The direct unit, when the file has one, is built beside the instrumented one, at the same time (a
    // second process): the compile's wall clock stays about that of one unit where a core is free.
    const auto started = std::chrono::steady_clock::now();
    std::thread direct;
    bool direct_built = false;
    const std::string direct_source = state->dir.file("direct.cpp"), direct_object = state->dir.file("direct.so");
    if (!unit.direct_text.empty() && write_text(direct_source, unit.direct_text))
        direct = std::thread([&] { direct_built = build_direct_object(include, direct_source, direct_object, cancel); });
    struct Join {
        std::thread& t;
        ~Join() {
            if (t.joinable()) t.join();
        }
    } join{direct};
    ChildSpec cc;
    cc.argv = compile_command(include, source, object);
    cc.time_limit_s = 120;
    cc.cancel = cancel;
    ChildResult r = run_child(cc);
    if (r.end == ChildResult::End::Cancelled) return fail("the compile was cancelled");
    if (r.end == ChildResult::End::TimeLimit) return fail("the compiler took more than 120 s and was stopped");
    out->seconds = r.seconds;
    out->log = r.output;
    out->diagnostics = diagnostics(r.output, file, kernel);
    if (r.end == ChildResult::End::NotStarted) return fail("cannot run the compiler: " + r.error);
    if (!r.succeeded()) {
        bool any_error = false;
        for (const Diagnostic& d : out->diagnostics) any_error |= d.error;
        if (!any_error) fail("the compiler failed: " + tail(r.output.empty() ? "no message" : r.output, 2000));
        return EmulatedKernel();
    }
    ChildSpec ld;
    ld.argv = {compiler(), "-shared", "-o", state->object, object};
    ld.time_limit_s = 120;
    ld.cancel = cancel;
    r = run_child(ld);
    if (r.end == ChildResult::End::Cancelled) return fail("the compile was cancelled");
    out->seconds += r.seconds;
    out->log += r.output;
    if (!r.succeeded()) return fail("linking the kernel failed: " + tail(r.output.empty() ? r.error : r.output, 2000));
    if (direct.joinable()) direct.join();
    if (direct_built) state->direct_object = direct_object;
    out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out->ok = true;
    EmulatedKernel k;
    k.state_ = std::move(state);
    return k;
}

namespace {

// The kernel whose runner is kept: one at a time, so that the compiles an app keeps (a cache of them)
// do not keep a process each. A weak reference: the kernel's last copy ends its runner.
std::mutex g_kept_mutex;
std::weak_ptr<const EmulatedKernel::State> g_kept_owner;

// Makes `owner` (empty: none) the kernel whose runner is kept; the one that was ends its runner now, or,
// when a run holds it, at that run's end (run_kept).
void set_kept_owner(const std::shared_ptr<const EmulatedKernel::State>& owner) {
    std::shared_ptr<const EmulatedKernel::State> before;
    {
        const std::lock_guard<std::mutex> lock(g_kept_mutex);
        before = g_kept_owner.lock();
        g_kept_owner = owner;
    }
    if (!before || before == owner) return;
    std::unique_lock<std::mutex> held(before->runner_mutex, std::try_to_lock);
    if (held.owns_lock()) before->runner.reset();
}

bool kept_owner_is(const EmulatedKernel::State* state) {
    const std::lock_guard<std::mutex> lock(g_kept_mutex);
    return g_kept_owner.lock().get() == state;
}

// One run of `job_text` on the kernel's kept runner, started when it has none or its last one ended.
// *used is false when another run of the kernel holds it (this run then takes a runner of its own).
ChildResult run_kept(const EmulatedKernel& kernel, const std::string& runner, const std::string& job_text,
                     double time_limit_s, const CancelToken* cancel, int* pid, bool* used) {
    const std::shared_ptr<const EmulatedKernel::State> state = kernel.shared_state();
    std::unique_lock<std::mutex> held(state->runner_mutex, std::try_to_lock);
    *used = held.owns_lock();
    if (!*used) return {};
    set_kept_owner(state);
    ChildResult r;
    // Twice at most: a runner that ended between two runs (killed from outside) takes no request.
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!state->runner || state->runner->ended()) {
            state->runner.reset();
            ChildSpec spec;
            spec.argv = {runner, kRunnerServe};
            state->runner = KeptChild::start(spec, &r.error);
            if (!state->runner) return r;
        }
        *pid = state->runner->pid();
        r = state->runner->exchange(frame_job(job_text), kRunnerOk, time_limit_s, cancel);
        if (r.end != ChildResult::End::NotStarted) break;
    }
    // A fault, the time limit or a cancel ended it (reaped already); a runner no longer the kept one goes.
    if (state->runner && (state->runner->ended() || !kept_owner_is(state.get()))) state->runner.reset();
    return r;
}

}  // namespace

int kept_runner_pid(const EmulatedKernel& kernel) {
    if (!kernel.valid()) return 0;
    const EmulatedKernel::State* state = kernel.state();
    const std::lock_guard<std::mutex> lock(state->runner_mutex);
    return state->runner && !state->runner->ended() ? int(state->runner->pid()) : 0;
}

void end_kept_runner() { set_kept_owner(nullptr); }

std::string kernel_runner_path() {
    if (const char* e = std::getenv("CUDAVIZ_KERNEL_RUNNER"); e && *e) return executable(e) ? e : std::string();
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, std::size_t(n));
        dir.resize(dir.rfind('/') + 1);
        if (executable(dir + "cudaviz-kernel-runner")) return dir + "cudaviz-kernel-runner";
    }
    return executable(CVZ_KERNEL_RUNNER_BUILD_PATH) ? CVZ_KERNEL_RUNNER_BUILD_PATH : std::string();
}

namespace {
// One run of the runner over `launch`, on the direct object or the instrumented one; `retry` is set when
// the direct object met a fault (the result is then empty). `seconds` adds up the runners' wall clocks.
EmulatedRunResult run_once(const EmulatedKernel& kernel, const UserLaunch& launch, const EmulatedRunOptions& options,
                           const std::string& runner, bool direct, double* seconds, bool* retry);
}  // namespace

EmulatedRunResult run_emulated(const EmulatedKernel& kernel, const UserLaunch& launch, const EmulatedRunOptions& options) {
    EmulatedRunResult result;
    const auto refuse = [&](ErrorKind kind, std::string message) {
        result.status = Status::error(kind, std::move(message));
        return result;
    };
    if (!kernel.valid()) return refuse(ErrorKind::InvalidInput, "the kernel was not compiled");
    const KernelSignature& sig = kernel.signature();
    if (launch.args.size() != sig.params.size())
        return refuse(ErrorKind::InvalidInput, sig.name + " takes " + std::to_string(sig.params.size()) + " arguments, the launch gives " +
                                                   std::to_string(launch.args.size()));
    for (std::size_t k = 0; k < launch.args.size(); ++k) {
        const bool pointer = !sig.params[k].type.empty() && sig.params[k].type.back() == '*';
        if (pointer != (launch.args[k].kind == UserArg::Kind::Buffer))
            return refuse(ErrorKind::InvalidInput, "argument " + std::to_string(k + 1) + " of " + sig.name + " (" +
                                                       sig.params[k].type + ") is given " +
                                                       (pointer ? "an int" : "a buffer"));
        if (pointer && launch.args[k].bytes && !launch.args[k].data)
            return refuse(ErrorKind::InvalidInput, "argument " + std::to_string(k + 1) + " of " + sig.name + " has no memory");
    }
    if (std::string e = validate_block(launch.block); !e.empty()) return refuse(ErrorKind::InvalidInput, e);
    if (std::string e = validate_grid(launch.grid); !e.empty()) return refuse(ErrorKind::InvalidInput, e);
    const std::string runner = kernel_runner_path();
    if (runner.empty())
        return refuse(ErrorKind::Unavailable, std::string("cudaviz-kernel-runner was found neither beside this program nor at ") +
                                                  (*CVZ_KERNEL_RUNNER_BUILD_PATH ? CVZ_KERNEL_RUNNER_BUILD_PATH : "its build place"));

    // Untraced launches of a kernel with a direct object run on it; when it meets a fault, the launch runs
    // again on the instrumented object, from the caller's buffers as they were, to name the fault.
    const bool direct = options.direct && kernel.direct() && !options.trace && !options.writers && !kernel.barriers() &&
                      options.trace_options.sample_blocks.empty();
    if (direct) {
        double seconds = 0;
        bool retry = false;
        EmulatedRunResult first = run_once(kernel, launch, options, runner, true, &seconds, &retry);
        first.direct = true;
        // Its answers are kept when it ran to the end, was refused, cancelled or stopped at the time
        // limit (which it names itself); any other end (the retry it asks for, or a runner that ended
        // without an answer) is the instrumented run's to say.
        if (!retry && (first.ok() || !first.status.is_ok() || first.fault == Fault::TimeLimit ||
                       first.fault == Fault::Cancelled))
            return first;
        return run_once(kernel, launch, options, runner, false, &seconds, &retry);
    }
    double seconds = 0;
    bool retry = false;
    return run_once(kernel, launch, options, runner, false, &seconds, &retry);
}

namespace {

EmulatedRunResult run_once(const EmulatedKernel& kernel, const UserLaunch& launch, const EmulatedRunOptions& options,
                           const std::string& runner, bool direct, double* seconds, bool* retry) {
    EmulatedRunResult result;
    const auto refuse = [&](ErrorKind kind, std::string message) {
        result.status = Status::error(kind, std::move(message));
        return result;
    };
    const KernelSignature& sig = kernel.signature();
    std::string error;
    RunnerJob job;
    // A directory for the files the runner writes back, only when it writes some: the job and the
    // buffers are shared memory, which costs no file system work.
    TempDir dir;
    if (options.trace || options.schedule) {
        dir = TempDir::make("cudaviz-run", &error);
        if (!dir.valid()) return refuse(ErrorKind::Unavailable, error);
        job.trace_path = dir.file("trace.bin");
        job.schedule_path = dir.file("schedule.bin");
    }
    job.object = direct ? kernel.state()->direct_object : kernel.state()->object;
    job.file_name = kernel.file_name();
    job.grid = launch.grid;
    job.block = launch.block;
    job.barriers = kernel.barriers();
    job.host_threads = options.host_threads;
    job.dynamic_shared = options.dynamic_shared_bytes;
    job.trace = options.trace;
    job.all_warps = options.trace_options.all_warps;
    job.keep_blocks = options.trace_options.keep_blocks;
    job.sample_blocks = options.trace_options.sample_blocks;
    job.schedule = options.schedule;
    job.progress = options.trace && bool(options.trace_options.progress);
    job.time_limit_s = options.time_limit_s;
    job.access_budget = options.access_budget;
    std::vector<SharedBuffer> buffers(launch.args.size()), writers(launch.args.size());
    for (std::size_t k = 0; k < launch.args.size(); ++k) {
        const UserArg& a = launch.args[k];
        RunnerArg r;
        r.name = a.name.empty() ? sig.params[k].name : a.name;
        if (r.name.empty()) r.name = "arg" + std::to_string(k + 1);
        if (a.kind == UserArg::Kind::Int) {
            r.value = a.value;
            job.args.push_back(r);
            continue;
        }
        r.buffer = true;
        r.bytes = a.bytes;
        r.element_bytes = a.element_bytes ? a.element_bytes : 1;
        r.writable = a.writable;
        buffers[k] = take_buffer(a.bytes, "cudaviz-" + r.name, &error);
        r.path = buffers[k].path();
        if (!buffers[k].valid()) return refuse(ErrorKind::Unavailable, error);
        if (a.bytes && !fill(buffers[k], a.data, a.bytes)) std::memcpy(buffers[k].data(), a.data, a.bytes);
        if (options.writers && a.writable) {
            const std::size_t n = a.bytes / r.element_bytes;
            writers[k] = SharedBuffer::create_anonymous("cudaviz-writers-" + r.name, n * sizeof(Writer), &error);
            r.writers_path = writers[k].path();
            if (!writers[k].valid()) return refuse(ErrorKind::Unavailable, error);
            Writer* w = static_cast<Writer*>(writers[k].data());
            for (std::size_t e = 0; e < n; ++e) w[e] = Writer{};
        }
        job.args.push_back(r);
    }
    const std::string job_text = write_job(job);
    // The runner stops itself at the limit and names the line it was on (job.time_limit_s); this kill, a
    // moment later, is for a runner that cannot.
    const double kill_after_s = options.time_limit_s > 0 ? options.time_limit_s + 2.0 : 0;
    ChildResult r;
    bool kept = false;
    if (direct && options.keep_runner)
        r = run_kept(kernel, runner, job_text, kill_after_s, options.cancel, &result.runner_pid, &kept);
    if (!kept) {
        SharedBuffer job_file = SharedBuffer::create_anonymous("cudaviz-job", job_text.size(), &error);
        if (!job_file.valid() || !fill(job_file, job_text.data(), job_text.size()))
            return refuse(ErrorKind::Unavailable, "cannot write the runner's job: " + error);
        ChildSpec spec;
        spec.argv = {runner, job_file.path()};
        spec.time_limit_s = kill_after_s;
        spec.cancel = options.cancel;
        spec.message_channel = true;
        double reported = 0;
        if (job.progress) {
            spec.on_message = [&](const std::string& line) {
                if (!starts_with(line, kRunnerProgress)) return;
                const double done = std::strtod(line.c_str() + std::strlen(kRunnerProgress), nullptr);
                if (done >= reported && done <= 1) options.trace_options.progress(reported = done);
            };
        }
        spec.on_started = [&](int pid) { result.runner_pid = pid; };
        r = run_child(spec);
    }
    *seconds += r.seconds;
    result.seconds = *seconds;
    result.output = r.output;
    // The answer: the first line that is not progress, then its message.
    std::size_t at = 0;
    while (starts_with(r.messages.substr(at), kRunnerProgress) && r.messages.find('\n', at) != std::string::npos)
        at = r.messages.find('\n', at) + 1;
    const std::string answer = r.messages.substr(at);
    const std::string first = answer.substr(0, answer.find('\n'));
    const std::string rest = answer.size() > first.size() ? answer.substr(first.size() + 1) : std::string();
    const auto trimmed = [](std::string s) {
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
        return s;
    };
    if (r.end == ChildResult::End::NotStarted) return refuse(ErrorKind::Unavailable, r.error);
    if (r.end == ChildResult::End::TimeLimit) {
        result.fault = Fault::TimeLimit;
        result.message = "the time limit of " + seconds_text(options.time_limit_s) +
                         " s was reached: the kernel was stopped (an endless loop?)";
        return result;
    }
    if (r.end == ChildResult::End::Cancelled) {
        result.fault = Fault::Cancelled;
        result.message = "the run was cancelled";
        return result;
    }
    if (direct && first == kRunnerRetry && r.succeeded()) {
        *retry = true;
        give_buffers(buffers);
        return result;
    }
    if (starts_with(first, kRunnerFault)) {
        result.fault = fault_of(first.size() > std::strlen(kRunnerFault) ? first.substr(std::strlen(kRunnerFault) + 1) : "");
        result.message = trimmed(rest);
        return result;
    }
    if (first != kRunnerOk || !r.succeeded()) {
        result.fault = Fault::Crashed;
        if (first == "error") result.message = "the emulator could not run the kernel: " + trimmed(rest);
        else if (r.end == ChildResult::End::Signalled)
            result.message = "the kernel's process was ended by " + signal_text(r.signal);
        else result.message = "the kernel's process ended with exit code " + std::to_string(r.exit_code);
        if (first != "error" && !r.output.empty()) result.message += ": " + tail(r.output, 500);
        return result;
    }

    // Ran to its end: outputs back, then the records.
    for (std::size_t k = 0; k < launch.args.size(); ++k) {
        const UserArg& a = launch.args[k];
        if (a.kind != UserArg::Kind::Buffer || !a.writable) continue;
        if (a.bytes && !drain(buffers[k], a.data, a.bytes)) std::memcpy(a.data, buffers[k].data(), a.bytes);
        if (options.writers) {
            const auto* w = static_cast<const Writer*>(writers[k].data());
            result.writers.emplace_back(w, w + a.bytes / (a.element_bytes ? a.element_bytes : 1));
        }
    }
    give_buffers(buffers);
    if (options.trace) {
        if (std::string e = deserialize_memory_trace(read_text(job.trace_path), job.trace_path, &result.trace); !e.empty())
            return refuse(ErrorKind::Unavailable, e);
    }
    if (options.schedule) {
        if (std::string e = deserialize_block_schedule(read_text(job.schedule_path), job.schedule_path, &result.schedule);
            !e.empty())
            return refuse(ErrorKind::Unavailable, e);
    }
    return result;
}

}  // namespace

}  // namespace cvz::user
