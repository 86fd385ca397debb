#include "app/user/user_run.h"

#include <QThread>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <string_view>
#include <map>
#include <memory>
#include <mutex>

#include "kernels/emulator/block_scheduler.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_emulated.h"
#include "kernels/user/user_gpu.h"

namespace cvz {

namespace {

UserRunResult& fail(UserRunResult& r, UserRunStage stage, ErrorKind kind, const std::string& message) {
    r.stage = stage;
    r.status = Status::error(kind, message);
    return r;
}

// The output's place among the writable arguments: the runner reports writers per writable argument.
std::size_t writable_index(const user::UserLaunch& launch, std::size_t arg) {
    std::size_t index = 0;
    for (std::size_t i = 0; i < arg && i < launch.args.size(); ++i)
        if (launch.args[i].kind == user::UserArg::Kind::Buffer && launch.args[i].writable) ++index;
    return index;
}

std::atomic<std::uint64_t> g_runs{0};

BackendChoice resolved(BackendChoice b) {
    if (b == BackendChoice::Auto) return cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu;
    return b;
}

// What a launch reads: every read-only buffer's bytes and every int, with the sizes.
std::size_t input_key(const user::UserLaunch& launch) {
    std::size_t key = 0;
    auto mix = [&key](std::size_t h) { key ^= h + 0x9e3779b97f4a7c15ull + (key << 6) + (key >> 2); };
    for (const user::UserArg& a : launch.args) {
        if (a.kind == user::UserArg::Kind::Int) {
            mix(std::hash<int>()(a.value));
            continue;
        }
        mix(a.bytes);
        if (!a.writable && a.data)
            mix(std::hash<std::string_view>()(std::string_view(static_cast<const char*>(a.data), a.bytes)));
    }
    return key;
}

// The run offer_user_run keeps for run_user_variant.
struct OfferedRun {
    std::string kernel;  // name, file name and text
    BackendChoice backend = BackendChoice::Cpu;
    std::size_t inputs = 0;
    UserRunResult result;
    std::vector<std::uint8_t> output;
};
std::mutex g_offer_mutex;
std::unique_ptr<OfferedRun> g_offer;

std::string kernel_key(const user::SourceFile& source, const std::string& name) {
    return name + '\n' + source.name + '\n' + source.text;
}

QString cpu_backend_label() { return QStringLiteral("CPU emulator (%1 threads)").arg(QThread::idealThreadCount()); }

// The emulator's compiles, kept by the kernel's text and name (as CuPy keeps its RawKernels): the CLI's
// schedule run, the sweep's shapes and the ladder's rows compile once. A handful of kernels a session.
struct CachedCompile {
    user::CompileOutput output;
    std::shared_ptr<const user::EmulatedKernel> kernel;
};

std::shared_ptr<const CachedCompile> compile_cached(const user::SourceFile& source, const user::KernelSignature& signature) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const CachedCompile>> cache;
    const std::string key = signature.name + '\n' + source.name + '\n' + source.text;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
    }
    auto compiled = std::make_shared<CachedCompile>();
    compiled->kernel = std::make_shared<const user::EmulatedKernel>(
        user::EmulatedKernel::compile(source, signature, &compiled->output));
    const std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= 32) cache.clear();  // a session's worth; recompiling is cheap enough
    cache[key] = compiled;
    return compiled;
}

std::string first_error(const std::vector<user::Diagnostic>& diagnostics) {
    for (const user::Diagnostic& d : diagnostics)
        if (d.error) return user::format(d);
    return "the kernel did not compile";
}

// NVRTC's compiles, kept like the emulator's.
std::shared_ptr<const user::GpuCompileOutput> gpu_compile_cached(const user::SourceFile& source,
                                                                 const user::KernelSignature& signature) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const user::GpuCompileOutput>> cache;
    const std::string key = signature.name + '\n' + source.name + '\n' + source.text;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
    }
    auto compiled = std::make_shared<const user::GpuCompileOutput>(user::compile_for_gpu(source, signature, 0));
    const std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= 32) cache.clear();
    cache[key] = compiled;
    return compiled;
}

}  // namespace

EmulatedCompile compile_emulated(const user::SourceFile& source, const user::KernelSignature& signature) {
    const std::shared_ptr<const CachedCompile> compiled = compile_cached(source, signature);
    EmulatedCompile c;
    c.ok = compiled->output.ok && compiled->kernel->valid();
    c.barriers = c.ok && compiled->kernel->barriers();
    c.diagnostics = compiled->output.diagnostics;
    c.seconds = compiled->output.seconds;
    return c;
}

