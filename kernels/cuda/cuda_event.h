#pragma once
// RAII CUDA event, for timing work on a stream.
#include <cuda_runtime.h>

#include <utility>

#include "cuda_check.h"

namespace cvz {

class CudaEvent {
public:
    CudaEvent() = default;
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    CudaEvent(CudaEvent&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
    CudaEvent& operator=(CudaEvent&& o) noexcept {
        if (this != &o) {
            reset();
            event_ = std::exchange(o.event_, nullptr);
        }
        return *this;
    }
    ~CudaEvent() { reset(); }
    Status create() {
        reset();
        return cuda_status(cudaEventCreate(&event_), "cudaEventCreate");
    }
    void reset() {
        if (event_) cudaEventDestroy(event_);
        event_ = nullptr;
    }
    Status record(cudaStream_t stream) { return cuda_status(cudaEventRecord(event_, stream), "cudaEventRecord"); }
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

// Milliseconds between two recorded events (waits for `end`).
inline Status elapsed_ms(const CudaEvent& begin, const CudaEvent& end, double* ms) {
    CVZ_CUDA_TRY(cudaEventSynchronize(end.get()));
    float f = 0;
    CVZ_CUDA_TRY(cudaEventElapsedTime(&f, begin.get(), end.get()));
    *ms = f;
    return Status::ok();
}

}  // namespace cvz
