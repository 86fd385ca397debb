#include "cpu_features.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "cpu_dispatch.h"

namespace cvz {

namespace {

bool cpu_has(CpuPath path) {
    switch (path) {
        case CpuPath::Baseline: return true;
        case CpuPath::Avx2Fma:
#if CVZ_HAVE_AVX2_FMA_PATH
            __builtin_cpu_init();
            return __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                   __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#else
            return false;
#endif
    }
    return false;
}

struct Selection {
    CpuPath path;
    const char* why;
};

Selection initial_selection() {
    const std::vector<CpuPath> paths = available_cpu_paths();
    const Selection best{paths.back(), paths.size() > 1 ? "best on this CPU" : "the only path of this build"};
    const char* env = std::getenv("CUDAVIZ_CPU_PATH");
    if (!env || !*env) return best;
    const std::optional<CpuPath> asked = parse_cpu_path(env);
    if (!asked) {
        std::fprintf(stderr, "cudaviz: CUDAVIZ_CPU_PATH=%s is not a CPU path (baseline, avx2-fma); using %s\n", env,
                     to_string(best.path));
        return best;
    }
    if (!cpu_has(*asked)) {
        std::fprintf(stderr, "cudaviz: CUDAVIZ_CPU_PATH=%s is not available on this CPU or build; using %s\n", env,
                     to_string(best.path));
        return best;
    }
    return {*asked, "CUDAVIZ_CPU_PATH"};
}

// Read on every launch, so relaxed atomics: any value they hold is a valid, complete choice.
struct Current {
    std::atomic<int> path;
    std::atomic<const char*> why;
};

Current& current() {
    static Current c = [] {
        const Selection s = initial_selection();
        return Current{int(s.path), s.why};
    }();
    return c;
}

}  // namespace

const char* to_string(CpuPath path) {
    switch (path) {
        case CpuPath::Baseline: return "baseline";
        case CpuPath::Avx2Fma: return "avx2-fma";
    }
    return "?";
}

std::optional<CpuPath> parse_cpu_path(std::string_view name) {
    for (CpuPath p : {CpuPath::Baseline, CpuPath::Avx2Fma})
        if (name == to_string(p)) return p;
    return std::nullopt;
}

std::vector<CpuPath> available_cpu_paths() {
    std::vector<CpuPath> paths;
    for (CpuPath p : {CpuPath::Baseline, CpuPath::Avx2Fma})
        if (cpu_has(p)) paths.push_back(p);
    return paths;
}

CpuPath cpu_path() { return CpuPath(current().path.load(std::memory_order_relaxed)); }

bool set_cpu_path(CpuPath path) {
    if (!cpu_has(path)) return false;
    current().path.store(int(path), std::memory_order_relaxed);
    current().why.store("selected by the program", std::memory_order_relaxed);
    return true;
}

std::string cpu_path_description() {
    return std::string(to_string(cpu_path())) + " (" + current().why.load(std::memory_order_relaxed) + ")";
}

}  // namespace cvz
