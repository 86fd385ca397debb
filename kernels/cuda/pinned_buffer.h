#pragma once
// RAII page-locked host memory: the GPU copies into it by DMA, at several times the speed of a copy
// into ordinary (pageable) memory, which the driver must stage.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda_check.h"

namespace cvz {

template <class T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
        if (this != &o) {
            reset();
            ptr_ = std::exchange(o.ptr_, nullptr);
            count_ = std::exchange(o.count_, 0);
        }
        return *this;
    }
    ~PinnedBuffer() { reset(); }

    Status allocate(std::size_t count) {
        reset();
        void* p = nullptr;
        Status s = cuda_status(cudaMallocHost(&p, count * sizeof(T)), "cudaMallocHost");
        if (!s) return Status::error(s.kind(), s.message() + " for " + std::to_string(count * sizeof(T)) + " bytes");
        ptr_ = static_cast<T*>(p);
        count_ = count;
        return s;
    }
    void reset() {
        if (ptr_) cudaFreeHost(ptr_);
        ptr_ = nullptr;
        count_ = 0;
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return count_; }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace cvz
