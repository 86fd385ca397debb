#pragma once
// For .cu files that launch a kernel whose GPU code is arch-specific (KernelInfo::arch_specific, e.g.
// the wgmma rungs' sm_90a code): whether the current device, and this build, can run it. sm_90a code
// runs on compute capability 9.0 only, and the build has it only when CMAKE_CUDA_ARCHITECTURES names
// 90 (compiled as 90a-real, CMakeLists.txt, which defines CUDAVIZ_SM90A for CUDA sources).
#include <cuda_runtime.h>

#include <string>

#include "../core/kernel_variant.h"
#include "../core/status.h"
#include "cuda_check.h"

namespace cvz {

inline Status require_arch_specific(const KernelInfo& info) {
    if (info.arch_specific == 0) return Status::ok();
    const std::string wanted = std::to_string(info.arch_specific / 10) + "." + std::to_string(info.arch_specific % 10);
#if !defined(CUDAVIZ_SM90A)
    if (info.arch_specific == 90)
        return Status::error(ErrorKind::Unavailable,
                             info.name + " needs sm_90a code, which this build lacks (configure with 90 in "
                             "CMAKE_CUDA_ARCHITECTURES); the emulator runs it");
#endif
    int device = 0, major = 0, minor = 0;
    CVZ_CUDA_TRY(cudaGetDevice(&device));
    CVZ_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CVZ_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    if (unsigned(major * 10 + minor) == info.arch_specific) return Status::ok();
    return Status::error(ErrorKind::Unavailable,
                         info.name + " runs on GPUs of compute capability " + wanted + " only (" +
                             (info.arch_specific == 90 ? "Hopper: H100, H200; its wgmma code is sm_90a's" : "arch-specific code") +
                             "); this GPU is " + std::to_string(major) + "." + std::to_string(minor) +
                             ". The emulator runs it.");
}

}  // namespace cvz
