#include "user_gpu.h"

#include <cxxabi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "child_process.h"
#include "nvrtc_cubin.h"
#include "nvrtc_log.h"
#include "nvrtc_program.h"
#include "shared_buffer.h"
#include "user_gpu_protocol.h"

namespace cvz::user {

namespace {

// The name NVRTC is given; messages name the user's file through the #line directive instead.
constexpr const char* kProgramName = "cudaviz_user_kernel.cu";
constexpr const char* kRecordedKernel = "cudaviz_recorded";

std::string quoted_for_line(const std::string& name) {
    std::string q;
    for (char c : name) {
        if (c == '\\' || c == '"') q += '\\';
        q += c;
    }
    return q;
}

std::vector<std::string> compile_options(int sm, bool fmad) {
    return {"--gpu-architecture=sm_" + std::to_string(sm), "--ptxas-options=-v", "-std=c++17", fmad ? "--fmad=true" : "--fmad=false",
            "-lineinfo"};
}

// "unsigned char const* __restrict" -> "unsigned char*": the words that do not change a parameter's
// kind go; words are joined by one space, stars glued to them.
std::string bare_type(const std::string& type) {
    std::string out, word;
    auto flush = [&] {
        const bool qualifier = word == "const" || word == "volatile" || word == "__restrict" || word == "__restrict__" || word == "restrict";
        if (!word.empty() && !qualifier) out += (out.empty() || out.back() == '*' ? "" : " ") + word;
        word.clear();
    };
    for (char c : type) {
        if (c == '*' || c == '&') {
            flush();
            out += c;
        } else if (c == ' ' || c == '\t') {
            flush();
        } else {
            word += c;
        }
    }
    flush();
    return out;
}

ParamKind kind_of(const std::string& type) {
    const std::string t = bare_type(type);
    if (t == "unsigned char*") return ParamKind::BytePtr;
    if (t == "float*") return ParamKind::FloatPtr;
    if (t == "int") return ParamKind::Int;
    return ParamKind::Other;
}

// "gray(unsigned char const*, unsigned char*, int)" -> its parameter types, split at top-level commas.
std::vector<std::string> demangled_params(const std::string& d) {
    std::vector<std::string> out;
    const std::size_t open = d.find('(');
    const std::size_t close = d.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close <= open + 1) return out;
    int depth = 0;
    std::string cur;
    for (std::size_t i = open + 1; i < close; ++i) {
        const char c = d[i];
        if (c == '(' || c == '<') ++depth;
        if (c == ')' || c == '>') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(cur);
            cur.clear();
            continue;
        }
        cur += c;
    }
    out.push_back(cur);
    if (out.size() == 1 && bare_type(out[0]) == "void") out.clear();
    return out;
}

std::string demangle(const std::string& mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : std::string();
}

Diagnostic error_at(const SourceFile& source, unsigned line, std::string message) {
    Diagnostic d;
    d.file = source.name;
    d.line = line;
    d.message = std::move(message);
    return d;
}

bool has_error(const std::vector<Diagnostic>& ds) {
    for (const Diagnostic& d : ds)
        if (d.error) return true;
    return false;
}

}  // namespace

bool GpuCompileOutput::compiled() const { return status.is_ok() && !has_error(diagnostics) && !cubin.empty(); }

