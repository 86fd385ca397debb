#include "emulated_source.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "source_scan.h"
#include "source_tokens.h"

namespace cvz::user {

const char* const kPreludeName = "cudaviz-prelude.h";
const char* const kEntryName = "cudaviz-entry.cpp";
const char* const kEntrySymbol = "cvz_entry";
const char* const kEntryBlockSymbol = "cvz_entry_block";
const char* const kRunnerRetry = "retry";

namespace {

// CUDA C's device-side names on the CPU. The launch's indices are the runner's thread-local variables,
// declared const here: the compiler's ThreadSanitizer pass leaves read-only objects alone, so reading
// threadIdx is not reported as a memory access (it is a register on the GPU).
const char* const kPrelude = R"PRELUDE(#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
struct uint3 { unsigned int x, y, z; };
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
    dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern "C" {
extern __thread const uint3 cvz_threadIdx __attribute__((tls_model("initial-exec")));
extern __thread const uint3 cvz_blockIdx __attribute__((tls_model("initial-exec")));
extern __thread const uint3 cvz_blockDim __attribute__((tls_model("initial-exec")));
extern __thread const uint3 cvz_gridDim __attribute__((tls_model("initial-exec")));
void cvz_syncthreads(void);
void* cvz_shared_slot(unsigned slot, size_t bytes, size_t align);
void* cvz_dynamic_shared(void);
}
#define threadIdx cvz_threadIdx
#define blockIdx cvz_blockIdx
#define blockDim cvz_blockDim
#define gridDim cvz_gridDim
#define warpSize 32
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// A macro, not a function: the call is then on the user's line, which the barrier messages name.
#define __syncthreads() cvz_syncthreads()
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
template <class A, class B> static inline auto min(A a, B b) -> decltype(a + b) { return b < a ? b : a; }
template <class A, class B> static inline auto max(A a, B b) -> decltype(a + b) { return a < b ? b : a; }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
// __expf, __logf, __sinf, __cosf and __powf are glibc's own (math.h).
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline int __float2int_rz(float x) { return int(x); }
static inline int __mul24(int a, int b) { return a * b; }
// Atomics: the runner's (emu_runner_main.cpp), called, not inlined, so that the call is on the user's
// line; each is checked against the buffers and traced as a load and a store of its word.
int atomicAdd(int*, int);
unsigned int atomicAdd(unsigned int*, unsigned int);
unsigned long long atomicAdd(unsigned long long*, unsigned long long);
float atomicAdd(float*, float);
double atomicAdd(double*, double);
int atomicSub(int*, int);
unsigned int atomicSub(unsigned int*, unsigned int);
int atomicExch(int*, int);
unsigned int atomicExch(unsigned int*, unsigned int);
unsigned long long atomicExch(unsigned long long*, unsigned long long);
float atomicExch(float*, float);
int atomicMin(int*, int);
unsigned int atomicMin(unsigned int*, unsigned int);
long long atomicMin(long long*, long long);
unsigned long long atomicMin(unsigned long long*, unsigned long long);
int atomicMax(int*, int);
unsigned int atomicMax(unsigned int*, unsigned int);
long long atomicMax(long long*, long long);
unsigned long long atomicMax(unsigned long long*, unsigned long long);
unsigned int atomicInc(unsigned int*, unsigned int);
unsigned int atomicDec(unsigned int*, unsigned int);
unsigned short atomicCAS(unsigned short*, unsigned short, unsigned short);
int atomicCAS(int*, int, int);
unsigned int atomicCAS(unsigned int*, unsigned int, unsigned int);
unsigned long long atomicCAS(unsigned long long*, unsigned long long, unsigned long long);
int atomicAnd(int*, int);
unsigned int atomicAnd(unsigned int*, unsigned int);
unsigned long long atomicAnd(unsigned long long*, unsigned long long);
int atomicOr(int*, int);
unsigned int atomicOr(unsigned int*, unsigned int);
unsigned long long atomicOr(unsigned long long*, unsigned long long);
int atomicXor(int*, int);
unsigned int atomicXor(unsigned int*, unsigned int);
unsigned long long atomicXor(unsigned long long*, unsigned long long);
)PRELUDE";

// The direct unit's checked pointers (EmulatedSource::direct_text), after the prelude. A cvz_ptr<T> is a
// kernel parameter's pointer with its buffer's range; each element access is a cvz_ref<T>, which checks
// the address against the range, then loads or stores it with an instruction of its own (inline
// assembly: the instrumentation leaves it alone). A miss calls the runner's cvz_direct_fault, which asks
// for the launch to be run again on the instrumented object, where the fault is named exactly. Loads
// may be moved and merged as the optimiser sees fit (one moved above its check into a guard page is a
// signal, and any fault of the direct object means that run again); stores stay where the code has them. Neither
// converts to a plain pointer, and an element has no address: code that needs either does not compile.
const char* const kFastPrelude = R"PRELUDE(#include <type_traits>
extern "C" [[noreturn]] void cvz_direct_fault(void);
template <class T> static inline __attribute__((always_inline)) T cvz_load(const T* p) {
    typedef typename std::remove_cv<T>::type U;
    static_assert(std::is_arithmetic<U>::value && sizeof(U) <= 8, "cudaviz direct path: arithmetic elements only");
    if constexpr (std::is_same<U, float>::value) { float v; asm("movss %1, %0" : "=x"(v) : "m"(*p)); return v; }
    else if constexpr (std::is_same<U, double>::value) { double v; asm("movsd %1, %0" : "=x"(v) : "m"(*p)); return v; }
    else if constexpr (sizeof(U) == 1) {
        unsigned v;
        asm("movzbl %1, %0" : "=r"(v) : "m"(*p));
        if (v > 0xFF) __builtin_unreachable();  // zero-extended already: no second extension
        return static_cast<U>(v);
    } else if constexpr (sizeof(U) == 2) {
        unsigned v;
        asm("movzwl %1, %0" : "=r"(v) : "m"(*p));
        if (v > 0xFFFF) __builtin_unreachable();
        return static_cast<U>(v);
    }
    else if constexpr (sizeof(U) == 4) { unsigned v; asm("movl %1, %0" : "=r"(v) : "m"(*p)); return static_cast<U>(v); }
    else { unsigned long long v; asm("movq %1, %0" : "=r"(v) : "m"(*p)); return static_cast<U>(v); }
}
template <class T> static inline __attribute__((always_inline)) void cvz_store(T* p, T v) {
    static_assert(std::is_arithmetic<T>::value && sizeof(T) <= 8, "cudaviz direct path: arithmetic elements only");
    if constexpr (std::is_same<T, float>::value) asm volatile("movss %1, %0" : "=m"(*p) : "x"(v));
    else if constexpr (std::is_same<T, double>::value) asm volatile("movsd %1, %0" : "=m"(*p) : "x"(v));
    else if constexpr (sizeof(T) == 1) asm volatile("movb %b1, %0" : "=m"(*p) : "q"(static_cast<unsigned>(v)));
    else if constexpr (sizeof(T) == 2) asm volatile("movw %w1, %0" : "=m"(*p) : "r"(static_cast<unsigned>(v)));
    else if constexpr (sizeof(T) == 4) asm volatile("movl %k1, %0" : "=m"(*p) : "r"(static_cast<unsigned>(v)));
    else asm volatile("movq %q1, %0" : "=m"(*p) : "r"(static_cast<unsigned long long>(v)));
}
template <class T> struct cvz_ref {
    T* p;
    uintptr_t lo, span;  // an element may start in [lo, lo + span)
    __attribute__((always_inline)) T* at() const {
        if (__builtin_expect(reinterpret_cast<uintptr_t>(p) - lo >= span, 0)) cvz_direct_fault();
        return p;
    }
    __attribute__((always_inline)) operator T() const { return cvz_load(at()); }
    cvz_ref(const cvz_ref&) = default;
    __attribute__((always_inline)) cvz_ref& operator=(const cvz_ref& o) { cvz_store(at(), T(o)); return *this; }
    __attribute__((always_inline)) cvz_ref& operator=(T v) { cvz_store(at(), v); return *this; }
#define CVZ_COMPOUND(OP) template <class V> __attribute__((always_inline)) cvz_ref& operator OP##=(const V& v) { \
        T* q = at(); cvz_store(q, static_cast<T>(cvz_load(q) OP v)); return *this; }
    CVZ_COMPOUND(+) CVZ_COMPOUND(-) CVZ_COMPOUND(*) CVZ_COMPOUND(/) CVZ_COMPOUND(%)
    CVZ_COMPOUND(&) CVZ_COMPOUND(|) CVZ_COMPOUND(^) CVZ_COMPOUND(<<) CVZ_COMPOUND(>>)
#undef CVZ_COMPOUND
    __attribute__((always_inline)) cvz_ref& operator++() { return *this += 1; }
    __attribute__((always_inline)) cvz_ref& operator--() { return *this -= 1; }
    __attribute__((always_inline)) T operator++(int) { T* q = at(); T old = cvz_load(q); cvz_store(q, static_cast<T>(old + 1)); return old; }
    __attribute__((always_inline)) T operator--(int) { T* q = at(); T old = cvz_load(q); cvz_store(q, static_cast<T>(old - 1)); return old; }
};
template <class T> struct cvz_ptr {
    T* p;
    uintptr_t lo, span;
    cvz_ptr(T* base, uintptr_t bytes)
        : p(base), lo(reinterpret_cast<uintptr_t>(base)), span(bytes >= sizeof(T) ? bytes - sizeof(T) + 1 : 0) {}
    cvz_ptr(T* q, uintptr_t l, uintptr_t s) : p(q), lo(l), span(s) {}
    template <class I> __attribute__((always_inline)) cvz_ref<T> operator[](I i) const { return cvz_ref<T>{p + i, lo, span}; }
    __attribute__((always_inline)) cvz_ref<T> operator*() const { return cvz_ref<T>{p, lo, span}; }
    template <class I> __attribute__((always_inline)) cvz_ptr operator+(I i) const { return cvz_ptr(p + i, lo, span); }
    template <class I> __attribute__((always_inline)) cvz_ptr operator-(I i) const { return cvz_ptr(p - i, lo, span); }
    ptrdiff_t operator-(const cvz_ptr& o) const { return p - o.p; }
    template <class I> cvz_ptr& operator+=(I i) { p += i; return *this; }
    template <class I> cvz_ptr& operator-=(I i) { p -= i; return *this; }
    cvz_ptr& operator++() { ++p; return *this; }
    cvz_ptr& operator--() { --p; return *this; }
    cvz_ptr operator++(int) { cvz_ptr o = *this; ++p; return o; }
    cvz_ptr operator--(int) { cvz_ptr o = *this; --p; return o; }
    explicit operator bool() const { return p != nullptr; }
    bool operator==(const cvz_ptr& o) const { return p == o.p; }
    bool operator!=(const cvz_ptr& o) const { return p != o.p; }
    bool operator<(const cvz_ptr& o) const { return p < o.p; }
    bool operator<=(const cvz_ptr& o) const { return p <= o.p; }
    bool operator>(const cvz_ptr& o) const { return p > o.p; }
    bool operator>=(const cvz_ptr& o) const { return p >= o.p; }
    bool operator==(decltype(nullptr)) const { return p == nullptr; }
    bool operator!=(decltype(nullptr)) const { return p != nullptr; }
};
template <class I, class T> static inline cvz_ptr<T> operator+(I i, const cvz_ptr<T>& q) { return q + i; }
)PRELUDE";

