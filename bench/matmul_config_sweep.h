#pragma once
// What the matmul configuration sweeps (bench_matmul_gpu_tc_configs.cu, bench_matmul_gpu_fp32_configs.cu)
// share: a result row, the CUDA error check that fills it, a candidate kernel's attributes with its
// opt-in to dynamic shared memory, the comparison of its output with the catalogue's bytes, and the
// --shapes list. Each program times its kernels its own way.
#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/matmul/matmul_problem.h"

namespace cvz::bench {

struct ConfigResult {
    std::string name, shape;
    double median_ms = 0, tflops = 0, fraction = 0;  // fraction: of cuBLAS SGEMM, where the sweep times it
    int registers = 0, local = 0;
    std::size_t shared = 0;
    unsigned blocks = 0;
    bool same_bytes = false;
    std::string error;
};

inline bool ok(cudaError_t e, ConfigResult& r, const char* what) {
    if (e == cudaSuccess) return true;
    r.error = std::string(what) + ": " + cudaGetErrorString(e);
    return false;
}

// Names the row, reads the kernel's registers and spill, and opts it in to `shared` bytes of dynamic
// shared memory (above 48 KiB needs it). False, with the error in the row, where CUDA refuses.
template <class Kernel>
bool prepare_kernel(Kernel kernel, std::string name, std::size_t shared, const MatmulProblem& p, ConfigResult& r) {
    r.name = std::move(name);
    r.shape = std::to_string(p.m) + "x" + std::to_string(p.k) + "x" + std::to_string(p.n);
    r.shared = shared;
    cudaFuncAttributes attr{};
    if (!ok(cudaFuncGetAttributes(&attr, kernel), r, "attributes")) return false;
    r.registers = attr.numRegs;
    r.local = int(attr.localSizeBytes);
    return ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(r.shared)), r, "opt in");
}

// Downloads C and says whether it holds exactly `want`'s bytes (an empty `want`: nothing to compare).
inline bool compare_bytes(const MatmulProblem& p, const std::vector<float>& want, ConfigResult& r) {
    if (want.empty()) return true;
    std::vector<float> got(want.size());
    if (!ok(cudaMemcpy(got.data(), p.c, got.size() * sizeof(float), cudaMemcpyDeviceToHost), r, "download")) return false;
    r.same_bytes = std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0;
    return true;
}

// A and B of a sweep's shape: the same pseudo-random values in [-1, 1) in every sweep program.
inline void fill_operands(std::vector<float>& a, std::vector<float>& b) {
    std::uint64_t s = 12345;
    for (std::vector<float>* v : {&a, &b})
        for (float& x : *v) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            x = float(std::uint32_t(s >> 40)) / float(1u << 23) - 1.0f;
        }
}

// "MxKxN,MxKxN,...": the shapes, or none where any is malformed or has a zero.
inline std::vector<std::array<std::uint32_t, 3>> parse_shapes(const std::string& list) {
    std::vector<std::array<std::uint32_t, 3>> out;
    std::size_t at = 0;
    while (at <= list.size()) {
        const std::size_t end = std::min(list.find(',', at), list.size());
        std::array<std::uint32_t, 3> s{};
        if (std::sscanf(list.substr(at, end - at).c_str(), "%ux%ux%u", &s[0], &s[1], &s[2]) != 3 || !s[0] || !s[1] || !s[2])
            return {};
        out.push_back(s);
        at = end + 1;
    }
    return out;
}

}  // namespace cvz::bench
