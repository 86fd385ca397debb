#pragma once
// OpenGL objects registered with CUDA (cudaGraphicsResource), owned and released by RAII, and the
// map/unmap pair around each frame's CUDA work. Failures carry CUDA's error, so a caller can fall
// back to another display path. Call these with the GL context current.
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

#include <string>
#include <utility>

#include "cuda_check.h"

namespace cvz {

class GraphicsResource {
public:
    GraphicsResource() = default;
    GraphicsResource(const GraphicsResource&) = delete;
    GraphicsResource& operator=(const GraphicsResource&) = delete;
    GraphicsResource(GraphicsResource&& o) noexcept : res_(std::exchange(o.res_, nullptr)) {}
    GraphicsResource& operator=(GraphicsResource&& o) noexcept {
        if (this != &o) {
            reset();
            res_ = std::exchange(o.res_, nullptr);
        }
        return *this;
    }
    ~GraphicsResource() { reset(); }

    // A texture (GL_TEXTURE_2D, ...), e.g. with cudaGraphicsRegisterFlagsSurfaceLoadStore.
    Status register_image(unsigned texture, unsigned gl_target, unsigned flags) {
        reset();
        return named(cudaGraphicsGLRegisterImage(&res_, texture, gl_target, flags), "cudaGraphicsGLRegisterImage",
                     "texture", texture);
    }
    // A buffer object (a pixel buffer, say), e.g. with cudaGraphicsRegisterFlagsWriteDiscard.
    Status register_buffer(unsigned buffer, unsigned flags) {
        reset();
        return named(cudaGraphicsGLRegisterBuffer(&res_, buffer, flags), "cudaGraphicsGLRegisterBuffer", "buffer",
                     buffer);
    }
    void reset() {
        if (res_) cudaGraphicsUnregisterResource(res_);
        res_ = nullptr;
    }
    cudaGraphicsResource_t get() const { return res_; }
    explicit operator bool() const { return res_ != nullptr; }

private:
    Status named(cudaError_t err, const char* call, const char* what, unsigned name) {
        if (err != cudaSuccess) res_ = nullptr;
        const std::string where = std::string(call) + " (GL " + what + " " + std::to_string(name) + ")";
        return cuda_status(err, where.c_str());
    }
    cudaGraphicsResource_t res_ = nullptr;
};

// Maps a registered resource for CUDA on `stream` until unmap() or destruction. While mapped, GL must
// not touch the object; unmapping orders later GL commands after the CUDA work queued before it.
class MappedResource {
public:
    MappedResource() = default;
    MappedResource(const MappedResource&) = delete;
    MappedResource& operator=(const MappedResource&) = delete;
    ~MappedResource() { (void)unmap(); }

    Status map(cudaGraphicsResource_t res, cudaStream_t stream) {
        if (Status s = unmap(); !s) return s;
        CVZ_CUDA_TRY(cudaGraphicsMapResources(1, &res, stream));
        res_ = res;
        stream_ = stream;
        return Status::ok();
    }
    Status unmap() {
        if (!res_) return Status::ok();
        cudaGraphicsResource_t res = std::exchange(res_, nullptr);
        return cuda_status(cudaGraphicsUnmapResources(1, &res, stream_), "cudaGraphicsUnmapResources");
    }
    // The texture's level 0 as a CUDA array (register_image resources).
    Status array(cudaArray_t* out) const {
        return cuda_status(cudaGraphicsSubResourceGetMappedArray(out, res_, 0, 0), "cudaGraphicsSubResourceGetMappedArray");
    }
    // The buffer's device address and size (register_buffer resources).
    Status pointer(void** out, std::size_t* bytes) const {
        return cuda_status(cudaGraphicsResourceGetMappedPointer(out, bytes, res_), "cudaGraphicsResourceGetMappedPointer");
    }

private:
    cudaGraphicsResource_t res_ = nullptr;
    cudaStream_t stream_ = nullptr;
};

}  // namespace cvz