// Words that keep a file off the direct unit: each would compile there with another meaning than in the
// instrumented one (a deduced type or a size that is the checked pointer's, a value passed through
// `...`), or asks for the runner's barriers and shared memory, which the direct unit does not run.
bool direct_excluded(const std::vector<Token>& t) {
    static const char* const kWords[] = {"__syncthreads", "__shared__", "auto", "decltype", "template", "sizeof",
                                         "alignof", "__alignof__", "typeof", "__typeof__", "__typeof", "asm",
                                         "__asm__", "va_list", "va_start", "va_arg"};
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k].kind == Token::Kind::Directive) {
            // A macro's body is code too; a file included by quotes is code this scan does not see.
            std::string body = t[k].text;
            const std::size_t hash = body.find('#');
            if (hash != std::string::npos) body[hash] = ' ';
            const std::vector<Token> inner = tokenize(body);
            if (!inner.empty() && inner[0].text == "include" && body.find('"') != std::string::npos) return true;
            if (direct_excluded(inner)) return true;
            continue;
        }
        if (t[k].kind != Token::Kind::Identifier) continue;
        for (const char* w : kWords)
            if (t[k].text == w) return true;
        // printf and its kin take their values through `...`.
        if (t[k].text.find("printf") != std::string::npos || t[k].text.find("scanf") != std::string::npos) return true;
    }
    for (std::size_t k = 0; k + 2 < t.size(); ++k)
        if (t[k].text == "." && t[k + 1].text == "." && t[k + 2].text == ".") return true;
    return false;
}

