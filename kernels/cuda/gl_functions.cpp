#include "gl_functions.h"

#include <cstdio>
#include <cstring>

namespace cvz {

namespace {

template <class Fn>
void resolve_into(const GlProcResolver& resolve, const char* name, Fn* fn, std::string* missing) {
    *fn = reinterpret_cast<Fn>(resolve(name));
    if (!*fn) *missing += std::string(missing->empty() ? "" : ", ") + name;
}

}  // namespace

Status GlFunctions::load(const GlProcResolver& resolve) {
    if (!resolve) return Status::error(ErrorKind::Unavailable, "no GL function resolver was given");
    std::string missing;
    resolve_into(resolve, "glGetError", &GetError, &missing);
    resolve_into(resolve, "glGetIntegerv", &GetIntegerv, &missing);
    resolve_into(resolve, "glGetString", &GetString, &missing);
    resolve_into(resolve, "glFinish", &Finish, &missing);
    resolve_into(resolve, "glGenTextures", &GenTextures, &missing);
    resolve_into(resolve, "glDeleteTextures", &DeleteTextures, &missing);
    resolve_into(resolve, "glBindTexture", &BindTexture, &missing);
    resolve_into(resolve, "glTexParameteri", &TexParameteri, &missing);
    resolve_into(resolve, "glTexImage2D", &TexImage2D, &missing);
    resolve_into(resolve, "glTexSubImage2D", &TexSubImage2D, &missing);
    resolve_into(resolve, "glGetTexImage", &GetTexImage, &missing);
    resolve_into(resolve, "glGetTexLevelParameteriv", &GetTexLevelParameteriv, &missing);
    resolve_into(resolve, "glPixelStorei", &PixelStorei, &missing);
    resolve_into(resolve, "glGenBuffers", &GenBuffers, &missing);
    resolve_into(resolve, "glDeleteBuffers", &DeleteBuffers, &missing);
    resolve_into(resolve, "glBindBuffer", &BindBuffer, &missing);
    resolve_into(resolve, "glBufferData", &BufferData, &missing);
    if (!missing.empty()) {
        BufferData = nullptr;  // loaded() stays false
        return Status::error(ErrorKind::Unavailable, "the OpenGL context lacks " + missing);
    }
    std::string optional;  // not required: null where missing
    resolve_into(resolve, "glGetStringi", &GetStringi, &optional);
    resolve_into(resolve, "glFenceSync", &FenceSync, &optional);
    resolve_into(resolve, "glClientWaitSync", &ClientWaitSync, &optional);
    resolve_into(resolve, "glDeleteSync", &DeleteSync, &optional);
    resolve_into(resolve, "glTexBuffer", &TexBuffer, &optional);
    resolve_into(resolve, "glGetBufferSubData", &GetBufferSubData, &optional);
    resolve_into(resolve, "glCreateMemoryObjectsEXT", &CreateMemoryObjectsEXT, &optional);
    resolve_into(resolve, "glDeleteMemoryObjectsEXT", &DeleteMemoryObjectsEXT, &optional);
    resolve_into(resolve, "glImportMemoryFdEXT", &ImportMemoryFdEXT, &optional);
    resolve_into(resolve, "glBufferStorageMemEXT", &BufferStorageMemEXT, &optional);
    return Status::ok();
}

bool GlFunctions::has_extension(const char* extension) const {
    if (!loaded() || !extension) return false;
    if (GetStringi) {  // core profiles: one string per extension
        GLint count = 0;
        GetIntegerv(GL_NUM_EXTENSIONS, &count);
        for (GLint i = 0; i < count; ++i) {
            const auto* name = reinterpret_cast<const char*>(GetStringi(GL_EXTENSIONS, GLuint(i)));
            if (name && std::strcmp(name, extension) == 0) return true;
        }
        gl_clear_errors(*this);  // GL_NUM_EXTENSIONS is unknown before 3.0: fall through to the string
        if (count > 0) return false;
    }
    const auto* all = reinterpret_cast<const char*>(GetString(GL_EXTENSIONS));
    if (!all) {
        gl_clear_errors(*this);
        return false;
    }
    const std::size_t n = std::strlen(extension);
    for (const char* p = std::strstr(all, extension); p; p = std::strstr(p + 1, extension))
        if ((p == all || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;  // a whole word
    return false;
}

std::string gl_error_name(GLenum error) {
    switch (error) {
        case GL_NO_ERROR: return "GL_NO_ERROR";
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
        case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
        case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
        default: {
            char text[32];
            std::snprintf(text, sizeof text, "GL error 0x%04X", unsigned(error));
            return text;
        }
    }
}

Status gl_check(const GlFunctions& gl, const char* what) {
    std::string errors;
    // Bounded: a lost context can report GL_CONTEXT_LOST on every call.
    for (int i = 0; i < 16; ++i) {
        const GLenum e = gl.GetError();
        if (e == GL_NO_ERROR) break;
        errors += (errors.empty() ? "" : ", ") + gl_error_name(e);
    }
    if (errors.empty()) return Status::ok();
    return Status::error(ErrorKind::Device, std::string(what) + ": " + errors);
}

void gl_clear_errors(const GlFunctions& gl) {
    for (int i = 0; i < 16 && gl.GetError() != GL_NO_ERROR; ++i) {
    }
}

}  // namespace cvz
