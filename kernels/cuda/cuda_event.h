#pragma once
// RAII CUDA event, for timing work on a stream.
#include <cuda_runtime.h>

#include <chrono>

#include <utility>

#include "../core/gpu_timings.h"
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

// The upload, kernel and download stages of a run between four recorded events, and its wall time
// since `wall_start`, allocation and launch overhead included.
inline Status read_stage_timings(const CudaEvent& begin, const CudaEvent& uploaded, const CudaEvent& computed,
                                 const CudaEvent& downloaded, std::chrono::steady_clock::time_point wall_start,
                                 GpuTimings* t) {
    if (Status s = elapsed_ms(begin, uploaded, &t->upload_ms); !s) return s;
    if (Status s = elapsed_ms(uploaded, computed, &t->kernel_ms); !s) return s;
    if (Status s = elapsed_ms(computed, downloaded, &t->download_ms); !s) return s;
    t->total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
    return Status::ok();
}

}  // namespace cvz
