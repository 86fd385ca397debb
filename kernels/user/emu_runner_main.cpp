// cudaviz-kernel-runner: runs a user kernel compiled for the emulator (user_emulated.h) in a process of
// its own, so that nothing the kernel does can harm the caller. It loads the kernel's shared object,
// maps the launch's buffers (shared with the caller) between inaccessible guard regions, and runs the
// kernel on the emulator: blocks in parallel, a block's threads as fibers when it calls __syncthreads().
//
// The kernel was compiled with -fsanitize=thread but linked without its runtime, so every load and store
// the optimiser kept calls one of the __tsan_read/write entry points defined here, with the address;
// the return address, through the object's DWARF line table, gives the source line. Each access is
// checked against the buffers (a miss near one is a bounds fault, anywhere else that is not the thread's
// own stack an invalid access), then recorded into the same MemoryRecorder the built-in kernels use.
// A fault ends this process with its message on the message channel (child_process.h), first come; so
// does the time limit, which a watchdog thread enforces, naming the line a looping thread is on.
//
//   cudaviz-kernel-runner JOB      (JOB: runner_job.h's text; answer: kRunnerOk or kRunnerFault on fd 3)
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cxxabi.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../emulator/emulate.h"
#include "../trace/memory_recorder.h"
#include "../trace/memory_trace_io.h"
#include "../trace/sampled_grid.h"
#include "child_process.h"
#include "emu_runner_lines.h"
#include "emulated_source.h"
#include "runner_job.h"
#include "shared_buffer.h"
#include "user_kernel.h"

using namespace cvz;
using namespace cvz::user;

// The launch's indices as the prelude declares them (emulated_source.cpp): set before each emulated
// thread runs and after each barrier, read by the kernel through initial-exec TLS.
struct CvzUint3 {
    unsigned x, y, z;
};
extern "C" {
__attribute__((visibility("default"))) __thread CvzUint3 cvz_threadIdx, cvz_blockIdx, cvz_blockDim, cvz_gridDim;
}

namespace {

constexpr std::size_t kStaticShared = 48 * 1024;  // CUDA's limit for static __shared__ per block
constexpr unsigned kMaxSlots = 256;
constexpr std::size_t kMaxArgs = 64;
constexpr std::uintptr_t kStackReach = 256 * 1024;  // a thread's locals lie this close above the hook's frame

struct Buffer {
    std::uintptr_t base = 0, bytes = 0;
    std::uintptr_t reserved_lo = 0, reserved_bytes = 0;  // guards included
    std::size_t element_bytes = 1;
    Writer* writers = nullptr;
    const char* name = "";
};

struct ArgArea {
    void* pointers[kMaxArgs] = {};
    int ints[kMaxArgs] = {};
    std::uintptr_t bytes[kMaxArgs] = {};  // a buffer's size, for the direct object's checked pointers
};

// The thread being emulated on this host thread (each fiber keeps its own, restored after a barrier).
struct Current {
    const EmuContext* ctx = nullptr;  // the thread's context in the real launch
    TraceThread trace;
    std::uint64_t block = 0;
    std::uint32_t thread = 0;
    std::uint32_t syncs = 0;
    std::uint64_t accesses_left = 0;  // traced: its share of the block's access budget
    const unsigned* direct_thread = nullptr;  // the direct object: the block's linear thread index, its loop's
};

// A block's barrier bookkeeping, on the host thread that runs its fibers.
struct BlockBarriers {
    std::uint64_t block = ~std::uint64_t(0);
    std::uint64_t threads = 0, finished = 0;
    std::vector<std::uint32_t> syncs;  // per thread: barriers passed
    std::vector<unsigned> lines;       // per barrier index: the line of the first thread to reach it
};

struct PcSite {
    std::uintptr_t pc = 0;
    unsigned line = 0;
    const char* file = nullptr;
};

// Set up once before the launch, read-only while it runs.
Buffer g_buffers[kMaxArgs];
unsigned g_buffer_count = 0;
ArgArea g_args;
std::uintptr_t g_object_lo = 0, g_object_bytes = 0;
LineTable g_lines;
std::string g_file_name;
const char* g_user_file = "";
const char* g_other_file = kPreludeName;
MemoryRecorder* g_recorder = nullptr;
std::uint64_t g_access_budget = 0;  // per block; each thread of it may make its share
std::uint64_t g_thread_budget = ~std::uint64_t(0);
Dim3 g_grid, g_block;
std::vector<std::uint64_t> g_sample;
std::size_t g_shared_total = kStaticShared;
void (*g_entry)(void* const*) = nullptr;
// The direct object (emulated_source.h, direct_text): one call runs a block; any fault but the time limit
// asks the caller for a run on the instrumented object, which names it exactly.
void (*g_entry_block)(void* const*, const std::uintptr_t*, unsigned*) = nullptr;

std::atomic<std::size_t> g_slot_offset[kMaxSlots];  // offset + 1; 0: not placed yet
std::mutex g_slot_mutex;
std::size_t g_slot_next = 0;

thread_local Current* t_current = nullptr;
thread_local BlockBarriers t_barriers;
thread_local PcSite t_pc_cache[1024];
thread_local bool t_alt_stack = false;

// --- Answers -----------------------------------------------------------------------------------------

void say(const std::string& s) {
    std::size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = ::write(kMessageFd, s.data() + done, s.size() - done);
        if (n <= 0) break;
        done += std::size_t(n);
    }
}

const char* fault_word(Fault f) {
    switch (f) {
    case Fault::Bounds: return "Bounds";
    case Fault::Invalid: return "Invalid";
    case Fault::TimeLimit: return "TimeLimit";
    case Fault::Barrier: return "Barrier";
    default: return "Crashed";
    }
}

// The first fault ends the process; a second thread faulting meanwhile waits here until it is gone.
[[noreturn]] void fault(Fault kind, const std::string& message) {
    static std::mutex once;
    once.lock();
    if (g_entry_block && kind != Fault::TimeLimit) say(std::string(kRunnerRetry) + "\n");
    else say(std::string(kRunnerFault) + " " + fault_word(kind) + "\n" + message + "\n");
    ::_exit(0);
}

