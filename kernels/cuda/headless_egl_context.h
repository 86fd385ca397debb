#pragma once
// A desktop OpenGL context with no window, made through EGL on a GPU device
// (EGL_EXT_platform_device + a pbuffer surface): what tests and benchmarks on a machine without a
// display hand to the GL and interop code. libEGL is opened at run time, so nothing links against
// it and a machine without EGL simply answers Unavailable.
#include <memory>
#include <string>

#include "../core/status.h"
#include "gl_functions.h"

namespace cvz {

class HeadlessEglContext {
public:
    // Picks the EGL device that is CUDA device `cuda_device` when the driver says so
    // (EGL_NV_device_cuda), else the first device that gives an OpenGL context; asks for GL 4.5
    // core, then 3.3 core, then whatever the driver offers. The context is current on return.
    static Status create(std::unique_ptr<HeadlessEglContext>* out, int cuda_device = 0);
    ~HeadlessEglContext();
    HeadlessEglContext(const HeadlessEglContext&) = delete;
    HeadlessEglContext& operator=(const HeadlessEglContext&) = delete;

    // Makes the context current on the calling thread.
    Status make_current();
    // eglGetProcAddress, as a GlFunctions resolver.
    GlProcResolver resolver() const;
    // "NVIDIA H200/PCIe/SSE2, OpenGL 4.5.0 NVIDIA 580.159.04, EGL device 0 (CUDA device 0)".
    const std::string& description() const;
    // True when the driver reported which CUDA device this context runs on (EGL_NV_device_cuda).
    bool on_cuda_device() const;

    struct Impl;

private:
    explicit HeadlessEglContext(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace cvz