// A file name as a string literal for #line.
std::string quoted(const std::string& name) {
    std::string q = "\"";
    for (char c : name) {
        if (c == '"' || c == '\\') q += '\\';
        if (c == '\n') continue;
        q += c;
    }
    return q + '"';
}

std::size_t newlines(const std::string& s, std::size_t from, std::size_t to) {
    std::size_t n = 0;
    for (std::size_t k = from; k < to; ++k) n += s[k] == '\n';
    return n;
}

std::string join(const std::vector<Token>& t, std::size_t from, std::size_t to) {
    std::string s;
    for (std::size_t k = from; k < to; ++k) {
        if (!s.empty()) s += ' ';
        s += t[k].text;
    }
    return s;
}

// The accessor a file-scope __shared__ variable is used through: a function, since the variable is
// placed per block while the kernel runs, not when the object is loaded.
std::string accessor(const std::string& var) { return "cvz_shared_" + var; }

// Rewrites the __shared__ declarations of `text`; returns the new text (same line count). A declaration
// in a function becomes a reference into the block's shared memory; one at file scope becomes an
// accessor function, and the variable's later uses call it.
std::string rewrite_shared(const std::string& text, unsigned* slots) {
    const std::vector<Token> t = tokenize(text);
    std::string out;
    std::size_t copied = 0;  // text before this offset is already in `out`
    int braces = 0;
    std::vector<std::string> file_scope;  // names declared __shared__ at file scope so far
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k].kind == Token::Kind::Punct) {
            if (t[k].text == "{") ++braces;
            else if (t[k].text == "}") --braces;
            continue;
        }
        if (t[k].kind != Token::Kind::Identifier) continue;
        if (t[k].text != "__shared__") {
            // A use of a file-scope __shared__ variable (not a member of the same name).
            const bool member = k > 0 && (t[k - 1].text == "." || t[k - 1].text == "->" || t[k - 1].text == "::");
            if (!member && std::find(file_scope.begin(), file_scope.end(), t[k].text) != file_scope.end()) {
                out.append(text, copied, t[k].offset - copied);
                out += accessor(t[k].text) + "()";
                copied = t[k].offset + t[k].length;
            }
            continue;
        }
        // The declaration: from a preceding `extern` / `static` to the `;`.
        std::size_t first = k;
        bool is_extern = false;
        while (first > 0 && (t[first - 1].text == "extern" || t[first - 1].text == "static")) {
            is_extern |= t[first - 1].text == "extern";
            --first;
        }
        std::size_t end = k + 1;
        while (end < t.size() && t[end].text != ";" && t[end].text != "{" && t[end].text != "}") ++end;
        if (end >= t.size() || t[end].text != ";") continue;  // not a declaration we know: the compiler will say
        const bool global = braces == 0;
        // Declarators split at top-level commas; the type is what precedes the first declarator's name.
        std::vector<std::pair<std::size_t, std::size_t>> parts;
        std::size_t from = k + 1;
        int depth = 0;
        for (std::size_t j = k + 1; j < end; ++j) {
            if (t[j].text == "[" || t[j].text == "(") ++depth;
            else if (t[j].text == "]" || t[j].text == ")") --depth;
            else if (depth == 0 && t[j].text == ",") {
                parts.emplace_back(from, j);
                from = j + 1;
            }
        }
        parts.emplace_back(from, end);
        // The first declarator's name: the last identifier before its first '[' (or its end).
        std::size_t name = parts[0].second;
        for (std::size_t j = parts[0].first; j < parts[0].second; ++j)
            if (t[j].text == "[") break;
            else if (t[j].kind == Token::Kind::Identifier) name = j;
        if (name == parts[0].second) continue;
        // Pointer stars between type and name belong to the declarator; `float *s[4]` is rare enough.
        const std::string type = join(t, parts[0].first, name);
        std::string decl;
        for (std::size_t p = 0; p < parts.size(); ++p) {
            std::size_t n = p == 0 ? name : parts[p].first;
            std::string stars;
            while (n < parts[p].second && t[n].text == "*") stars += '*', ++n;
            if (n >= parts[p].second || t[n].kind != Token::Kind::Identifier) continue;
            const std::string var = t[n].text, dims = join(t, n + 1, parts[p].second);
            const std::string ty = type + stars;
            std::string where;  // the address of the variable in the block's shared memory
            if (is_extern) {
                where = "cvz_dynamic_shared()";
            } else {
                where = "cvz_shared_slot(" + std::to_string(*slots) + ", sizeof(" + ty + (dims.empty() ? "" : " " + dims) +
                        "), alignof(" + ty + "))";
                ++*slots;
            }
            if (global) {
                // An accessor, used from here on in the variable's place.
                const std::string f = accessor(var) + "()";
                if (is_extern) decl += "static inline " + ty + "* " + f + " { return reinterpret_cast<" + ty + "*>(" + where + "); } ";
                else if (dims.empty()) decl += "static inline " + ty + "& " + f + " { return *reinterpret_cast<" + ty + "*>(" + where + "); } ";
                else decl += "static inline " + ty + " (&" + f + ")" + dims + " { return *reinterpret_cast<" + ty + " (*)" + dims + ">(" + where + "); } ";
                file_scope.push_back(var);
            } else if (is_extern) {
                decl += ty + "* " + var + " = reinterpret_cast<" + ty + "*>(" + where + "); ";
            } else if (dims.empty()) {
                decl += ty + "& " + var + " = *reinterpret_cast<" + ty + "*>(" + where + "); ";
            } else {
                decl += ty + " (&" + var + ")" + dims + " = *reinterpret_cast<" + ty + " (*)" + dims + ">(" + where + "); ";
            }
        }
        out.append(text, copied, t[first].offset - copied);
        out += decl;
        out.append(newlines(text, t[first].offset, t[end].offset + 1), '\n');
        copied = t[end].offset + 1;
        k = end;
    }
    out.append(text, copied, std::string::npos);
    return out;
}

