#pragma once
// Runs a hot loop compiled for the CPU path in use (cpu_features.h), with no second translation unit:
//
//     on_cpu_path([&] { for (...) out[i] = luma_u8(...); });
//
// The callable is instantiated once per path inside a function that carries that path's target
// attribute and `flatten`, so the loop and everything it calls are inlined there and compiled for that
// instruction set (hardware FMA, 256-bit vectors) — and only there. Every out-of-line function, template
// instantiation and weak symbol the translation unit emits keeps the build's baseline target, so the
// linker can never pick a wide copy of a shared inline function for the baseline path (the trap of
// compiling one source twice with different -m flags). Calls that cannot be inlined simply run their
// baseline code. Host code only: nvcc never sees this header.
#include <functional>
#include <utility>

#include "cpu_features.h"

#if !defined(__CUDACC__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CVZ_HAVE_AVX2_FMA_PATH 1
// "avx2,fma" (not "arch=..."): GCC only inlines baseline callees into callers of the same arch/tune.
#define CVZ_TARGET_AVX2_FMA __attribute__((target("avx2,fma,bmi,bmi2"), flatten))
#else
#define CVZ_HAVE_AVX2_FMA_PATH 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CVZ_FLATTEN __attribute__((flatten))
#else
#define CVZ_FLATTEN
#endif

namespace cvz {

namespace cpu_dispatch_detail {

// The names say the instruction set: every instantiation of one of these, in any translation unit,
// is compiled for the same target, so sharing one copy across the program is correct.
template <class F>
CVZ_FLATTEN void run_baseline(F& f) {
    f();
}

#if CVZ_HAVE_AVX2_FMA_PATH
template <class F>
CVZ_TARGET_AVX2_FMA void run_avx2_fma(F& f) {
    f();
}
#endif

// Calls (*f)(args...) compiled for one path: for code reached through a pointer (std::function, fibers),
// which on_cpu_path cannot inline.
template <class F>
struct BaselineCall {
    F* f;
    template <class... Args>
    CVZ_FLATTEN void operator()(Args&&... args) const {
        (*f)(std::forward<Args>(args)...);
    }
};

#if CVZ_HAVE_AVX2_FMA_PATH
template <class F>
struct Avx2FmaCall {
    F* f;
    template <class... Args>
    CVZ_TARGET_AVX2_FMA void operator()(Args&&... args) const {
        (*f)(std::forward<Args>(args)...);
    }
};
#endif

}  // namespace cpu_dispatch_detail

// Runs f() compiled for `path` (the baseline when this build lacks it; callers pass cpu_path()).
template <class F>
void on_cpu_path(CpuPath path, F&& f) {
#if CVZ_HAVE_AVX2_FMA_PATH
    if (path == CpuPath::Avx2Fma) {
        cpu_dispatch_detail::run_avx2_fma(f);
        return;
    }
#endif
    (void)path;
    cpu_dispatch_detail::run_baseline(f);
}

template <class F>
void on_cpu_path(F&& f) {
    on_cpu_path(cpu_path(), f);
}

// A std::function that calls f, which must outlive it, compiled for `path`.
template <class Signature, class F>
std::function<Signature> function_on_cpu_path(CpuPath path, F& f) {
#if CVZ_HAVE_AVX2_FMA_PATH
    if (path == CpuPath::Avx2Fma) return cpu_dispatch_detail::Avx2FmaCall<F>{&f};
#endif
    (void)path;
    return cpu_dispatch_detail::BaselineCall<F>{&f};
}

}  // namespace cvz
