#pragma once
// RAII ownership of device memory; allocation failures come back as a Status, never an exception.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda_check.h"

namespace cvz {

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            reset();
            ptr_ = std::exchange(o.ptr_, nullptr);
            count_ = std::exchange(o.count_, 0);
        }
        return *this;
    }
    ~DeviceBuffer() { reset(); }

    Status allocate(std::size_t count) {
        reset();
        void* p = nullptr;
        Status s = cuda_status(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
        if (!s) return Status::error(s.kind(), s.message() + " for " + std::to_string(count * sizeof(T)) + " bytes");
        ptr_ = static_cast<T*>(p);
        count_ = count;
        return s;
    }
    void reset() {
        if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        count_ = 0;
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace cvz
