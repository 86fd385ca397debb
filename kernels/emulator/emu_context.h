#pragma once
#include <atomic>
#include <cstddef>

#include "../core/dim3.h"

namespace cvz {

class FiberBarrier;

// What a kernel body sees when the emulator runs it: the same members the GPU context offers
// (block_idx, thread_idx, block_dim, grid_dim, load, store, shared, sync), answered from plain fields.
class EmuContext {
public:
    Dim3 block_idx() const { return block_idx_; }
    Dim3 thread_idx() const { return thread_idx_; }
    Dim3 block_dim() const { return block_dim_; }
    Dim3 grid_dim() const { return grid_dim_; }

    template <class T> T load(const T* p) const { return *p; }
    template <class T> void store(T* p, T v) const { *p = v; }

    // The block's dynamic shared memory, as on the GPU `extern __shared__` storage.
    template <class T> T* shared() const { return static_cast<T*>(shared_); }

    // __syncthreads(): suspends this thread's fiber until every thread of the block has arrived.
    // Only valid when the launch was made with EmuOptions::barriers (checked by the runner).
    void sync() const;

    // Fields set by the emulator's block runner.
    Dim3 block_idx_, thread_idx_, block_dim_, grid_dim_;
    void* shared_ = nullptr;
    FiberBarrier* barrier_ = nullptr;
    std::atomic<bool>* stray_sync_ = nullptr;  // set when sync() is called in a launch without barriers
};

}  // namespace cvz