[[noreturn]] void setup_error(const std::string& message) {
    say("error\n" + message + "\n");
    ::_exit(3);
}

// --- Where an access is written --------------------------------------------------------------------

// The direct object's line table is read when first needed (a time limit names a line; its other faults
// are named by the instrumented run): most of its runs need none.
std::once_flag g_lines_once;
std::string g_lines_object;
std::uintptr_t g_lines_bias = 0;

// Reads it, on a thread's own stack (not in a signal handler: the alternate stack is small).
void ensure_lines() {
    std::call_once(g_lines_once, [] {
        if (!g_lines_object.empty()) (void)g_lines.load(g_lines_object, g_lines_bias, g_file_name);
    });
}

PcSite lookup_pc(std::uintptr_t pc) {
    PcSite s;
    s.pc = pc;
    s.file = g_other_file;
    // The call instruction ends just before the return address.
    const LineTable::Row row = g_lines.at(pc - 1);
    s.line = row.line;
    if (row.user) s.file = g_user_file;
    return s;
}

inline const PcSite& site_of(const void* return_address) {
    const auto pc = reinterpret_cast<std::uintptr_t>(return_address);
    PcSite& e = t_pc_cache[(pc >> 1) & 1023];
    if (e.pc != pc) e = lookup_pc(pc);
    return e;
}

std::string user_line(const PcSite& s) {
    return s.line && s.file == g_user_file ? "line " + std::to_string(s.line) + ": " : std::string();
}

std::string thread_text(const Current* c) {
    if (!c) return "a thread";
    const Dim3 b = c->ctx->block_idx();
    Dim3 t = c->ctx->thread_idx();
    if (c->direct_thread) {
        const unsigned linear = *c->direct_thread;
        t = Dim3{linear % g_block.x, linear / g_block.x % g_block.y, linear / g_block.x / g_block.y};
    }
    return "thread (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " + std::to_string(b.z) + ")/(" +
           std::to_string(t.x) + ", " + std::to_string(t.y) + ", " + std::to_string(t.z) + ")";
}

[[noreturn]] void bounds_fault(const Buffer& b, std::uintptr_t p, Access a, const PcSite& site) {
    const std::int64_t offset = std::int64_t(p - b.base);
    const std::int64_t e = std::int64_t(b.element_bytes);
    const std::int64_t index = offset >= 0 ? offset / e : -((-offset + e - 1) / e);
    const std::int64_t count = std::int64_t(b.bytes) / e;
    std::string where;
    if (index < 0) where = std::to_string(-index) + " before the start of " + b.name;
    else where = std::to_string(index - count) + " past the end of " + b.name;
    fault(Fault::Bounds, user_line(site) + thread_text(t_current) + (a == Access::Store ? " writes " : " reads ") +
                             b.name + "[" + std::to_string(index) + "], " + where + " (" + std::to_string(count) +
                             " elements)");
}

[[noreturn]] void invalid_fault(std::uintptr_t p, const PcSite& site) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(p));
    fault(Fault::Invalid, user_line(site) + thread_text(t_current) + " made an invalid memory access (address " +
                              address + ", in no buffer)");
}

// A traced block's log grows with its accesses: a loop that never ends would take all memory first. A
// thread may make its share of the block's budget (counted per thread: no shared counter on the hot path).
[[noreturn]] void budget_fault(const Current* c, const PcSite& site) {
    fault(Fault::TimeLimit, user_line(site) + thread_text(c) + " made more than " + std::to_string(g_thread_budget) +
                                " loads and stores (its share of the " + std::to_string(g_access_budget) +
                                " a traced block may make): the kernel was stopped (an endless loop?)");
}

// --- The access hooks ----------------------------------------------------------------------------------

// An access in no buffer and not in the block's shared memory: near a buffer (in its guard) it is out of
// its bounds; the entry reading its arguments, the thread's own locals and the object's own data are
// not traced; anything else is invalid. Out of line, so that the common path needs no stack frame.
__attribute__((noinline)) void outside_buffers(std::uintptr_t p, Access a, const void* return_address) {
    for (unsigned k = 0; k < g_buffer_count; ++k)
        if (p - g_buffers[k].reserved_lo < g_buffers[k].reserved_bytes)
            bounds_fault(g_buffers[k], p, a, site_of(return_address));
    // Just outside the block's shared memory (an extern __shared__ array with too few dynamic bytes).
    if (const Current* c = t_current) {
        const auto shared = reinterpret_cast<std::uintptr_t>(c->ctx->shared_);
        constexpr std::uintptr_t kNear = 64 * 1024;
        if (p - (shared - kNear) < g_shared_total + 2 * kNear) {
            const bool before = p < shared;
            const std::uint64_t by = before ? shared - p : p - shared - g_shared_total + 1;
            fault(Fault::Bounds, user_line(site_of(return_address)) + thread_text(c) +
                                     (a == Access::Store ? " writes " : " reads ") + "shared memory " +
                                     std::to_string(by) + (by == 1 ? " byte " : " bytes ") +
                                     (before ? "before its start" : "past its end") + " (" +
                                     std::to_string(g_shared_total - kStaticShared) +
                                     " bytes of dynamic shared memory after 48 KiB of static)");
        }
    }
    if (p - reinterpret_cast<std::uintptr_t>(&g_args) < sizeof g_args) return;
    if (p - reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) < kStackReach) return;
    if (p - g_object_lo < g_object_bytes) return;
    invalid_fault(p, site_of(return_address));
}

__attribute__((always_inline)) inline void record(Current* c, const void* address, std::size_t bytes, Access a,
                                                  const void* return_address) {
    if (__builtin_expect(c->accesses_left-- == 0, 0)) budget_fault(c, site_of(return_address));
    const PcSite& s = site_of(return_address);
    c->trace.on_access(*c->ctx, a, address, bytes, AccessSite{s.file, s.line});
}

