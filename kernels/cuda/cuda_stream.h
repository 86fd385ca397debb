#pragma once
// RAII CUDA stream: work queued on it runs in order, apart from other streams.
#include <cuda_runtime.h>

#include <utility>

#include "cuda_check.h"

namespace cvz {

class CudaStream {
public:
    CudaStream() = default;
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;
    CudaStream(CudaStream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
    CudaStream& operator=(CudaStream&& o) noexcept {
        if (this != &o) {
            reset();
            stream_ = std::exchange(o.stream_, nullptr);
        }
        return *this;
    }
    ~CudaStream() { reset(); }

    Status create() {
        reset();
        return cuda_status(cudaStreamCreate(&stream_), "cudaStreamCreate");
    }
    Status synchronize() const { return cuda_status(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }
    void reset() {
        if (stream_) cudaStreamDestroy(stream_);
        stream_ = nullptr;
    }
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace cvz
