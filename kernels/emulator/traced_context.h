#pragma once
#include <cstddef>

#include "emu_context.h"

namespace cvz {

enum class Access { Load, Store };

// The third execution of a kernel body (ARCHITECTURE.md, invariant 1): the emulator's context with
// every load, store and barrier reported to an observer, which may count or record them.
//   observer.on_access(const EmuContext&, Access, const void* address, std::size_t bytes)
//   observer.on_sync(const EmuContext&)
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

    template <class T> T load(const T* p) const {
        observer_.on_access(base_, Access::Load, p, sizeof(T));
        return *p;
    }
    template <class T> void store(T* p, T v) const {
        observer_.on_access(base_, Access::Store, p, sizeof(T));
        *p = v;
    }
    void sync() const {
        observer_.on_sync(base_);
        base_.sync();
    }

private:
    const EmuContext& base_;
    Observer& observer_;
};

}  // namespace cvz