TraceResult trace_user_launch(const UserVariant& v, user::FamilyCall& call, Dim3 grid, Dim3 block,
                              const TraceOptions& options, double time_limit_s) {
    TraceResult t;
    const user::CallForm* form = nullptr;
    for (const user::CallForm& f : call.forms())
        if (f.id == v.form) form = &f;
    if (!form) {
        t.status = Status::error(ErrorKind::InvalidInput, "your kernel " + v.name + " does not fit this family");
        return t;
    }
    const std::shared_ptr<const CachedCompile> compiled = compile_cached(v.source, v.signature);
    if (!compiled->output.ok || !compiled->kernel->valid()) {
        t.status = Status::error(ErrorKind::InvalidInput, first_error(compiled->output.diagnostics));
        return t;
    }
    const user::UserLaunch launch = call.bind(*form, v.signature, grid, block);
    user::EmulatedRunOptions o;
    o.time_limit_s = time_limit_s;
    o.trace = true;
    o.trace_options = options;
    o.cancel = options.cancel;
    user::EmulatedRunResult run = user::run_emulated(*compiled->kernel, launch, o);
    if (!run.status) {
        t.status = run.status;
        return t;
    }
    if (run.fault == user::Fault::Cancelled || (options.cancel && options.cancel->requested())) {
        t.cancelled = true;
        t.status = Status::error(ErrorKind::InvalidInput, "cancelled");
        return t;
    }
    if (run.fault != user::Fault::None) {
        t.status = Status::error(ErrorKind::InvalidInput, run.message);
        return t;
    }
    t.trace = std::move(run.trace);
    return t;
}

TraceResult trace_user_variant(const UserVariant& v, user::FamilyCall& call, Dim3 block, const TraceOptions& options) {
    for (const user::CallForm& f : call.forms())
        if (f.id == v.form) {
            const Dim3 b = v.one_d ? Dim3{block.x, 1, 1} : block;
            return trace_user_launch(v, call, call.grid(f, b), b, options);
        }
    TraceResult t;
    t.status = Status::error(ErrorKind::InvalidInput, "your kernel " + v.name + " does not fit this family");
    return t;
}

ShapeTiming time_user_launch(const UserVariant& v, user::FamilyCall& call, Dim3 grid, Dim3 block,
                             const TimingOptions& options) {
    ShapeTiming t;
    if (const Status s = cuda_backend_status(); !s) {
        t.status = s;
        return t;
    }
    const user::CallForm* form = nullptr;
    for (const user::CallForm& f : call.forms())
        if (f.id == v.form) form = &f;
    if (!form) {
        t.status = Status::error(ErrorKind::InvalidInput, "your kernel " + v.name + " does not fit this family");
        return t;
    }
    const std::shared_ptr<const user::GpuCompileOutput> compiled = gpu_compile_cached(v.source, v.signature);
    if (!compiled->status || !compiled->compiled()) {
        t.status = !compiled->status ? compiled->status
                                     : Status::error(ErrorKind::InvalidInput, first_error(compiled->diagnostics));
        return t;
    }
    user::GpuRunOptions o;
    o.time = true;
    o.timing = options;
    o.timing.cancel = nullptr;
    o.timing.progress = nullptr;
    o.timing.shape_done = nullptr;
    o.cancel = options.cancel;
    const user::GpuRunResult run = user::run_on_gpu(*compiled, call.bind(*form, v.signature, grid, block), o);
    if (!run.ran || !run.status) {
        t.status = !run.status ? run.status : Status::error(ErrorKind::Device, run.message);
        return t;
    }
    return run.timing;
}

void offer_user_run(user::FamilyCall& call, const UserRunRequest& request, const UserRunResult& result) {
    const std::lock_guard<std::mutex> lock(g_offer_mutex);
    g_offer.reset();
    if (!result.ok()) return;
    const user::FormChoice form = user::pick_form(result.signature, call.forms());
    if (!form.form) return;
    auto offer = std::make_unique<OfferedRun>();
    offer->kernel = kernel_key(request.source, result.signature.name);
    offer->backend = resolved(request.backend);
    offer->result = result;
    const auto* out = static_cast<const std::uint8_t*>(call.output());
    offer->output.assign(out, out + call.output_bytes());
    // Binding again fills the inputs (as the run saw them) and clears the output: put it back.
    const user::UserLaunch launch = call.bind(*form.form, result.signature, result.grid, result.block);
    offer->inputs = input_key(launch);
    const std::size_t o = call.output_arg();
    if (o < launch.args.size() && launch.args[o].data && launch.args[o].bytes == offer->output.size())
        std::memcpy(launch.args[o].data, offer->output.data(), offer->output.size());
    g_offer = std::move(offer);
}