// An access in buffer `b` that overruns its end, or that leaves a record: its trace record, and who
// wrote the element. Out of line, as the other rare paths, and reached by tail calls, so that the hooks'
// common path (an access in a buffer, untraced) needs no stack frame: it is most of a user kernel's time.
__attribute__((noinline)) void in_buffer_slow(Current* c, const Buffer& b, std::uintptr_t p, std::size_t bytes,
                                              Access a, const void* return_address) {
    if (p - b.base + bytes > b.bytes) bounds_fault(b, p + bytes - 1, a, site_of(return_address));
    if (g_recorder) record(c, reinterpret_cast<const void*>(p), bytes, a, return_address);
    if (a == Access::Store && b.writers) b.writers[(p - b.base) / b.element_bytes] = Writer{c->block, c->thread};
}

__attribute__((noinline)) void record_shared(Current* c, std::uintptr_t p, std::size_t bytes, Access a,
                                             const void* return_address) {
    record(c, reinterpret_cast<const void*>(p), bytes, a, return_address);
}

bool g_records = false;  // a trace is recorded or some buffer records its writers: in_buffer_slow has work

__attribute__((always_inline)) inline void on_access(const void* address, std::size_t bytes, Access a,
                                                     const void* return_address) {
    Current* const c = t_current;
    if (__builtin_expect(!c, 0)) return;  // not inside a kernel thread (the object's constructors)
    const auto p = reinterpret_cast<std::uintptr_t>(address);
    // The block's shared memory first: a tiled kernel makes most of its accesses there (the buffers and
    // the shared memory never overlap, so the order changes no answer).
    if (p - reinterpret_cast<std::uintptr_t>(c->ctx->shared_) < g_shared_total) {
        if (g_recorder) return record_shared(c, p, bytes, a, return_address);
        return;
    }
    for (unsigned k = 0; k < g_buffer_count; ++k) {
        const Buffer& b = g_buffers[k];
        if (p - b.base < b.bytes) {
            if (__builtin_expect(p - b.base + bytes > b.bytes || g_records, 0))
                return in_buffer_slow(c, b, p, bytes, a, return_address);
            return;
        }
    }
    return outside_buffers(p, a, return_address);
}

}  // namespace

// The ThreadSanitizer entry points the instrumented object calls (GCC's -fsanitize=thread, compiled
// only: nothing of TSan's runtime is linked).
#define CVZ_TSAN_ACCESS(N)                                                                                        \
    extern "C" __attribute__((visibility("default"))) void __tsan_read##N(void* a) {                            \
        on_access(a, N, Access::Load, __builtin_return_address(0));                                             \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) void __tsan_write##N(void* a) {                           \
        on_access(a, N, Access::Store, __builtin_return_address(0));                                            \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) void __tsan_unaligned_read##N(void* a) {                  \
        on_access(a, N, Access::Load, __builtin_return_address(0));                                             \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) void __tsan_unaligned_write##N(void* a) {                 \
        on_access(a, N, Access::Store, __builtin_return_address(0));                                            \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) void __tsan_volatile_read##N(void* a) {                   \
        on_access(a, N, Access::Load, __builtin_return_address(0));                                             \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) void __tsan_volatile_write##N(void* a) {                  \
        on_access(a, N, Access::Store, __builtin_return_address(0));                                            \
    }
CVZ_TSAN_ACCESS(1)
CVZ_TSAN_ACCESS(2)
CVZ_TSAN_ACCESS(4)
CVZ_TSAN_ACCESS(8)
CVZ_TSAN_ACCESS(16)
#undef CVZ_TSAN_ACCESS

extern "C" {
__attribute__((visibility("default"))) void __tsan_init() {}
__attribute__((visibility("default"))) void __tsan_func_entry(void*) {}
__attribute__((visibility("default"))) void __tsan_func_exit() {}
__attribute__((visibility("default"))) void __tsan_vptr_update(void*, void*) {}
__attribute__((visibility("default"))) void __tsan_vptr_read(void*) {}
__attribute__((visibility("default"))) void __tsan_read_range(void* a, unsigned long n) {
    on_access(a, n ? n : 1, Access::Load, __builtin_return_address(0));
}
__attribute__((visibility("default"))) void __tsan_write_range(void* a, unsigned long n) {
    on_access(a, n ? n : 1, Access::Store, __builtin_return_address(0));
}
}

namespace {
// A read-modify-write through the compiler's atomics (std::atomic, __atomic_*): checked and traced as a
// load and a store of its word, as CUDA's atomic functions are.
inline void rmw_access(const volatile void* a, std::size_t bytes, const void* return_address) {
    on_access(const_cast<const void*>(a), bytes, Access::Load, return_address);
    on_access(const_cast<const void*>(a), bytes, Access::Store, return_address);
}
}  // namespace