// The direct unit's text of the user's file: each __global__ function's parameter list rebuilt, its
// pointers as cvz_ptr and threadIdx a parameter of its own (the line count kept). Empty when a kernel's
// parameters cannot be rebuilt so (a pointer to a pointer, a declaration without a body, a kernel the
// scan did not read).
std::string direct_user_text(const SourceFile& file) {
    const std::vector<Token> t = tokenize(file.text);
    const std::vector<KernelSignature> kernels = find_kernels(file);
    std::string out;
    std::size_t copied = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k].kind != Token::Kind::Identifier || t[k].text != "__global__") continue;
        std::size_t j = k + 1;  // the kernel's name, as find_kernels finds it
        while (j + 1 < t.size() && !(t[j].kind == Token::Kind::Identifier && t[j + 1].text == "(" &&
                                     t[j].text != "__launch_bounds__")) {
            if (t[j].text == ";" || t[j].text == "{") return {};
            ++j;
        }
        if (j + 1 >= t.size()) return {};
        const KernelSignature* sig = nullptr;
        for (const KernelSignature& s : kernels)
            if (s.name == t[j].text && s.line == t[j].line) sig = &s;
        std::size_t close = j + 1;  // the ')' closing the list
        for (int depth = 0; close < t.size(); ++close) {
            if (t[close].text == "(") ++depth;
            else if (t[close].text == ")" && --depth == 0) break;
        }
        if (!sig || close + 1 >= t.size() || t[close + 1].text != "{") return {};
        std::string list = "(";
        for (std::size_t p = 0; p < sig->params.size(); ++p) {
            const KernelParam& q = sig->params[p];
            const std::string name = q.name.empty() ? "cvz_unnamed_" + std::to_string(p) : q.name;
            if (q.type.empty()) return {};
            if (q.type.back() == '*') {
                const std::string element = q.type.substr(0, q.type.size() - 1);
                if (element.find_first_of("*&") != std::string::npos) return {};
                list += "cvz_ptr<" + element + "> " + name + ", ";
            } else {
                list += q.type + " " + name + ", ";
            }
        }
        list += "const uint3 threadIdx)";
        out.append(file.text, copied, t[j + 1].offset - copied);
        out += list;
        out.append(newlines(file.text, t[j + 1].offset, t[close].offset), '\n');
        copied = t[close].offset + 1;
        k = close;
    }
    out.append(file.text, copied, std::string::npos);
    return out;
}