std::uint64_t user_kernel_runs() { return g_runs.load(); }

UserRunResult run_user_variant(const UserVariant& v, user::FamilyCall& call, Dim3 block, BackendChoice backend,
                               const CancelToken* cancel) {
    UserRunRequest request;
    request.source = v.source;
    request.kernel_name = v.name;
    request.block = v.one_d ? Dim3{block.x, 1, 1} : block;
    request.backend = backend;
    request.writers = true;
    request.cancel = cancel;
    {
        // The editor's run of this very launch, when it was just offered: taken instead of running again.
        const std::lock_guard<std::mutex> lock(g_offer_mutex);
        if (g_offer && g_offer->kernel == kernel_key(v.source, v.name) && g_offer->backend == resolved(backend) &&
            g_offer->result.block == *request.block) {
            std::unique_ptr<OfferedRun> offer = std::move(g_offer);
            const user::FormChoice form = user::pick_form(v.signature, call.forms());
            if (form.form && call.grid(*form.form, *request.block) == offer->result.grid) {
                const user::UserLaunch launch = call.bind(*form.form, v.signature, offer->result.grid, offer->result.block);
                const std::size_t o = call.output_arg();
                if (input_key(launch) == offer->inputs && o < launch.args.size() && launch.args[o].data &&
                    launch.args[o].bytes == offer->output.size()) {
                    std::memcpy(launch.args[o].data, offer->output.data(), offer->output.size());
                    return std::move(offer->result);
                }
            }
        }
    }
    return run_user_kernel(call, request);
}

ScheduleRun record_user_schedule(const UserVariant& v, user::FamilyCall& call, Dim3 block, BackendChoice backend,
                                 const CancelToken* cancel) {
    UserRunRequest request;
    request.source = v.source;
    request.kernel_name = v.name;
    request.block = v.one_d ? Dim3{block.x, 1, 1} : block;
    request.backend = backend;
    request.writers = false;
    request.schedule = true;
    request.cancel = cancel;
    const UserRunResult r = run_user_kernel(call, request);
    ScheduleRun run;
    if (!r.ok()) {
        run.status = r.status;
        return run;
    }
    run.schedule = r.schedule;
    const auto* bytes = static_cast<const std::uint8_t*>(call.output());
    run.output.assign(bytes, bytes + call.output_bytes());
    return run;
}

QString fault_heading(user::Fault fault) {
    switch (fault) {
        case user::Fault::None: return {};
        case user::Fault::Bounds: return QStringLiteral("out of bounds");
        case user::Fault::Invalid: return QStringLiteral("invalid memory access");
        case user::Fault::TimeLimit: return QStringLiteral("time limit");
        case user::Fault::Barrier: return QStringLiteral("divergent __syncthreads()");
        case user::Fault::Crashed: return QStringLiteral("crash");
        case user::Fault::Device: return QStringLiteral("GPU error");
        case user::Fault::Cancelled: return QStringLiteral("cancelled");
    }
    return QStringLiteral("failure");
}