GpuCompileOutput compile_for_gpu(const SourceFile& source, const KernelSignature& signature, int sm, bool fmad) {
    GpuCompileOutput out;
    out.fmad = fmad;
    out.source = source;
    out.signature = signature;
    if (sm <= 0) sm = cuda_device_sm(0);
    if (sm <= 0) sm = 90;
    out.sm = sm;

    NvrtcRequest request;
    request.program_name = kProgramName;
    request.source = "#line 1 \"" + quoted_for_line(source.name) + "\"\n" + source.text;
    request.options = compile_options(sm, fmad);
    request.name_expressions = {signature.name};
    NvrtcResult result = nvrtc_compile(request);
    out.status = result.status;
    out.log = result.log;
    out.compile_ms = result.compile_ms;
    out.diagnostics = parse_nvrtc_log(result.log, kProgramName, source.name);
    // A kernel name that is not in the file fails NVRTC's lookup of the name expression, which it
    // reports in a file of its own making: said once, plainly, on the user's file instead.
    const std::size_t before = out.diagnostics.size();
    out.diagnostics.erase(std::remove_if(out.diagnostics.begin(), out.diagnostics.end(),
                                         [](const Diagnostic& d) { return d.file == "__nv_name_map"; }),
                          out.diagnostics.end());
    if (out.diagnostics.size() != before)
        out.diagnostics.push_back(error_at(source, signature.line, "no __global__ function named " + signature.name));
    if (!result.status || !result.compiled) {
        if (result.status && !has_error(out.diagnostics))  // a failure the log did not explain
            out.diagnostics.push_back(error_at(source, 0, "NVRTC could not compile the kernel:\n" + result.log));
        return out;
    }
    out.lowered_name = result.lowered_names.empty() ? std::string() : result.lowered_names[0];
    if (out.lowered_name.empty()) {
        out.diagnostics.push_back(error_at(source, signature.line, "no __global__ function named " + signature.name));
        return out;
    }
    out.cubin = std::move(result.cubin);

    // Cross-check the signature with the compiler's own view of the parameters (extern "C" kernels
    // have no mangled types to compare).
    out.demangled = demangle(out.lowered_name);
    if (!out.demangled.empty()) {
        const std::vector<std::string> types = demangled_params(out.demangled);
        bool same = types.size() == signature.params.size();
        for (std::size_t i = 0; same && i < types.size(); ++i) same = kind_of(types[i]) == signature.params[i].kind;
        if (!same) {
            out.diagnostics.push_back(error_at(source, signature.line,
                                               "the compiler sees " + out.demangled + ", not " + signature.text()));
            out.cubin.clear();
            return out;
        }
    }
    bool from_ptxas = false;
    for (const PtxasResources& r : parse_ptxas_resources(result.log)) {
        if (r.function != out.lowered_name) continue;
        from_ptxas = true;
        out.registers = r.registers;
        out.barriers = r.barriers;
        out.static_shared_bytes = r.shared_bytes;
        out.stack_bytes = r.stack_bytes;
    }
    if (!from_ptxas) {  // the machine code came from the compute cache: read the CUBIN itself
        const CubinResources r = cubin_resources(out.cubin, out.lowered_name, sm);
        out.registers = r.registers;
        out.barriers = r.barriers;
        out.static_shared_bytes = r.shared_bytes;
    }
    return out;
}

std::string schedule_recording_source(const SourceFile& source, const KernelSignature& signature) {
    std::string s;
    // The user's kernels become __device__ functions. NVRTC knows no push_macro: the wrapper below
    // spells __global__ as the attribute it stands for (crt/host_defines.h).
    s += "#undef __global__\n#define __global__ __device__\n";
    s += "#line 1 \"" + quoted_for_line(source.name) + "\"\n";
    s += source.text;
    s += "\n#line 1 \"cudaviz-schedule-recording\"\n";
    // As kernels/cuda/schedule_recording_context.cuh: one atomic per warp (its lowest active lane),
    // before and after the body; thread 0 writes %smid; %globaltimer read hi, lo, hi.
    s += R"(static __device__ __forceinline__ unsigned long long cudaviz_global_timer() {
    unsigned hi, lo, hi_again;
    asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
    for (;;) {
        asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
        asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi_again));
        if (hi_again == hi) break;
        hi = hi_again;
    }
    return ((unsigned long long)hi << 32) | lo;
}
static __device__ __forceinline__ bool cudaviz_warp_leader() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane == unsigned(__ffs(__activemask()) - 1);
}
)";
    s += "extern \"C\" __attribute__((global)) void ";
    s += kRecordedKernel;
    s += "(";
    std::string call;
    for (std::size_t i = 0; i < signature.params.size(); ++i) {
        const std::string name = "cudaviz_p" + std::to_string(i);
        s += signature.params[i].type + " " + name + ", ";
        call += (i ? ", " : "") + name;
    }
    s += "unsigned long long* cudaviz_start, unsigned long long* cudaviz_end, int* cudaviz_sm) {\n";
    s += R"(    const unsigned long long block = ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        cudaviz_sm[block] = int(sm);
    }
    if (cudaviz_warp_leader()) atomicMin(&cudaviz_start[block], cudaviz_global_timer());
)";
    s += "    " + signature.name + "(" + call + ");\n";
    s += "    if (cudaviz_warp_leader()) atomicMax(&cudaviz_end[block], cudaviz_global_timer());\n}\n";
    return s;
}

