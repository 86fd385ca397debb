#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cvz {

// The instruction sets the host code is compiled for (cpu_dispatch.h compiles the hot loops once per
// path and picks one at run time). Every path computes the same bytes: the kernels' fused multiply-adds
// are correctly rounded whether the FMA unit or libm's software fmaf computes them, and no path lets
// the compiler contract a*b+c (-ffp-contract=off).
enum class CpuPath {
    Baseline,  // the build's own target (x86-64: SSE2, fmaf is a libm call; aarch64: FMA always)
    Avx2Fma,   // x86-64 with AVX2 and FMA (x86-64-v3 class): hardware FMA, 256-bit vectors
};

// "baseline" or "avx2-fma": the names CUDAVIZ_CPU_PATH and the benchmarks use.
const char* to_string(CpuPath path);
std::optional<CpuPath> parse_cpu_path(std::string_view name);

// The paths this build has and this CPU can run, baseline first.
std::vector<CpuPath> available_cpu_paths();

// The path in use: the widest available, unless the environment variable CUDAVIZ_CPU_PATH names
// another (an unknown or unavailable name is reported once on stderr and ignored).
CpuPath cpu_path();

// Selects a path for all later launches (tests and benchmarks run each path this way); false, and
// nothing changes, when `path` is not available here.
bool set_cpu_path(CpuPath path);

// One line for logs and benchmark headers: the path in use and why, e.g. "avx2-fma (best on this CPU)".
std::string cpu_path_description();

}  // namespace cvz
