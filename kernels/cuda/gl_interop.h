#pragma once
// CUDA–OpenGL interop for a one-byte-a-pixel result (ARCHITECTURE.md, invariant 4): a frame writer
// (interop_target.h) writes into a GL texture that a view then draws, on the thread that holds the GL
// context. The display path knows no kernel: it maps, hands the writer an InteropTarget, and shows
// what the writer left (kernels/grayscale/grayscale_frame.h writes the grayscale family's frames).
// Qt-free and CUDA-free header, so the Qt view can include it; it works with whatever GL context is
// current (a QOpenGLWidget's, or a headless EGL one in tests).
//
// Four paths; open_gl_interop_with_fallback picks the first of interop_paths() that works:
//   ExternalMemory  zero-copy: CUDA allocates exportable memory (exportable_memory.h) that GL imports
//                 once as a buffer (GL_EXT_memory_object_fd) and a GL_R8 buffer texture over it;
//                 per frame the writer gets its device pointer and the CPU waits for the writer's
//                 stream (no map/unmap), and GL draws straight from the buffer texture (the view's
//                 shader fetches texels, CVZ_BUFFER_SOURCE in image.frag): nothing is copied. The
//                 drawer calls frame_drawn() after each draw: the next frame waits on that fence, so
//                 its writer cannot overwrite bytes a draw still reads. The 2-D texture is not written.
//   SurfaceWrite  the texture is registered with CUDA; per frame: map, the writer gets a surface
//                 object over the texels (surf2Dwrite), unmap. Needs a GL_R8 texture.
//   PixelBuffer   a pixel buffer is registered; per frame: map, the writer gets its device pointer,
//                 unmap, glTexSubImage2D from the buffer (a copy that stays on the GPU).
//   HostCopy      no registration: the writer gets device memory, cudaMemcpy to (pinned) host
//                 memory, glTexSubImage2D from it. For GL that CUDA cannot share (non-NVIDIA GL,
//                 remote X, WSL).
// Measured on an H200 (bench_interop): mapping plus unmapping costs a fixed ~0.33 ms, so SurfaceWrite
// takes 0.34 ms a frame at 1920x1080 and 0.44 ms at 7680x4320, where HostCopy takes 0.31 and 4.5 ms
// A copy from a pixel buffer into the GL_R8 texture alone costs 2.29 ms there at 7680x4320 (0.67 ms
// into RGBA8): hence ExternalMemory has GL draw from the buffer itself.
// A texture that CUDA once had registered takes host uploads about 3x slower afterwards: a view that
// drops an interop path at run time should give HostCopy a new texture.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../core/status.h"
#include "gl_functions.h"
#include "interop_target.h"

namespace cvz {

enum class InteropPath { ExternalMemory, SurfaceWrite, PixelBuffer, HostCopy };

// Every path, fastest first: the fallback order.
const std::vector<InteropPath>& interop_paths();

// "external memory (zero-copy, GL_EXT_memory_object_fd)", "surface write (CUDA-GL interop)",
// "pixel buffer (CUDA-GL interop)", "host copy": for the status bar.
const char* to_string(InteropPath path);

class GlInterop {
public:
    // Prepares `path` for the 2-D texture `texture` of the current context, width x height texels,
    // registering what the path needs with CUDA once. A refused registration comes back as CUDA's
    // error (ErrorKind::Device or Unavailable): try the next path. InvalidInput means the texture
    // itself is wrong (size, not a texture) and no path will do. `gl` must stay loaded meanwhile.
    static Status open(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                       InteropPath path, std::unique_ptr<GlInterop>* out);
    // Releases the CUDA registration and the pixel buffer: destroy with the same GL context current.
    ~GlInterop();
    GlInterop(const GlInterop&) = delete;
    GlInterop& operator=(const GlInterop&) = delete;

    InteropPath path() const;
    int cuda_device() const;
    // ExternalMemory: the GL_TEXTURE_BUFFER (GL_R8, width * height texels, row after row) that holds
    // each frame, for the view to draw from; 0 on the other paths, which write the 2-D texture.
    GLuint buffer_texture() const;
    // ExternalMemory: the GL commands issued so far read the current frame (a fence marks them); the
    // next render() waits for them before its writer starts. No-op on the other paths.
    void frame_drawn();
    // The frame as the display holds it, width * height bytes, after the GPU finished: the 2-D
    // texture through GL, or the shared memory (through CUDA: GL's own read-back of it can be stale).
    Status read_back(std::uint8_t* gray) const;

    // One frame: maps the path's object, calls `write` once with it as an InteropTarget (width x
    // height bytes; the path's stream and CUDA device) and leaves what it wrote in the texture.
    // Returns after queuing the work; GL commands issued afterwards (drawing the texture) see it.
    // The writer's error comes back as it is, with the object unmapped (the next frame works); the
    // texture then holds whatever the writer left, possibly nothing.
    Status render(const FrameWriter& write);

    struct Impl;

private:
    explicit GlInterop(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// The fastest path that opens, trying `order` in turn (interop_paths() unless told otherwise);
// `refusals` receives one line per path that was refused and why, for the status bar. Stops at InvalidInput, which no other path would fix.
Status open_gl_interop_with_fallback(const GlFunctions& gl, GLuint texture, std::uint32_t width,
                                     std::uint32_t height, std::unique_ptr<GlInterop>* out,
                                     std::vector<std::string>* refusals = nullptr,
                                     const std::vector<InteropPath>& order = interop_paths());

}  // namespace cvz
