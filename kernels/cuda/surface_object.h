#pragma once
// RAII CUDA surface object over a CUDA array: how a kernel writes texels of a mapped GL texture.
#include <cuda_runtime.h>

#include <cstring>
#include <utility>

#include "cuda_check.h"

namespace cvz {

class SurfaceObject {
public:
    SurfaceObject() = default;
    SurfaceObject(const SurfaceObject&) = delete;
    SurfaceObject& operator=(const SurfaceObject&) = delete;
    ~SurfaceObject() { reset(); }

    Status create(cudaArray_t array) {
        reset();
        cudaResourceDesc desc;
        std::memset(&desc, 0, sizeof desc);
        desc.resType = cudaResourceTypeArray;
        desc.res.array.array = array;
        CVZ_CUDA_TRY(cudaCreateSurfaceObject(&surface_, &desc));
        array_ = array;
        return Status::ok();
    }
    // Only once no queued kernel uses it any more: destruction is not ordered with the stream.
    void reset() {
        if (surface_) cudaDestroySurfaceObject(surface_);
        surface_ = 0;
        array_ = nullptr;
    }
    cudaSurfaceObject_t get() const { return surface_; }
    cudaArray_t array() const { return array_; }

private:
    cudaSurfaceObject_t surface_ = 0;
    cudaArray_t array_ = nullptr;
};

}  // namespace cvz
