#include "nvrtc_program.h"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <chrono>
#include <map>
#include <mutex>

namespace cvz::user {

namespace {

Status nvrtc_status(nvrtcResult r, const char* what) {
    if (r == NVRTC_SUCCESS) return Status::ok();
    return Status::error(ErrorKind::Device, std::string(what) + ": " + nvrtcGetErrorString(r));
}

// Owns an nvrtcProgram.
class Program {
public:
    ~Program() {
        if (program_) nvrtcDestroyProgram(&program_);
    }
    nvrtcProgram* out() { return &program_; }
    nvrtcProgram get() const { return program_; }

private:
    nvrtcProgram program_ = nullptr;
};

}  // namespace

NvrtcResult nvrtc_compile(const NvrtcRequest& request) {
    NvrtcResult result;
    Program program;
    if (Status s = nvrtc_status(nvrtcCreateProgram(program.out(), request.source.c_str(), request.program_name.c_str(),
                                                   0, nullptr, nullptr),
                                "nvrtcCreateProgram");
        !s) {
        result.status = s;
        return result;
    }
    for (const std::string& name : request.name_expressions)
        if (Status s = nvrtc_status(nvrtcAddNameExpression(program.get(), name.c_str()), "nvrtcAddNameExpression"); !s) {
            result.status = s;
            return result;
        }
    std::vector<const char*> options;
    for (const std::string& o : request.options) options.push_back(o.c_str());
    const auto begin = std::chrono::steady_clock::now();
    const nvrtcResult compiled = nvrtcCompileProgram(program.get(), int(options.size()), options.data());
    result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();

    std::size_t log_size = 0;
    if (nvrtcGetProgramLogSize(program.get(), &log_size) == NVRTC_SUCCESS && log_size > 1) {
        result.log.resize(log_size);
        if (nvrtcGetProgramLog(program.get(), result.log.data()) != NVRTC_SUCCESS) result.log.clear();
        while (!result.log.empty() && result.log.back() == '\0') result.log.pop_back();
    }
    if (compiled == NVRTC_ERROR_COMPILATION) return result;  // the source's fault: the log says why
    if (Status s = nvrtc_status(compiled, "nvrtcCompileProgram"); !s) {
        result.status = s;
        return result;
    }
    result.compiled = true;

    std::size_t cubin_size = 0;
    if (nvrtcGetCUBINSize(program.get(), &cubin_size) == NVRTC_SUCCESS && cubin_size > 0) {
        result.cubin.resize(cubin_size);
        if (Status s = nvrtc_status(nvrtcGetCUBIN(program.get(), result.cubin.data()), "nvrtcGetCUBIN"); !s) {
            result.status = s;
            return result;
        }
    }
    for (const std::string& name : request.name_expressions) {
        const char* lowered = nullptr;
        const bool found = nvrtcGetLoweredName(program.get(), name.c_str(), &lowered) == NVRTC_SUCCESS && lowered;
        result.lowered_names.push_back(found ? std::string(lowered) : std::string());
    }
    return result;
}

std::string nvrtc_version() {
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return {};
    return std::to_string(major) + "." + std::to_string(minor);
}

int cuda_device_sm(int device) {
    static std::mutex mutex;
    static std::map<int, int> known;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(device); it != known.end()) return it->second;
    int major = 0, minor = 0, count = 0;
    int sm = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && device >= 0 && device < count &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess)
        sm = major * 10 + minor;
    (void)cudaGetLastError();
    known[device] = sm;
    return sm;
}

}  // namespace cvz::user