namespace {

bool executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

std::string self_dir() {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    std::string p(buf, std::size_t(n));
    const std::size_t slash = p.rfind('/');
    return slash == std::string::npos ? std::string() : p.substr(0, slash);
}

#if CUDAVIZ_HAVE_CUDA
// The end of the runner's output, for a message.
std::string tail_of(std::string text, std::size_t most) {
    if (text.size() > most) text = "..." + text.substr(text.size() - most);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

std::string seconds_text(double s) {
    std::ostringstream o;
    o << s;
    return o.str();
}
#endif

GpuRunResult failed(ErrorKind kind, std::string message, Fault fault = Fault::None) {
    GpuRunResult r;
    r.status = Status::error(kind, message);
    r.fault = fault;
    r.message = std::move(message);
    return r;
}

}  // namespace

std::string find_gpu_runner() {
    const std::string name = "cudaviz-gpu-runner";
    if (const char* env = std::getenv("CUDAVIZ_GPU_RUNNER"); env && executable(env)) return env;
    if (const std::string dir = self_dir(); !dir.empty() && executable(dir + "/" + name)) return dir + "/" + name;
#ifdef CUDAVIZ_GPU_RUNNER_BUILD_PATH
    if (executable(CUDAVIZ_GPU_RUNNER_BUILD_PATH)) return CUDAVIZ_GPU_RUNNER_BUILD_PATH;
#endif
    if (const char* path = std::getenv("PATH")) {
        std::istringstream dirs(path);
        for (std::string dir; std::getline(dirs, dir, ':');)
            if (!dir.empty() && executable(dir + "/" + name)) return dir + "/" + name;
    }
    return {};
}

GpuRunResult run_on_gpu(const GpuCompileOutput& compiled, const UserLaunch& launch, const GpuRunOptions& options) {
#if !CUDAVIZ_HAVE_CUDA
    (void)compiled;
    (void)launch;
    (void)options;
    return failed(ErrorKind::Unavailable, "cudaviz was built without CUDA: user kernels run on the emulator only");
#else
    if (!compiled.compiled()) return failed(ErrorKind::InvalidInput, "the kernel has not compiled for the GPU");
    const KernelSignature& sig = compiled.signature;
    if (launch.args.size() != sig.params.size())
        return failed(ErrorKind::InvalidInput, std::to_string(launch.args.size()) + " arguments for " + sig.text() + ", which takes " +
                                                   std::to_string(sig.params.size()));
    if (launch.grid.volume() == 0 || launch.block.volume() == 0)
        return failed(ErrorKind::InvalidInput, "an empty grid or block cannot be launched");
    for (const UserArg& a : launch.args)
        if (a.kind == UserArg::Kind::Buffer && a.bytes > 0 && !a.data)
            return failed(ErrorKind::InvalidInput, "buffer " + a.name + " has no memory");

    const std::string runner = options.runner.empty() ? find_gpu_runner() : options.runner;
    if (!executable(runner))
        return failed(ErrorKind::Unavailable, runner.empty() ? "cudaviz-gpu-runner was not found (beside the program, in $CUDAVIZ_GPU_RUNNER or on PATH)"
                                                             : runner + " cannot be run");

    GpuRunnerRequest request;
    request.cubin = compiled.cubin;
    request.function = compiled.lowered_name;
    request.device = options.device;
    request.grid = launch.grid;
    request.block = launch.block;
    request.time = options.time;
    request.warmup = options.timing.warmup;
    request.repeats = options.timing.repeats;
    request.rounds = options.timing.rounds;
    request.budget_ms = options.timing.budget_ms;
    request.spin_up_ms = options.timing.spin_up_ms;
    request.hold = options.timing.hold;
    if (options.record_schedule) {
        NvrtcRequest rec;
        rec.program_name = kProgramName;
        rec.source = schedule_recording_source(compiled.source, sig);
        rec.options = compile_options(compiled.sm, compiled.fmad);
        rec.name_expressions = {kRecordedKernel};
        NvrtcResult r = nvrtc_compile(rec);
        if (!r.status || !r.compiled || r.cubin.empty() || r.lowered_names.empty() || r.lowered_names[0] != kRecordedKernel) {
            std::string why = r.status ? r.log : r.status.message();
            return failed(ErrorKind::InvalidInput, "the schedule-recording compile of the kernel failed:\n" + why);
        }
        request.recorded_cubin = std::move(r.cubin);
    }
    std::string error;
    TempDir dir = TempDir::make("cudaviz-gpu", &error);
    if (!dir.valid()) return failed(ErrorKind::Unavailable, "cannot make a temporary folder: " + error);
    // Every buffer in a shared file, outputs too: a kernel may leave some of their elements unwritten.
    std::vector<SharedBuffer> shared(launch.args.size());
    for (std::size_t k = 0; k < launch.args.size(); ++k) {
        const UserArg& a = launch.args[k];
        GpuRunnerArg r;
        r.buffer = a.kind == UserArg::Kind::Buffer;
        r.writable = a.writable;
        r.value = a.value;
        r.name = a.name;
        r.bytes = a.bytes;
        r.element_bytes = a.element_bytes;
        if (r.buffer) {
            r.path = dir.file("buffer" + std::to_string(k));
            shared[k] = SharedBuffer::create(r.path, a.bytes, &error);
            if (!shared[k].valid()) return failed(ErrorKind::Unavailable, "buffer " + a.name + ": " + error);
            if (a.bytes) std::memcpy(shared[k].data(), a.data, a.bytes);
        }
        request.args.push_back(std::move(r));
    }
    const std::string request_path = dir.file("request"), response_path = dir.file("response");
    if (std::string e = write_gpu_request(request_path, request); !e.empty()) return failed(ErrorKind::Unavailable, e);

    ChildSpec spec;
    spec.argv = {runner, request_path, response_path};
    spec.time_limit_s = options.time_limit_s;
    spec.cancel = options.cancel;
    spec.output_limit = 64 * 1024;
    const ChildResult child = run_child(spec);
    const std::string output = tail_of(child.output, 2000);
    GpuRunResult result;
    switch (child.end) {
        case ChildResult::End::NotStarted:
            result = failed(ErrorKind::Unavailable, runner + " could not be started: " + child.error);
            break;
        case ChildResult::End::TimeLimit:
            result = failed(ErrorKind::Device, "the time limit of " + seconds_text(options.time_limit_s) +
                                                   " s was reached: the kernel was stopped (an endless loop?)",
                            Fault::TimeLimit);
            break;
        case ChildResult::End::Cancelled:
            result.fault = Fault::Cancelled;
            result.message = "the run was cancelled";
            break;
        case ChildResult::End::Signalled:
            result = failed(ErrorKind::Device, "the GPU runner was ended by " + signal_text(child.signal) + (output.empty() ? "" : ": " + output),
                            Fault::Crashed);
            break;
        case ChildResult::End::Exited: {
            GpuRunnerResponse response;
            const std::string why = child.exit_code == 0 ? read_gpu_response(response_path, &response)
                                                        : "exit status " + std::to_string(child.exit_code);
            if (!why.empty()) {
                if (child.exit_code == 127 && output.find("error while loading shared libraries") != std::string::npos)
                    result = failed(ErrorKind::Unavailable, "the GPU runner cannot start (no NVIDIA driver?): " + output);
                else
                    result = failed(ErrorKind::Device, "the GPU runner failed (" + why + ")" + (output.empty() ? "" : ": " + output), Fault::Crashed);
                break;
            }
            switch (response.outcome) {
                case GpuRunnerOutcome::Unavailable: result = failed(ErrorKind::Unavailable, response.message); break;
                case GpuRunnerOutcome::Refused: result = failed(ErrorKind::InvalidInput, response.message); break;
                case GpuRunnerOutcome::BadRequest: result = failed(ErrorKind::Device, response.message, Fault::Crashed); break;
                case GpuRunnerOutcome::DeviceFault: result = failed(ErrorKind::Device, response.message, Fault::Device); break;
                case GpuRunnerOutcome::BoundsFault: result = failed(ErrorKind::Device, response.message, Fault::Bounds); break;
                case GpuRunnerOutcome::Ran: {
                    for (std::size_t k = 0; k < launch.args.size(); ++k) {
                        const UserArg& a = launch.args[k];
                        if (a.kind == UserArg::Kind::Buffer && a.writable && a.bytes) std::memcpy(a.data, shared[k].data(), a.bytes);
                    }
                    result.ran = true;
                    result.message = response.message;  // notes on timing or schedule, if any failed
                    result.run_ms = response.run_ms;
                    if (!response.samples_ms.empty()) {
                        result.timing.timed = true;
                        result.timing.samples_ms = response.samples_ms;
                        result.timing.launches = int(response.samples_ms.size());
                        result.timing.median_ms = median_of(response.samples_ms);
                    } else if (options.time) {
                        result.timing.status = Status::error(ErrorKind::Device, response.message);
                    }
                    result.schedule = std::move(response.schedule);
                    break;
                }
            }
            result.device = response.device;
            result.sms = response.sms;
            result.registers = response.registers;
            result.static_shared_bytes = std::size_t(response.static_shared_bytes);
            break;
        }
    }
    result.runner_ms = child.seconds * 1000;
    return result;
#endif
}

}  // namespace cvz::user
