#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include "access_site.h"
#include "emu_context.h"

namespace cvz {

// True when the observer takes the access site too (the memory trace does; simple counters need not).
template <class Observer, class = void>
struct observes_sites : std::false_type {};
template <class Observer>
struct observes_sites<Observer, std::void_t<decltype(std::declval<Observer&>().on_access(
                                    std::declval<const EmuContext&>(), Access::Load, static_cast<const void*>(nullptr),
                                    std::size_t(0), std::declval<const AccessSite&>()))>> : std::true_type {};

// The third execution of a kernel body (ARCHITECTURE.md, invariant 1): the emulator's context with
// every load, store and barrier reported to an observer, which may count or record them.
//   observer.on_access(const EmuContext&, Access, const void* address, std::size_t bytes[, const AccessSite&])
//   observer.on_sync(const EmuContext&)
// The site is the caller's line and file, taken as default arguments (access_site.h); bodies never
// pass them, so the GPU and plain emulator contexts need not declare them.
// Blocks run in parallel unless EmuOptions::host_threads is 1, so an observer must be thread-safe
// or the launch serial.
template <class Observer>
class TracedContext {
public:
    TracedContext(const EmuContext& base, Observer& observer) : base_(base), observer_(observer) {}

    Dim3 block_idx() const { return base_.block_idx(); }
    Dim3 thread_idx() const { return base_.thread_idx(); }
    Dim3 block_dim() const { return base_.block_dim(); }
    Dim3 grid_dim() const { return base_.grid_dim(); }
    template <class T> T* shared() const { return base_.template shared<T>(); }
    const EmuContext& base() const { return base_; }

    template <class T>
    T load(const T* p, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
        report(Access::Load, p, sizeof(T), line, file);
        return *p;
    }
    template <class T>
    void store(T* p, T v, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
        report(Access::Store, p, sizeof(T), line, file);
        *p = v;
    }
    void sync() const {
        observer_.on_sync(base_);
        base_.sync();
    }

private:
    void report(Access a, const void* p, std::size_t bytes, unsigned line, const char* file) const {
        if constexpr (observes_sites<Observer>::value)
            observer_.on_access(base_, a, p, bytes, AccessSite{file, line});
        else
            observer_.on_access(base_, a, p, bytes);
    }

    const EmuContext& base_;
    Observer& observer_;
};

}  // namespace cvz