// The compiler's atomics in the user's code (std::atomic, __atomic_* builtins): performed for real, since
// blocks run in parallel, each checked against the buffers and traced.
#define CVZ_TSAN_ATOMIC(N, T)                                                                                     \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_load(const volatile T* a, int) {     \
        on_access(const_cast<const T*>(a), N / 8, Access::Load, __builtin_return_address(0));                   \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                             \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) void __tsan_atomic##N##_store(volatile T* a, T v, int) {  \
        on_access(const_cast<const T*>(a), N / 8, Access::Store, __builtin_return_address(0));                  \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_exchange(volatile T* a, T v, int) {  \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                      \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_fetch_add(volatile T* a, T v, int) { \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                       \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_fetch_sub(volatile T* a, T v, int) { \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                       \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_fetch_and(volatile T* a, T v, int) { \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                                       \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_fetch_or(volatile T* a, T v, int) {  \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                        \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_fetch_xor(volatile T* a, T v, int) { \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                                       \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) int __tsan_atomic##N##_compare_exchange_strong(            \
        volatile T* a, T* expected, T v, int, int) {                                                             \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) int __tsan_atomic##N##_compare_exchange_weak(              \
        volatile T* a, T* expected, T v, int, int) {                                                             \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    }                                                                                                             \
    extern "C" __attribute__((visibility("default"))) T __tsan_atomic##N##_compare_exchange_val(                 \
        volatile T* a, T expected, T v, int, int) {                                                              \
        rmw_access(a, N / 8, __builtin_return_address(0));                                                       \
        __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                 \
        return expected;                                                                                          \
    }
CVZ_TSAN_ATOMIC(8, unsigned char)
CVZ_TSAN_ATOMIC(16, unsigned short)
CVZ_TSAN_ATOMIC(32, unsigned int)
CVZ_TSAN_ATOMIC(64, unsigned long long)
#undef CVZ_TSAN_ATOMIC
extern "C" {
__attribute__((visibility("default"))) void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__attribute__((visibility("default"))) void __tsan_atomic_signal_fence(int) {}
}

// CUDA's atomic functions, as the prelude declares them: the user's code calls them (the return address
// is on the user's line), each checked against the buffers and traced as a load and a store of its word
// (the trace has no atomics of its own), then done for real, since blocks run in parallel.
namespace {

template <class T, class Next>
__attribute__((always_inline)) inline T atomic_update(T* p, const void* return_address, Next next) {
    on_access(p, sizeof(T), Access::Load, return_address);
    on_access(p, sizeof(T), Access::Store, return_address);
    T old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    T value;
    do value = next(old);
    while (!__atomic_compare_exchange(p, &old, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return old;
}

}  // namespace

#define CVZ_ATOMIC(NAME, T, EXPR)                                                                   \
    __attribute__((visibility("default"))) T NAME(T* p, T v) {                                      \
        return atomic_update<T>(p, __builtin_return_address(0), [v]([[maybe_unused]] T old) -> T { return static_cast<T>(EXPR); }); \
    }
#define CVZ_ATOMIC_ARITH(T)                 \
    CVZ_ATOMIC(atomicAdd, T, old + v)    \
    CVZ_ATOMIC(atomicExch, T, v)
#define CVZ_ATOMIC_ORDER(T)                        \
    CVZ_ATOMIC(atomicMin, T, v < old ? v : old)    \
    CVZ_ATOMIC(atomicMax, T, old < v ? v : old)
#define CVZ_ATOMIC_BITS(T)                  \
    CVZ_ATOMIC(atomicAnd, T, old & v)    \
    CVZ_ATOMIC(atomicOr, T, old | v)     \
    CVZ_ATOMIC(atomicXor, T, old ^ v)
CVZ_ATOMIC_ARITH(int)
CVZ_ATOMIC_ARITH(unsigned int)
CVZ_ATOMIC_ARITH(unsigned long long)
CVZ_ATOMIC_ARITH(float)
CVZ_ATOMIC(atomicAdd, double, old + v)
CVZ_ATOMIC(atomicSub, int, int(unsigned(old) - unsigned(v)))
CVZ_ATOMIC(atomicSub, unsigned int, old - v)
CVZ_ATOMIC_ORDER(int)
CVZ_ATOMIC_ORDER(unsigned int)
CVZ_ATOMIC_ORDER(long long)
CVZ_ATOMIC_ORDER(unsigned long long)
CVZ_ATOMIC_BITS(int)
CVZ_ATOMIC_BITS(unsigned int)
CVZ_ATOMIC_BITS(unsigned long long)
// CUDA's wrap-around counters.
CVZ_ATOMIC(atomicInc, unsigned int, old >= v ? 0u : old + 1)
CVZ_ATOMIC(atomicDec, unsigned int, old == 0 || old > v ? v : old - 1)
#undef CVZ_ATOMIC_BITS
#undef CVZ_ATOMIC_ORDER
#undef CVZ_ATOMIC_ARITH
#undef CVZ_ATOMIC

#define CVZ_ATOMIC_CAS(T)                                                                           \
    __attribute__((visibility("default"))) T atomicCAS(T* p, T compare, T v) {                     \
        return atomic_update<T>(p, __builtin_return_address(0), [compare, v](T old) -> T {          \
            return old == compare ? v : old;                                                        \
        });                                                                                         \
    }
CVZ_ATOMIC_CAS(unsigned short)
CVZ_ATOMIC_CAS(int)
CVZ_ATOMIC_CAS(unsigned int)
CVZ_ATOMIC_CAS(unsigned long long)
#undef CVZ_ATOMIC_CAS

namespace {

// The block's indices are the same for all its threads: set when the host thread turns to another block.
thread_local std::uint64_t t_indices_block = ~std::uint64_t(0);

void set_indices(const EmuContext& c, std::uint64_t linear_block) {
    // Each index read as its own word: the emulator's loop has just stored them one by one, and one wide
    // load of two of them would wait for both stores (a failed store forward, a tenth of the runner's time).
    const Dim3 t = c.thread_idx();
    unsigned x = t.x, y = t.y, z = t.z;
    asm volatile("" : "+r"(x), "+r"(y), "+r"(z));
    cvz_threadIdx = CvzUint3{x, y, z};
    if (linear_block == t_indices_block) return;
    t_indices_block = linear_block;
    const Dim3 b = c.block_idx(), bd = c.block_dim(), g = c.grid_dim();
    cvz_blockIdx = CvzUint3{b.x, b.y, b.z};
    cvz_blockDim = CvzUint3{bd.x, bd.y, bd.z};
    cvz_gridDim = CvzUint3{g.x, g.y, g.z};
}

// "0..31, 40, 45..63"
std::string ranges(const std::vector<std::uint64_t>& ids) {
    std::string s;
    for (std::size_t k = 0; k < ids.size();) {
        std::size_t j = k;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (!s.empty()) s += ", ";
        s += std::to_string(ids[k]);
        if (j > k) s += ".." + std::to_string(ids[j]);
        k = j + 1;
        if (s.size() > 300 && k < ids.size()) {
            s += ", ...";
            break;
        }
    }
    return s;
}

// At a block's end: every thread must have passed the same number of barriers.
void check_barriers(const BlockBarriers& bb, const EmuContext& ctx) {
    const auto [lo, hi] = std::minmax_element(bb.syncs.begin(), bb.syncs.end());
    if (*lo == *hi) return;
    const std::uint32_t k = *lo;  // the first barrier some threads never reached
    std::vector<std::uint64_t> missing;
    for (std::size_t t = 0; t < bb.syncs.size(); ++t)
        if (bb.syncs[t] == k) missing.push_back(t);
    const std::uint64_t reached = bb.syncs.size() - missing.size();
    const Dim3 b = ctx.block_idx();
    const unsigned line = k < bb.lines.size() ? bb.lines[k] : 0;
    fault(Fault::Barrier, (line ? "line " + std::to_string(line) + ": " : std::string()) + "__syncthreads() was reached by " +
                              std::to_string(reached) + " of the " + std::to_string(bb.syncs.size()) +
                              " threads of block (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " +
                              std::to_string(b.z) + "); " + (missing.size() == 1 ? "thread " : "threads ") +
                              ranges(missing) + " never reached it");
}

void on_signal(int signal, siginfo_t* info, void* context) {
    if (g_entry_block) fault(Fault::Crashed, "");  // the instrumented run says what it was
    const auto* uc = static_cast<const ucontext_t*>(context);
    const auto pc = std::uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
    const PcSite site = lookup_pc(pc + 1);  // the faulting instruction itself, not a return address
    const std::string where = user_line(site) + thread_text(t_current);
    if (signal == SIGSEGV || signal == SIGBUS) {
        const auto p = reinterpret_cast<std::uintptr_t>(info->si_addr);
        for (unsigned k = 0; k < g_buffer_count; ++k)
            if (p - g_buffers[k].reserved_lo < g_buffers[k].reserved_bytes) bounds_fault(g_buffers[k], p, Access::Load, site);
        invalid_fault(p, site);
    }
    if (signal == SIGFPE) fault(Fault::Crashed, where + " divided an integer by zero (SIGFPE)");
    if (signal == SIGABRT) fault(Fault::Crashed, where + " called abort() (a failed assert?)");
    fault(Fault::Crashed, where + " stopped the kernel with " + signal_text(signal));
}

// --- The time limit ------------------------------------------------------------------------------------
// The caller kills the runner at its time limit, and a little later; first the runner's own watchdog
// interrupts the threads that run blocks, and one caught in the kernel's code names the line it is on.

std::mutex g_threads_mutex;
std::vector<pid_t> g_threads;  // the host threads running blocks, by kernel thread id
std::string g_time_limit_text;

struct ThreadRegistration {
    pid_t tid = ::gettid();
    ThreadRegistration() {
        std::lock_guard<std::mutex> lock(g_threads_mutex);
        g_threads.push_back(tid);
    }
    ~ThreadRegistration() {
        std::lock_guard<std::mutex> lock(g_threads_mutex);
        g_threads.erase(std::find(g_threads.begin(), g_threads.end(), tid));
    }
};
thread_local ThreadRegistration t_registration;

std::string time_limit_message(const std::string& where) {
    return "the time limit of " + g_time_limit_text + " s was reached" + where +
           ": the kernel was stopped (an endless loop?)";
}

// SIGUSR2 from the watchdog: when this thread is in the kernel's own code, that is where it loops.
void on_time_limit(int, siginfo_t*, void* context) {
    const auto pc = std::uintptr_t(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
    if (pc - g_object_lo >= g_object_bytes || !t_current) return;  // elsewhere (a hook, the emulator): next time
    const PcSite site = lookup_pc(pc + 1);
    fault(Fault::TimeLimit, user_line(site) + time_limit_message(" in " + thread_text(t_current)));
}

// Until `done`, or at `limit` seconds: interrupts the block threads every 20 ms for a second, then gives up
// on naming a line.
void watchdog(double limit, std::mutex& mutex, std::condition_variable& changed, const bool& done) {
    std::unique_lock<std::mutex> lock(mutex);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
    if (changed.wait_until(lock, deadline, [&] { return done; })) return;
    ensure_lines();
    for (int round = 0; round < 50; ++round) {
        {
            std::lock_guard<std::mutex> threads(g_threads_mutex);
            for (pid_t tid : g_threads) ::tgkill(::getpid(), tid, SIGUSR2);
        }
        if (changed.wait_for(lock, std::chrono::milliseconds(20), [&] { return done; })) return;
    }
    fault(Fault::TimeLimit, time_limit_message(""));
}

// Signals are handled on a stack of their own: a fiber's stack may be what overflowed.
// A block thread's alternate stack, given back when the thread ends: a kept runner starts new block
// threads for every job. (Under AddressSanitizer, which unmaps a thread's alternate stack itself when the
// thread ends, it is left to it.)
struct AltStack {
    void* memory = nullptr;
    std::size_t bytes = 0;
    ~AltStack() {
#ifndef __SANITIZE_ADDRESS__
        if (!memory) return;
        stack_t off{};
        off.ss_flags = SS_DISABLE;
        ::sigaltstack(&off, nullptr);
        ::munmap(memory, bytes);
#endif
    }
};
thread_local AltStack t_alt_stack_memory;

void ensure_alt_stack() {
    if (t_alt_stack) return;
    t_alt_stack = true;
    (void)t_registration.tid;  // registers this thread for the watchdog
    // Mapped, not allocated: AddressSanitizer unmaps a thread's alternate stack when the thread ends.
    stack_t s{};
    s.ss_size = 64 * 1024;
    s.ss_sp = ::mmap(nullptr, s.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (s.ss_sp == MAP_FAILED) return;
    ::sigaltstack(&s, nullptr);
    t_alt_stack_memory.memory = s.ss_sp;
    t_alt_stack_memory.bytes = s.ss_size;
}

void run_thread(const EmuContext& ctx) {
    ensure_alt_stack();
    Current c;
    c.ctx = &ctx;
    c.block = linear_block_id(ctx.block_idx(), g_grid);
    c.thread = std::uint32_t(linear_thread_id(ctx.thread_idx(), g_block));
    if (g_recorder) {
        c.trace = g_recorder->begin_thread(ctx);
        if (!c.trace) return;
        c.accesses_left = g_thread_budget;
    }
    const bool barriers = ctx.barrier_ != nullptr;
    if (barriers && t_barriers.block != c.block) {
        t_barriers.block = c.block;
        t_barriers.threads = g_block.volume();
        t_barriers.finished = 0;
        t_barriers.syncs.assign(t_barriers.threads, 0);
        t_barriers.lines.clear();
    }
    set_indices(ctx, c.block);
    t_current = &c;
    g_entry(g_args.pointers);
    t_current = nullptr;
    if (barriers) {
        t_barriers.syncs[c.thread] = c.syncs;
        if (++t_barriers.finished == t_barriers.threads) check_barriers(t_barriers, ctx);
    }
}

// The address range of the loaded object's segments (its own data may be read: string literals, tables).
void find_object_range(void* handle) {
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map) return;
    struct Search {
        const char* name;
        std::uintptr_t lo = ~std::uintptr_t(0), hi = 0;
    } search{map->l_name};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            auto* s = static_cast<Search*>(data);
            if (!info->dlpi_name || std::strcmp(info->dlpi_name, s->name) != 0) return 0;
            for (int k = 0; k < info->dlpi_phnum; ++k) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[k];
                if (ph.p_type != PT_LOAD) continue;
                s->lo = std::min<std::uintptr_t>(s->lo, info->dlpi_addr + ph.p_vaddr);
                s->hi = std::max<std::uintptr_t>(s->hi, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
            }
            return 1;
        },
        &search);
    if (search.hi > search.lo) {
        g_object_lo = search.lo;
        g_object_bytes = search.hi - search.lo;
    }
}

// "foo(int)" from dlopen's "...: undefined symbol: _Z3fooi"; empty for any other error.
std::string undefined_symbol(const std::string& error) {
    const std::string key = "undefined symbol: ";
    const std::size_t at = error.find(key);
    if (at == std::string::npos) return {};
    std::string symbol = error.substr(at + key.size());
    symbol = symbol.substr(0, symbol.find_first_of(" \t\n,"));
    int status = 0;
    char* readable = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    if (status == 0 && readable) symbol = readable;
    std::free(readable);
    return symbol;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void cvz_syncthreads() {
    Current* const c = t_current;
    if (!c || !c->ctx->barrier_)
        fault(Fault::Crashed, "__syncthreads() was called where the emulator runs no barriers (through a macro?)");
    const std::uint32_t index = c->syncs++;
    if (index >= t_barriers.lines.size()) {
        const PcSite site = lookup_pc(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
        t_barriers.lines.push_back(site.file == g_user_file ? site.line : 0);
    }
    if (g_recorder) c->trace.on_sync(*c->ctx);
    c->ctx->sync();  // the other threads of the block run until they reach it too
    t_current = c;
    set_indices(*c->ctx, c->block);
}

extern "C" __attribute__((visibility("default"))) void* cvz_shared_slot(unsigned slot, std::size_t bytes,
                                                                          std::size_t align) {
    Current* const c = t_current;
    if (slot >= kMaxSlots) fault(Fault::Crashed, "the kernel declares more than 256 __shared__ variables");
    std::size_t at = g_slot_offset[slot].load(std::memory_order_acquire);
    if (!at) {
        // Placed in the order first met, which is declaration order: every thread meets them so.
        std::lock_guard<std::mutex> lock(g_slot_mutex);
        at = g_slot_offset[slot].load(std::memory_order_relaxed);
        if (!at) {
            const std::size_t a = std::max<std::size_t>(align, 1), o = (g_slot_next + a - 1) / a * a;
            if (o + bytes > kStaticShared)
                fault(Fault::Crashed, "the kernel's __shared__ variables need more than 48 KiB a block (" +
                                          std::to_string(o + bytes) + " bytes), CUDA's limit for static shared memory");
            g_slot_next = o + bytes;
            at = o + 1;
            g_slot_offset[slot].store(at, std::memory_order_release);
        }
    }
    return static_cast<unsigned char*>(c->ctx->shared_) + at - 1;
}

// The direct object's checked pointer missed its buffer (emulated_source.cpp): the instrumented run names it.
extern "C" __attribute__((visibility("default"), noreturn)) void cvz_direct_fault() {
    fault(Fault::Bounds, "an access outside its buffer");
}

namespace {

// The direct object's launch: blocks in parallel as the emulator runs them, one call of the object's
// entry a block (its thread loop is the object's own), each host thread with its block's shared memory.
void run_direct(const RunnerJob& job, std::vector<BlockTiming>* schedule) {
    if (schedule) schedule->assign(job.grid.volume(), BlockTiming{});
    for_each_block_parallel_on_workers(job.grid.volume(), job.host_threads, [&](unsigned worker, std::uint64_t first,
                                                                                std::uint64_t last) {
        ensure_alt_stack();
        std::vector<unsigned char> shared(g_shared_total);
        EmuContext ctx;
        ctx.block_dim_ = job.block;
        ctx.grid_dim_ = job.grid;
        ctx.shared_ = shared.data();
        unsigned thread = 0;
        Current c;
        c.ctx = &ctx;
        c.direct_thread = &thread;
        cvz_blockDim = CvzUint3{job.block.x, job.block.y, job.block.z};
        cvz_gridDim = CvzUint3{job.grid.x, job.grid.y, job.grid.z};
        for (std::uint64_t b = first; b < last; ++b) {
            ctx.block_idx_ = block_of_linear(b, job.grid);
            c.block = b;
            cvz_blockIdx = CvzUint3{ctx.block_idx_.x, ctx.block_idx_.y, ctx.block_idx_.z};
            const std::uint64_t start = schedule ? emu_clock_ns() : 0;
            t_current = &c;
            g_entry_block(g_args.pointers, g_args.bytes, &thread);
            t_current = nullptr;
            if (schedule) (*schedule)[b] = BlockTiming{int(worker), start, emu_clock_ns()};
        }
    });
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* cvz_dynamic_shared() {
    return static_cast<unsigned char*>(t_current->ctx->shared_) + kStaticShared;
}

namespace {

// What one job maps: its buffers (each between guards) and its writers' records.
struct JobMaps {
    std::vector<SharedBuffer> buffers, writers;
    std::vector<BufferRange> ranges;
};

// A kept runner keeps the last job's buffers mapped: the caller gives the next run of the same launch
// the same shared memory (user_emulated.cpp keeps it), found here by its inode (a mapping holds its file,
// so an inode met again is the same memory), and its pages are then neither mapped nor faulted again.
struct MappedFile {
    dev_t device = 0;
    ino_t inode = 0;
    bool writable = false;
    SharedBuffer buffer;
};

// The buffer of `a`, guarded: one of `kept` (taken out of it) when it maps the same file, else mapped now.
SharedBuffer map_buffer(const RunnerArg& a, std::vector<MappedFile>& kept, MappedFile* identity) {
    std::string error;
    struct stat st {};
    if (::stat(a.path.c_str(), &st) == 0) {
        identity->device = st.st_dev;
        identity->inode = st.st_ino;
        identity->writable = a.writable;
        for (MappedFile& m : kept)
            if (m.buffer.valid() && m.device == st.st_dev && m.inode == st.st_ino && m.writable == a.writable &&
                m.buffer.size() == a.bytes)
                return std::move(m.buffer);
    }
    // Guards as large as the buffer (at least 1 MiB), so that an index that is off by a row still lands
    // in its buffer's guard and is named.
    SharedBuffer b = SharedBuffer::open_guarded(a.path, a.bytes, true, std::max<std::size_t>(a.bytes, 1 << 20), &error);
    if (!b.valid()) setup_error(error);
    // An output's pages mapped ahead by reading them: a read maps its neighbours too (the system's
    // fault-around, 16 pages), each already writable in a shared mapping of memory; the kernel's first
    // stores would otherwise fault one page at a time.
    if (a.writable)
        for (std::size_t at = 0; at < a.bytes; at += 4096) (void)static_cast<volatile const unsigned char*>(b.data())[at];
    return b;
}

// The job's arguments into g_args and g_buffers. `kept`: a kept runner's mappings of its last job, and
// on return this job's (empty for a runner of one job).
void map_job(const RunnerJob& job, JobMaps* maps, std::vector<MappedFile>* kept) {
    if (job.args.size() > kMaxArgs) setup_error("more than 64 parameters");
    g_args = ArgArea{};
    g_buffer_count = 0;
    g_records = false;
    std::vector<MappedFile> now;
    for (std::size_t k = 0; k < job.args.size(); ++k) {
        const RunnerArg& a = job.args[k];
        if (!a.buffer) {
            g_args.ints[k] = a.value;
            g_args.pointers[k] = &g_args.ints[k];
            continue;
        }
        std::vector<MappedFile> none;
        MappedFile identity;
        SharedBuffer b = map_buffer(a, kept ? *kept : none, &identity);
        Buffer& g = g_buffers[g_buffer_count++];
        g = Buffer{};
        g.base = reinterpret_cast<std::uintptr_t>(b.data());
        g.bytes = a.bytes;
        g.reserved_lo = reinterpret_cast<std::uintptr_t>(b.reserved_begin());
        g.reserved_bytes = std::uintptr_t(b.reserved_end() - b.reserved_begin());
        g.element_bytes = std::max<std::size_t>(a.element_bytes, 1);
        g.name = a.name.c_str();
        if (!a.writers_path.empty()) {
            std::string error;
            const std::size_t n = a.bytes / g.element_bytes;
            SharedBuffer w = SharedBuffer::open(a.writers_path, n * sizeof(Writer), true, &error);
            if (!w.valid()) setup_error(error);
            g.writers = static_cast<Writer*>(w.data());
            g_records = true;
            maps->writers.push_back(std::move(w));
        }
        g_args.pointers[k] = b.data();
        g_args.bytes[k] = a.bytes;
        maps->ranges.push_back(BufferRange{a.name, b.data(), a.bytes, MemorySpace::Global});
        if (kept && identity.inode) {
            identity.buffer = std::move(b);
            now.push_back(std::move(identity));
        } else {
            maps->buffers.push_back(std::move(b));
        }
    }
    // The mappings of the last job that this one did not use go; this job's stay for the next.
    if (kept) *kept = std::move(now);
}

// Loads the kernel's object (the first job's) and sets up what every job of it uses: its entry points,
// its line table (the direct object's when first needed), the fault handlers.
void load_object(const RunnerJob& job) {
    g_file_name = job.file_name;
    g_user_file = g_file_name.c_str();
    void* handle = ::dlopen(job.object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = ::dlerror();
        const std::string error = e ? e : "unknown error";
        if (const std::string name = undefined_symbol(error); !name.empty())
            fault(Fault::Crashed, "the kernel calls " + name + ", which is defined nowhere (a function declared without a body?)");
        setup_error("cannot load the compiled kernel: " + error);
    }
    g_entry_block = reinterpret_cast<void (*)(void* const*, const std::uintptr_t*, unsigned*)>(::dlsym(handle, kEntryBlockSymbol));
    g_entry = reinterpret_cast<void (*)(void* const*)>(::dlsym(handle, kEntrySymbol));
    if (!g_entry && !g_entry_block) setup_error("the compiled kernel has no entry point");
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map) setup_error("cannot find where the kernel was loaded");
    if (g_entry_block) {
        g_lines_object = job.object;
        g_lines_bias = map->l_addr;
    } else if (std::string e = g_lines.load(job.object, map->l_addr, g_file_name); !e.empty()) {
        setup_error(e);
    }
    find_object_range(handle);

    struct sigaction action {};
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) ::sigaction(s, &action, nullptr);
}

// Runs the job's launch on the loaded object over the mapped buffers, under its time limit, and writes
// its trace and schedule where the job says. A fault ends the process before it returns.
void run_job(const RunnerJob& job, const JobMaps& maps) {
    if (g_entry_block && (job.trace || g_records || job.barriers || !job.sample_blocks.empty()))
        setup_error("the direct object runs untraced launches without barriers only");
    g_grid = job.grid;
    g_block = job.block;
    g_sample = job.sample_blocks;
    g_shared_total = kStaticShared + job.dynamic_shared;

    TraceOptions trace_options;
    trace_options.keep_blocks = job.keep_blocks;
    trace_options.all_warps = job.all_warps;
    trace_options.sample_blocks = job.sample_blocks;
    trace_options.host_threads = job.host_threads;
    if (job.progress)  // one call at a time (memory_trace.h), each line one write: whole on the pipe
        trace_options.progress = [](double done) { say(kRunnerProgress + std::to_string(done) + "\n"); };
    std::unique_ptr<MemoryRecorder> recorder;
    if (job.trace) {
        recorder = std::make_unique<MemoryRecorder>(job.grid, job.block, maps.ranges, g_shared_total, trace_options);
        g_recorder = recorder.get();
        g_records = true;
        g_access_budget = job.access_budget;
        if (g_access_budget) g_thread_budget = std::max<std::uint64_t>(1, g_access_budget / job.block.volume());
    }

    std::vector<BlockTiming> schedule;
    EmuOptions options;
    options.host_threads = job.host_threads;
    options.barriers = job.barriers;
    options.shared_bytes = g_shared_total;
    options.schedule = job.schedule ? &schedule : nullptr;
    std::mutex watch_mutex;
    std::condition_variable watch_changed;
    bool done = false;
    std::thread watch;
    if (job.time_limit_s > 0) {
        std::ostringstream text;
        text << job.time_limit_s;
        g_time_limit_text = text.str();
        struct sigaction timer {};
        timer.sa_sigaction = on_time_limit;
        timer.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&timer.sa_mask);
        ::sigaction(SIGUSR2, &timer, nullptr);
        watch = std::thread(watchdog, job.time_limit_s, std::ref(watch_mutex), std::ref(watch_changed), std::cref(done));
    }
    Status status = Status::ok();
    if (g_entry_block) run_direct(job, options.schedule);
    else
        status = emulate(emulated_grid(job.grid, g_sample), job.block, options, [](const EmuContext& run) {
            with_sampled_context(run, g_grid, g_sample, [](const EmuContext& ctx) { run_thread(ctx); });
        });
    if (watch.joinable()) {
        {
            std::lock_guard<std::mutex> lock(watch_mutex);
            done = true;
        }
        watch_changed.notify_all();
        watch.join();
    }
    if (!status) setup_error(status.message());

    if (recorder) {
        const MemoryTrace trace = recorder->finish();
        g_recorder = nullptr;
        if (!write_file(job.trace_path, serialize_memory_trace(trace))) setup_error("cannot write " + job.trace_path);
    }
    if (job.schedule && !write_file(job.schedule_path, serialize_block_schedule(schedule)))
        setup_error("cannot write " + job.schedule_path);
    std::fflush(nullptr);
    say(std::string(kRunnerOk) + "\n");
}

// Reads exactly `bytes` from the request socket; false at its end.
bool read_request_bytes(char* into, std::size_t bytes) {
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n = ::read(0, into + done, bytes - done);
        if (n > 0) done += std::size_t(n);
        else if (n < 0 && errno == EINTR) continue;
        else return false;
    }
    return true;
}

// The next request (runner_job.h, frame_job): its job's text; false when the caller hung up.
bool read_request(std::string* text) {
    std::string length;
    for (char c = 0; c != '\n';) {
        if (!read_request_bytes(&c, 1)) return false;
        if (c != '\n') length += c;
        if (length.size() > 20) setup_error("a request without its length");
    }
    text->assign(std::strtoull(length.c_str(), nullptr, 10), '\0');
    return read_request_bytes(text->data(), text->size());
}

// A kept runner (user_emulated.cpp): the jobs of one direct object, one after another, until the caller
// hangs up its socket (stdin) or a fault ends the process. A thread watches the socket, so that a
// runner whose caller died mid-run ends too.
[[noreturn]] void serve() {
    std::thread([] {
        pollfd hangup{0, 0, 0};  // no events asked: poll returns on the hang-up (or an error) only
        while (::poll(&hangup, 1, -1) < 0 && errno == EINTR) {
        }
        ::_exit(0);
    }).detach();
    std::vector<MappedFile> kept;
    std::string object;
    for (std::string text; read_request(&text);) {
        RunnerJob job;
        if (std::string e = read_job(text, &job); !e.empty()) setup_error("the request: " + e);
        if (object.empty()) {
            object = job.object;
            load_object(job);
            if (!g_entry_block) setup_error("a kept runner runs a direct object only");
        } else if (job.object != object) {
            setup_error("a kept runner runs the object it loaded first only");
        }
        if (job.progress) setup_error("a kept runner reports no progress");
        JobMaps maps;
        map_job(job, &maps, &kept);
        run_job(job, maps);
    }
    ::_exit(0);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: cudaviz-kernel-runner JOB|%s (run by cudaviz, not by hand)\n", kRunnerServe);
        return 2;
    }
    if (std::strcmp(argv[1], kRunnerServe) == 0) serve();
    // Ends with its caller: a runner left behind by a crashed app would spin until its time limit. (The
    // caller's thread waits in run_child for as long as this runs, so it outlives it otherwise.)
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    RunnerJob job;
    if (std::string e = read_job(read_file(argv[1]), &job); !e.empty()) setup_error(std::string(argv[1]) + ": " + e);
    JobMaps maps;
    map_job(job, &maps, nullptr);
    load_object(job);
    run_job(job, maps);
    // Straight out, as after a fault: nothing is left to tidy that the exit does not free, and a
    // sanitizer's exit-time report (a build with ASan) would only turn a good run into a failed one.
    ::_exit(0);
}