namespace {

// After the GPU reported a store outside a buffer (seen in a guard zone, after the fact) or stopped the
// kernel, the same launch on the emulator, which checks every access as it happens: its message names
// the thread and the line. Empty when the emulator cannot say (it does not compile the kernel, or it
// was cancelled); a clean emulated run is said as such. `fault` receives the emulator's fault.
std::string emulator_witness(user::FamilyCall& call, const user::CallForm& form, const UserRunRequest& req, const UserRunResult& r,
                             user::Fault* fault) {
    *fault = user::Fault::None;
    const std::shared_ptr<const CachedCompile> emulated = compile_cached(req.source, r.signature);
    if (!emulated->output.ok || !emulated->kernel->valid()) return {};
    user::EmulatedRunOptions o;
    o.time_limit_s = req.time_limit_s;
    o.cancel = req.cancel;
    const user::EmulatedRunResult run = user::run_emulated(*emulated->kernel, call.bind(form, r.signature, r.grid, r.block), o);
    if (!run.status || run.fault == user::Fault::Cancelled) return {};
    if (run.fault == user::Fault::None) {
        call.bind(form, r.signature, r.grid, r.block);  // the output as a failed run leaves it: cleared
        return "the emulator ran the same launch without a fault";
    }
    *fault = run.fault;
    return "on the emulator: " + run.message;
}

// The GPU: NVRTC's messages are the user's; the run and its timing happen in the isolated runner; the
// memory figures come from the emulator's trace of the same launch, as the built-ins' do.
UserRunResult& run_on_device(user::FamilyCall& call, const user::CallForm& form, const UserRunRequest& req, UserRunResult& r) {
    if (const Status s = cuda_backend_status(); !s) return fail(r, UserRunStage::Launch, s.kind(), s.message());
    const std::shared_ptr<const user::GpuCompileOutput> compiled = gpu_compile_cached(req.source, r.signature);
    r.diagnostics = compiled->diagnostics;
    r.compile_s = compiled->compile_ms / 1e3;
    if (!compiled->status) return fail(r, UserRunStage::Launch, compiled->status.kind(), compiled->status.message());
    if (!compiled->compiled())
        return fail(r, UserRunStage::Compile, ErrorKind::InvalidInput, first_error(compiled->diagnostics));
    r.barriers = compiled->barriers > 0;
    r.resources = KernelResources{compiled->registers, int(compiled->static_shared_bytes)};

    if (req.trace) {
        const std::shared_ptr<const CachedCompile> emulated = compile_cached(req.source, r.signature);
        if (!emulated->output.ok || !emulated->kernel->valid()) {
            r.diagnostics = emulated->output.diagnostics;
            return fail(r, UserRunStage::Compile, ErrorKind::InvalidInput,
                        "the emulator's compile (for the memory figures): " + first_error(emulated->output.diagnostics));
        }
        user::EmulatedRunOptions o;
        o.time_limit_s = req.time_limit_s;
        o.trace = true;
        o.cancel = req.cancel;
        user::EmulatedRunResult traced = user::run_emulated(*emulated->kernel, call.bind(form, r.signature, r.grid, r.block), o);
        if (!traced.status) return fail(r, UserRunStage::Run, traced.status.kind(), traced.status.message());
        if (traced.fault != user::Fault::None) {
            r.fault = traced.fault;
            return fail(r, UserRunStage::Run, ErrorKind::InvalidInput, traced.message + " (in the emulator's traced run)");
        }
        r.trace = std::move(traced.trace);
    }

    const user::UserLaunch launch = call.bind(form, r.signature, r.grid, r.block);
    user::GpuRunOptions o;
    o.time = true;
    o.record_schedule = req.schedule;
    o.time_limit_s = req.time_limit_s;
    o.cancel = req.cancel;
    g_runs.fetch_add(1);
    const user::GpuRunResult run = user::run_on_gpu(*compiled, launch, o);
    r.backend = QStringLiteral("CUDA (%1)").arg(QString::fromStdString(run.device));
    if (!run.ran || run.fault != user::Fault::None || !run.status) {
        r.fault = run.fault;
        // A fault the kernel made (a time limit) is the user's; what the GPU reports is a device failure.
        const ErrorKind kind = run.fault == user::Fault::TimeLimit || run.fault == user::Fault::Cancelled ? ErrorKind::InvalidInput
                               : run.status                                                          ? ErrorKind::Device
                                                                                                      : run.status.kind();
        std::string message = !run.message.empty() ? run.message : run.status.message();
        if (run.fault == user::Fault::Bounds || run.fault == user::Fault::Device) {
            // The GPU names the buffer (or only the error): the emulator names the thread and the line. A
            // fault it confirms is the kernel's (exit 1), as is a store the guard zones saw.
            user::Fault emulated = user::Fault::None;
            const std::string witness = emulator_witness(call, form, req, r, &emulated);
            if (!witness.empty()) message += "; " + witness;
            if (emulated != user::Fault::None && run.fault == user::Fault::Device) r.fault = emulated;
            if (emulated != user::Fault::None || run.fault == user::Fault::Bounds)
                return fail(r, UserRunStage::Run, ErrorKind::InvalidInput, message);
        }
        return fail(r, UserRunStage::Run, kind == ErrorKind::None ? ErrorKind::Device : kind,
                    message.empty() ? std::string("the GPU runner failed") : message);
    }
    r.run_ms = run.timing.timed ? run.timing.median_ms : run.run_ms;
    r.time_text = run.timing.timed
                      ? QStringLiteral("kernel %1 ms warm (median of %2 after a warm-up)").arg(r.run_ms, 0, 'f', 3).arg(run.timing.launches)
                      : QStringLiteral("kernel %1 ms (one launch)").arg(r.run_ms, 0, 'f', 3);
    if (req.schedule) {
        r.schedule.backend = "cuda";
        r.schedule.device = run.device;
        r.schedule.sms = run.sms;
        if (const std::string e = make_block_schedule(r.grid, run.schedule, &r.schedule); !e.empty())
            return fail(r, UserRunStage::Run, ErrorKind::Device, "the recorded schedule is incomplete: " + e);
    }
    r.comparison = call.compare({}, req.max_listed);  // the GPU does not say who wrote what
    r.stage = UserRunStage::Done;
    return r;
}

}  // namespace

