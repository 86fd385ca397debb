#pragma once
// One NVRTC compile, as a value: the source and options in, the log, the CUBIN and the lowered names of
// the asked-for name expressions out. NVRTC needs no GPU and no driver, so this works on every machine
// with the CUDA toolkit. Built without the toolkit (nvrtc_program_cuda_absent.cpp), `status` says so.
#include <string>
#include <vector>

#include "../core/status.h"

namespace cvz::user {

struct NvrtcRequest {
    std::string source;
    std::string program_name;               // the name NVRTC prints in its messages
    std::vector<std::string> options;       // "--gpu-architecture=sm_90", ...
    std::vector<std::string> name_expressions;  // e.g. the kernel's name: its lowered (mangled) name comes back
};

struct NvrtcResult {
    Status status;          // not ok: NVRTC itself failed or is absent (not a compile error of the source)
    bool compiled = false;  // the source compiled (the log may still hold warnings)
    std::string log;
    std::string cubin;      // empty unless compiled for a real architecture (sm_XX)
    std::vector<std::string> lowered_names;  // one per name expression, "" where NVRTC had none
    double compile_ms = 0;  // nvrtcCompileProgram alone
};

NvrtcResult nvrtc_compile(const NvrtcRequest& request);

// "13.0": NVRTC's version, or "" when absent.
std::string nvrtc_version();

// The compute capability of CUDA device `device` as NVRTC's sm number (90 for an H200), or 0 when
// there is no device or no CUDA runtime. Asked once per device per process.
int cuda_device_sm(int device);

}  // namespace cvz::user
