#pragma once
// What a display hands the code that writes one frame (ARCHITECTURE.md, invariant 4): where the frame
// goes on the GPU, and on which stream. The display path (gl_interop.h) knows no kernel: it maps its
// GL object, describes it as an InteropTarget, calls the writer, and shows what the writer left there.
// Qt-free and CUDA-free, so that ui/ (which must not include cuda_runtime.h) can pass writers through.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "../core/status.h"

namespace cvz {

struct InteropTarget {
    // Either a surface (a GL_R8 texture mapped for CUDA: one byte a texel, x counted in bytes) ...
    unsigned long long surface = 0;  // cudaSurfaceObject_t; 0 when the target is memory
    // ... or device memory: row r starts at pointer + r * pitch, one byte a pixel.
    void* pointer = nullptr;
    std::size_t pitch = 0;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    void* stream = nullptr;  // cudaStream_t: queue the work there; the display orders GL after it
    int device = 0;          // the CUDA device the target lives on

    bool is_surface() const { return surface != 0; }
};

// Writes one frame into the target (asynchronously on target.stream, or not) and says whether it did.
// Called on the thread that holds the display's GL context, while the target is mapped.
using FrameWriter = std::function<Status(const InteropTarget& target)>;

}  // namespace cvz