UserRunResult run_user_kernel(user::FamilyCall& call, const UserRunRequest& req) {
    UserRunResult r;

    // Which kernel, and which of the family's forms it fits.
    const std::vector<user::KernelSignature> kernels = user::find_kernels(req.source);
    if (const Status s = user::select_kernel(req.source, kernels, req.kernel_name, &r.signature); !s)
        return fail(r, UserRunStage::Source, ErrorKind::InvalidInput, s.message());
    const user::FormChoice form = user::pick_form(r.signature, call.forms());
    if (!form.form) return fail(r, UserRunStage::Form, ErrorKind::InvalidInput, form.error);
    r.form = form.form->id;
    r.one_d = call.one_d(*form.form);

    // The launch: the family's default block and grid rule unless given.
    if (const std::string e = call.input_error(); !e.empty()) return fail(r, UserRunStage::Launch, ErrorKind::InvalidInput, e);
    r.block = req.block ? *req.block : r.one_d ? Dim3{256, 1, 1} : Dim3{16, 16, 1};
    if (const QString e = block_error(r.block); !e.isEmpty())
        return fail(r, UserRunStage::Launch, ErrorKind::InvalidInput, "invalid block: " + e.toStdString());
    if (!req.grid && r.one_d && (r.block.y != 1 || r.block.z != 1))
        return fail(r, UserRunStage::Launch, ErrorKind::InvalidInput,
                    r.signature.name + " takes the 1-D form " + form.form->written +
                        ": give a 1-D block (N threads), or the grid as well");
    r.grid = req.grid ? *req.grid : call.grid(*form.form, r.block);
    if (const QString e = grid_error(r.grid); !e.isEmpty())
        return fail(r, UserRunStage::Launch, ErrorKind::InvalidInput, e.toStdString());

    BackendChoice backend = req.backend;
    if (backend == BackendChoice::Auto) backend = cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (backend == BackendChoice::Cuda) return run_on_device(call, *form.form, req, r);

    // The emulator: its compile's messages are the user's.
    const std::shared_ptr<const CachedCompile> compiled = compile_cached(req.source, r.signature);
    r.compile_s = compiled->output.seconds;
    r.diagnostics = compiled->output.diagnostics;
    if (!compiled->output.ok || !compiled->kernel->valid())
        return fail(r, UserRunStage::Compile, ErrorKind::InvalidInput, first_error(compiled->output.diagnostics));
    const user::EmulatedKernel& kernel = *compiled->kernel;
    r.barriers = kernel.barriers();

    user::UserLaunch launch = call.bind(*form.form, r.signature, r.grid, r.block);
    user::EmulatedRunOptions options;
    options.time_limit_s = req.time_limit_s;
    options.trace = req.trace;
    options.writers = req.writers;
    options.schedule = req.schedule;
    options.cancel = req.cancel;
    g_runs.fetch_add(1);
    user::EmulatedRunResult run = user::run_emulated(kernel, launch, options);
    r.backend = cpu_backend_label();
    r.run_ms = run.seconds * 1e3;
    r.time_text = QStringLiteral("emulated in %1 ms (the isolated runner, start to end)").arg(r.run_ms, 0, 'f', 1);
    if (!run.status) return fail(r, UserRunStage::Run, run.status.kind(), run.status.message());
    if (run.fault != user::Fault::None) {
        r.fault = run.fault;
        return fail(r, UserRunStage::Run, run.fault == user::Fault::Device ? ErrorKind::Device : ErrorKind::InvalidInput,
                    run.message);
    }
    if (req.trace) r.trace = std::move(run.trace);
    if (req.schedule) {
        // The runner's workers are the "SMs": as many as the host threads, or as the records show.
        int sms = int(host_workers(0));
        for (const BlockTiming& t : run.schedule) sms = std::max(sms, t.sm + 1);
        r.schedule.backend = "cpu";
        r.schedule.device = r.backend.toStdString();
        r.schedule.sms = sms;
        if (const std::string e = make_block_schedule(r.grid, run.schedule, &r.schedule); !e.empty())
            return fail(r, UserRunStage::Run, ErrorKind::Device, "the recorded schedule is incomplete: " + e);
    }
    const std::size_t w = writable_index(launch, call.output_arg());
    if (w < run.writers.size()) r.writers = std::move(run.writers[w]);
    r.comparison = call.compare(r.writers, req.max_listed);
    r.stage = UserRunStage::Done;
    return r;
}

}  // namespace cvz
