#pragma once
// The OpenGL entry points cudaviz's GL code calls, resolved at run time from whatever context is
// current (Qt's QOpenGLContext::getProcAddress in the app, eglGetProcAddress in tests). Nothing is
// linked against a GL library, so kernels/ stays Qt-free and the CLI needs no GL at all.
#include <GL/gl.h>
#include <GL/glext.h>

#include <functional>
#include <string>

#include "../core/status.h"

namespace cvz {

// Returns the address of the GL function `name` in the current context, or null.
using GlProcResolver = std::function<void*(const char* name)>;

struct GlFunctions {
    // OpenGL 1.1
    decltype(&::glGetError) GetError = nullptr;
    decltype(&::glGetIntegerv) GetIntegerv = nullptr;
    decltype(&::glGetString) GetString = nullptr;
    decltype(&::glFinish) Finish = nullptr;
    decltype(&::glGenTextures) GenTextures = nullptr;
    decltype(&::glDeleteTextures) DeleteTextures = nullptr;
    decltype(&::glBindTexture) BindTexture = nullptr;
    decltype(&::glTexParameteri) TexParameteri = nullptr;
    decltype(&::glTexImage2D) TexImage2D = nullptr;
    decltype(&::glTexSubImage2D) TexSubImage2D = nullptr;
    decltype(&::glGetTexImage) GetTexImage = nullptr;
    decltype(&::glGetTexLevelParameteriv) GetTexLevelParameteriv = nullptr;
    decltype(&::glPixelStorei) PixelStorei = nullptr;
    // OpenGL 1.5 / 2.1: buffer objects and pixel buffers
    PFNGLGENBUFFERSPROC GenBuffers = nullptr;
    PFNGLDELETEBUFFERSPROC DeleteBuffers = nullptr;
    PFNGLBINDBUFFERPROC BindBuffer = nullptr;
    PFNGLBUFFERDATAPROC BufferData = nullptr;

    // Optional, null where the context lacks them (load() does not fail for these):
    // OpenGL 3.0 / 3.2: indexed extension strings, fence syncs
    PFNGLGETSTRINGIPROC GetStringi = nullptr;
    PFNGLFENCESYNCPROC FenceSync = nullptr;
    PFNGLCLIENTWAITSYNCPROC ClientWaitSync = nullptr;
    PFNGLDELETESYNCPROC DeleteSync = nullptr;
    // OpenGL 3.1 buffer textures; 1.5 buffer read-back
    PFNGLTEXBUFFERPROC TexBuffer = nullptr;
    PFNGLGETBUFFERSUBDATAPROC GetBufferSubData = nullptr;
    // GL_EXT_memory_object, GL_EXT_memory_object_fd: memory that another API (CUDA) allocated
    PFNGLCREATEMEMORYOBJECTSEXTPROC CreateMemoryObjectsEXT = nullptr;
    PFNGLDELETEMEMORYOBJECTSEXTPROC DeleteMemoryObjectsEXT = nullptr;
    PFNGLIMPORTMEMORYFDEXTPROC ImportMemoryFdEXT = nullptr;
    PFNGLBUFFERSTORAGEMEMEXTPROC BufferStorageMemEXT = nullptr;

    // Resolves every entry point; on failure names the required ones the context lacks.
    Status load(const GlProcResolver& resolve);
    bool loaded() const { return BufferData != nullptr; }
    // Whether the current context lists `extension` (a resolvable entry point proves nothing: EGL
    // may hand out addresses for functions the context does not support).
    bool has_extension(const char* extension) const;
};

// "GL_INVALID_OPERATION" for 0x0502, "GL error 0x...." for codes it does not know.
std::string gl_error_name(GLenum error);

// Ok when the GL error queue is empty; else an ErrorKind::Device Status naming `what` and every
// queued error (the queue is drained).
Status gl_check(const GlFunctions& gl, const char* what);

// Empties the GL error queue, so that errors left by earlier code are not blamed on the next call.
void gl_clear_errors(const GlFunctions& gl);

}  // namespace cvz
