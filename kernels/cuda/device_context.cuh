#pragma once
// The context a kernel body sees on the GPU: CUDA's built-ins behind the same members the
// emulator's EmuContext offers, so one body serves both (ARCHITECTURE.md, invariant 1).
#include "../core/dim3.h"

namespace cvz {

struct DeviceContext {
    __device__ __forceinline__ Dim3 block_idx() const { return Dim3{blockIdx.x, blockIdx.y, blockIdx.z}; }
    __device__ __forceinline__ Dim3 thread_idx() const { return Dim3{threadIdx.x, threadIdx.y, threadIdx.z}; }
    __device__ __forceinline__ Dim3 block_dim() const { return Dim3{blockDim.x, blockDim.y, blockDim.z}; }
    __device__ __forceinline__ Dim3 grid_dim() const { return Dim3{gridDim.x, gridDim.y, gridDim.z}; }

    template <class T> __device__ __forceinline__ T load(const T* p) const { return *p; }
    template <class T> __device__ __forceinline__ void store(T* p, T v) const { *p = v; }

    template <class T> __device__ __forceinline__ T* shared() const {
        extern __shared__ unsigned char cvz_dynamic_shared[];
        return reinterpret_cast<T*>(cvz_dynamic_shared);
    }
    __device__ __forceinline__ void sync() const { __syncthreads(); }
};

}  // namespace cvz
