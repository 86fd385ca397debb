#pragma once
// The GL side of the result view's real display path (ARCHITECTURE.md, invariant 4): one GL_R8
// texture of the image's size, the GL entry points resolved from the view's context, and the
// GlInterop (kernels/cuda/gl_interop.h) through which a frame writer writes that texture. It knows
// no kernel: the writer (a session's, through app/frame_sink.h) does. The view (ImageView) decides
// when to open, render and close, and draws textureId() with its usual shader (red-only, drawn grey).
//
// Deliberately free of GL and CUDA headers, so that it can sit next to Qt's GL headers in any order
// (<GL/glext.h> and Qt's qopenglext.h clash when the system one comes first); the .cpp includes
// gl_interop.h, which is CUDA-free too. Without the CUDA toolkit the same code links against
// kernels/cuda/cuda_absent.cpp, where every path is refused, so open() answers Unavailable.
#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "kernels/core/status.h"
#include "kernels/cuda/interop_target.h"

namespace cvz {

enum class InteropPath;  // kernels/cuda/gl_interop.h: ExternalMemory, SurfaceWrite, PixelBuffer, HostCopy

// What the status bar says for each way the result view's pixels reach the screen.
QString interop_path_text(InteropPath path);  // "CUDA–GL zero-copy: external memory", ..., "host copy + glTexSubImage2D"
QString host_upload_text(bool cuda_available);  // "host upload" | "host upload (no CUDA)"

// Every call below is made on the GUI thread with the GL context that open() resolved its entry
// points from current (the view's makeCurrent, or an EGL context in tests). close() must run with
// that context current too (Qt's hellogl2 rule: in the view's cleanup, on aboutToBeDestroyed):
// it destroys the GlInterop (CUDA unregisters the texture or buffer) before it deletes the texture.
class InteropDisplay {
public:
    // Returns the address of the GL function `name` in the current context, or null: Qt's
    // QOpenGLContext::getProcAddress, or HeadlessEglContext::resolver().
    using Resolver = std::function<void*(const char* name)>;

    InteropDisplay();
    // Must be closed by then. One still open cannot be freed without its context: it is leaked, with
    // a warning, rather than unregistered from the wrong (or no) context.
    ~InteropDisplay();
    InteropDisplay(const InteropDisplay&) = delete;
    InteropDisplay& operator=(const InteropDisplay&) = delete;

    // Loads the GL entry points, makes a width x height GL_R8 texture (one level, nearest when
    // magnified, linear when minified) and opens the fastest path that works: SurfaceWrite,
    // PixelBuffer, then HostCopy, each on a fresh texture (one that CUDA once registered takes host
    // uploads ~3x slower, gl_interop.h). Closes whatever was open first.
    //  - Unavailable: no path opened (no CUDA device, the toolkit absent at build time, GL that
    //    CUDA cannot share and no CUDA for the host copy either, a context without the entry
    //    points); refusals() says why for each path. Nothing stays allocated: draw host uploads.
    //  - InvalidInput / Device: the size or GL itself refused the texture (empty image, over
    //    GL_MAX_TEXTURE_SIZE, out of memory). Also nothing allocated.
    // `zero_copy`: whether the caller can draw bufferTextureId() (a GLSL 1.40 shader); without it
    // the zero-copy path is not tried.
    Status open(const Resolver& resolve, std::uint32_t width, std::uint32_t height, bool zero_copy = true);
    void close();

    bool isOpen() const;
    InteropPath path() const;  // valid while open
    QString pathText() const;  // interop_path_text(path()); empty when closed
    QSize size() const;        // of the open texture; empty when closed
    // The GL_R8 texture to draw; 0 when closed. Holds the kernel's output once rendered() is true.
    unsigned textureId() const;
    // Nonzero on the zero-copy path: the GL_TEXTURE_BUFFER (GL_R8, rows in order) to draw instead of
    // textureId(), with the shader's CVZ_BUFFER_SOURCE variant.
    unsigned bufferTextureId() const;
    // Call after each draw of bufferTextureId(): the next render() waits for that draw on the GPU.
    void frameDrawn();
    // Why each path tried by the last open() was refused: "surface write (CUDA-GL interop): ...".
    QStringList refusals() const;

    // One frame: `write` is called once with the texture's target (interop_target.h) and what it
    // writes is what the texture holds. Once per change, not per paint. The writer's InvalidInput
    // (it refused its launch before writing) comes back as it is and the path stays usable; any other
    // error means the path is broken. Clears rendered() until it succeeds.
    Status render(const FrameWriter& write);
    // True after a render() that succeeded since the last open().
    bool rendered() const;

    // The texture as the GPU holds it (glGetTexImage), width x height bytes: for tests.
    Status readBack(std::vector<std::uint8_t>* gray) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cvz