// The direct unit's prelude: the instrumented one's, except that threadIdx is the kernel's parameter
// (not the runner's variable) and a __global__ function is inlined into the entry's thread loop.
std::string direct_prelude() {
    std::string p = kPrelude;
    const auto replace = [&p](const std::string& from, const std::string& to) {
        const std::size_t at = p.find(from);
        if (at != std::string::npos) p.replace(at, from.size(), to);
    };
    replace("#define threadIdx cvz_threadIdx\n", "");
    replace("#define __global__\n", "#define __global__ __attribute__((always_inline)) inline\n");
    return p + kFastPrelude;
}

}  // namespace

EmulatedSource make_emulated_source(const SourceFile& file, const KernelSignature& kernel) {
    EmulatedSource s;
    for (const Token& t : tokenize(file.text))
        if (t.kind == Token::Kind::Identifier && t.text == "__syncthreads") s.barriers = true;
    std::string call = kernel.name + "(";
    for (std::size_t k = 0; k < kernel.params.size(); ++k) {
        const KernelParam& p = kernel.params[k];
        const std::string arg = "args[" + std::to_string(k) + "]";
        if (k) call += ", ";
        if (!p.type.empty() && p.type.back() == '*') {
            call += "static_cast<" + p.type + ">(" + arg + ")";
        } else if (p.kind == ParamKind::Int) {
            call += "*static_cast<const int*>(" + arg + ")";
        } else {
            s.error = "parameter " + std::to_string(k + 1) + " of " + kernel.name + " (" + p.type +
                      (p.name.empty() ? "" : " " + p.name) + ") is neither a pointer nor an int";
            return s;
        }
    }
    call += ")";
    s.text = "#line 1 " + quoted(kPreludeName) + "\n" + kPrelude;
    s.text += "#line 1 " + quoted(file.name) + "\n";
    s.text += rewrite_shared(file.text, &s.shared_slots);
    if (!s.text.empty() && s.text.back() != '\n') s.text += '\n';
    s.text += "#line 1 " + quoted(kEntryName) + "\n";
    // Not instrumented: its reads of the argument array are the runner's memory, not the kernel's
    // accesses (and would cost a hook call each per thread).
    s.text += std::string("extern \"C\" __attribute__((visibility(\"default\"), no_sanitize_thread)) void ") + kEntrySymbol +
              "(void* const* args) { " + call + "; }\n";

    // The direct unit, when the file may use it.
    if (s.barriers || direct_excluded(tokenize(file.text))) return s;
    const std::string user = direct_user_text(file);
    if (user.empty()) return s;
    // The block's thread loop: its own function, instrumented as the kernel is (so that the kernel is
    // inlined into it), called by the entry, which reads the runner's argument array unseen.
    std::string params, pass, args;
    for (std::size_t k = 0; k < kernel.params.size(); ++k) {
        const KernelParam& p = kernel.params[k];
        const std::string a = "a" + std::to_string(k), arg = "args[" + std::to_string(k) + "]";
        if (p.type.back() == '*') {
            const std::string element = p.type.substr(0, p.type.size() - 1);
            params += "cvz_ptr<" + element + "> " + a + ", ";
            args += "cvz_ptr<" + element + ">(static_cast<" + p.type + ">(" + arg + "), bytes[" + std::to_string(k) + "]), ";
        } else {
            params += p.type + " " + a + ", ";
            args += "*static_cast<const int*>(" + arg + "), ";
        }
        pass += a + ", ";
    }
    s.direct_text = "#line 1 " + quoted(kPreludeName) + "\n" + direct_prelude();
    s.direct_text += "#line 1 " + quoted(file.name) + "\n" + user;
    if (s.direct_text.back() != '\n') s.direct_text += '\n';
    s.direct_text += "#line 1 " + quoted(kEntryName) + "\n";
    s.direct_text += "static __attribute__((noinline)) void cvz_block_loop(" + params + "unsigned* cvz_thread) {\n"
                   "    const unsigned bx = cvz_blockDim.x, by = cvz_blockDim.y, bz = cvz_blockDim.z;\n"
                   "    unsigned t = 0;\n"
                   "    for (unsigned z = 0; z < bz; ++z)\n"
                   "        for (unsigned y = 0; y < by; ++y)\n"
                   "            for (unsigned x = 0; x < bx; ++x) {\n"
                   "                cvz_store(cvz_thread, t++);\n"
                   "                " + kernel.name + "(" + pass + "uint3{x, y, z});\n"
                   "            }\n"
                   "}\n";
    s.direct_text += std::string("extern \"C\" __attribute__((visibility(\"default\"), no_sanitize_thread)) void ") +
                   kEntryBlockSymbol + "(void* const* args, const uintptr_t* bytes, unsigned* thread) {\n"
                   "    cvz_block_loop(" + args + "thread);\n}\n";
    return s;
}

}  // namespace cvz::user
