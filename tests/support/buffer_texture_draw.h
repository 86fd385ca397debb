#pragma once
// Draws a GL_R8 buffer texture with the view's own shaders (resources/shaders/image.vert and
// image.frag, compiled with CVZ_BUFFER_SOURCE as ImageView compiles them for the zero-copy path) into
// an offscreen framebuffer, and reads the picture back: what the view would show, without Qt's window
// (the H200 has NVIDIA OpenGL only through headless EGL). GL entry points resolved by hand.
#include <GL/gl.h>
#include <GL/glext.h>

#include <QByteArray>
#include <QFile>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/cuda/gl_functions.h"
#include "tests/test_paths.h"

namespace cvz::test {

struct BufferTextureDrawer {
    PFNGLCREATESHADERPROC CreateShader = nullptr;
    PFNGLSHADERSOURCEPROC ShaderSource = nullptr;
    PFNGLCOMPILESHADERPROC CompileShader = nullptr;
    PFNGLGETSHADERIVPROC GetShaderiv = nullptr;
    PFNGLGETSHADERINFOLOGPROC GetShaderInfoLog = nullptr;
    PFNGLDELETESHADERPROC DeleteShader = nullptr;
    PFNGLCREATEPROGRAMPROC CreateProgram = nullptr;
    PFNGLATTACHSHADERPROC AttachShader = nullptr;
    PFNGLLINKPROGRAMPROC LinkProgram = nullptr;
    PFNGLGETPROGRAMIVPROC GetProgramiv = nullptr;
    PFNGLGETPROGRAMINFOLOGPROC GetProgramInfoLog = nullptr;
    PFNGLDELETEPROGRAMPROC DeleteProgram = nullptr;
    PFNGLUSEPROGRAMPROC UseProgram = nullptr;
    PFNGLGETUNIFORMLOCATIONPROC GetUniformLocation = nullptr;
    PFNGLGETATTRIBLOCATIONPROC GetAttribLocation = nullptr;
    PFNGLUNIFORM1IPROC Uniform1i = nullptr;
    PFNGLUNIFORM1FPROC Uniform1f = nullptr;
    PFNGLUNIFORM2FPROC Uniform2f = nullptr;
    PFNGLUNIFORMMATRIX4FVPROC UniformMatrix4fv = nullptr;
    PFNGLGENVERTEXARRAYSPROC GenVertexArrays = nullptr;
    PFNGLBINDVERTEXARRAYPROC BindVertexArray = nullptr;
    PFNGLDELETEVERTEXARRAYSPROC DeleteVertexArrays = nullptr;
    PFNGLVERTEXATTRIBPOINTERPROC VertexAttribPointer = nullptr;
    PFNGLENABLEVERTEXATTRIBARRAYPROC EnableVertexAttribArray = nullptr;
    PFNGLGENFRAMEBUFFERSPROC GenFramebuffers = nullptr;
    PFNGLBINDFRAMEBUFFERPROC BindFramebuffer = nullptr;
    PFNGLFRAMEBUFFERTEXTURE2DPROC FramebufferTexture2D = nullptr;
    PFNGLCHECKFRAMEBUFFERSTATUSPROC CheckFramebufferStatus = nullptr;
    PFNGLDELETEFRAMEBUFFERSPROC DeleteFramebuffers = nullptr;
    decltype(&::glViewport) Viewport = nullptr;
    decltype(&::glDrawArrays) DrawArrays = nullptr;
    decltype(&::glReadPixels) ReadPixels = nullptr;
    decltype(&::glActiveTexture) ActiveTexture = nullptr;

    bool load(const GlProcResolver& r) {
        bool ok = true;
        auto get = [&](auto* fn, const char* name) {
            *fn = reinterpret_cast<std::remove_pointer_t<decltype(fn)>>(r(name));
            ok = ok && *fn;
        };
        get(&CreateShader, "glCreateShader"), get(&ShaderSource, "glShaderSource");
        get(&CompileShader, "glCompileShader"), get(&GetShaderiv, "glGetShaderiv");
        get(&GetShaderInfoLog, "glGetShaderInfoLog"), get(&DeleteShader, "glDeleteShader");
        get(&CreateProgram, "glCreateProgram"), get(&AttachShader, "glAttachShader");
        get(&LinkProgram, "glLinkProgram"), get(&GetProgramiv, "glGetProgramiv");
        get(&GetProgramInfoLog, "glGetProgramInfoLog"), get(&DeleteProgram, "glDeleteProgram");
        get(&UseProgram, "glUseProgram"), get(&GetUniformLocation, "glGetUniformLocation");
        get(&GetAttribLocation, "glGetAttribLocation"), get(&Uniform1i, "glUniform1i");
        get(&Uniform1f, "glUniform1f"), get(&Uniform2f, "glUniform2f");
        get(&UniformMatrix4fv, "glUniformMatrix4fv"), get(&GenVertexArrays, "glGenVertexArrays");
        get(&BindVertexArray, "glBindVertexArray"), get(&DeleteVertexArrays, "glDeleteVertexArrays");
        get(&VertexAttribPointer, "glVertexAttribPointer"), get(&EnableVertexAttribArray, "glEnableVertexAttribArray");
        get(&GenFramebuffers, "glGenFramebuffers"), get(&BindFramebuffer, "glBindFramebuffer");
        get(&FramebufferTexture2D, "glFramebufferTexture2D"), get(&CheckFramebufferStatus, "glCheckFramebufferStatus");
        get(&DeleteFramebuffers, "glDeleteFramebuffers"), get(&Viewport, "glViewport");
        get(&DrawArrays, "glDrawArrays"), get(&ReadPixels, "glReadPixels");
        get(&ActiveTexture, "glActiveTexture");
        return ok;
    }

    // The view's shader sources, with ImageView::bufferHeader's plain-image header.
    static std::string source(const char* file) {
        QFile f(source_dir() + QStringLiteral("/resources/shaders/") + QString::fromLatin1(file));
        if (!f.open(QIODevice::ReadOnly)) return {};
        return "#version 140\n#define CVZ_INT_MATH 1\n#define CVZ_BUFFER_SOURCE 1\n" + f.readAll().toStdString();
    }

    GLuint compile(GLenum kind, const std::string& text, std::string* log) const {
        const GLuint s = CreateShader(kind);
        const char* p = text.c_str();
        ShaderSource(s, 1, &p, nullptr);
        CompileShader(s);
        GLint ok = 0;
        GetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char buf[4096] = {};
            GetShaderInfoLog(s, sizeof buf, nullptr, buf);
            *log += buf;
            DeleteShader(s);
            return 0;
        }
        return s;
    }

    // Draws the width x height image held by `buffer_texture` onto an out_w x out_h framebuffer that
    // it fills exactly, and returns the framebuffer's red channel, top row first (image row 0 first).
    bool draw(const GlFunctions& gl, GLuint buffer_texture, std::uint32_t width, std::uint32_t height,
              std::uint32_t out_w, std::uint32_t out_h, std::vector<std::uint8_t>* red, std::string* log) const {
        const std::string vs = source("image.vert"), fs = source("image.frag");
        if (vs.empty() || fs.empty()) {
            *log = "the shaders were not found under " + source_dir().toStdString() + "/resources/shaders";
            return false;
        }
        const GLuint v = compile(GL_VERTEX_SHADER, vs, log), f = compile(GL_FRAGMENT_SHADER, fs, log);
        if (!v || !f) return false;
        const GLuint program = CreateProgram();
        AttachShader(program, v);
        AttachShader(program, f);
        LinkProgram(program);
        DeleteShader(v);
        DeleteShader(f);
        GLint linked = 0;
        GetProgramiv(program, GL_LINK_STATUS, &linked);
        if (!linked) {
            char buf[4096] = {};
            GetProgramInfoLog(program, sizeof buf, nullptr, buf);
            *log += buf;
            DeleteProgram(program);
            return false;
        }
        GLuint target = 0, fbo = 0, vao = 0, quad = 0;
        gl.GenTextures(1, &target);
        gl.BindTexture(GL_TEXTURE_2D, target);
        gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(out_w), GLsizei(out_h), 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        gl.BindTexture(GL_TEXTURE_2D, 0);
        GenFramebuffers(1, &fbo);
        BindFramebuffer(GL_FRAMEBUFFER, fbo);
        FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
        bool ok = CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        if (ok) {
            static const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
            GenVertexArrays(1, &vao);
            BindVertexArray(vao);
            gl.GenBuffers(1, &quad);
            gl.BindBuffer(GL_ARRAY_BUFFER, quad);
            gl.BufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
            UseProgram(program);
            const GLint corner = GetAttribLocation(program, "a_corner");
            VertexAttribPointer(GLuint(corner), 2, GL_FLOAT, GL_FALSE, 0, nullptr);
            EnableVertexAttribArray(GLuint(corner));
            // Image pixels to clip space, image row 0 at the bottom of the framebuffer (read first).
            const GLfloat m[16] = {2.0f / float(width), 0, 0, 0, 0, 2.0f / float(height), 0, 0, 0, 0, 1, 0, -1, -1, 0, 1};
            UniformMatrix4fv(GetUniformLocation(program, "u_image_to_clip"), 1, GL_FALSE, m);
            Uniform2f(GetUniformLocation(program, "u_quad_size"), float(width), float(height));
            Uniform2f(GetUniformLocation(program, "u_image_size"), float(width), float(height));
            Uniform1f(GetUniformLocation(program, "u_gray"), 1.0f);
            Uniform1i(GetUniformLocation(program, "u_texture"), 0);
            ActiveTexture(GL_TEXTURE0);
            gl.BindTexture(GL_TEXTURE_BUFFER, buffer_texture);
            Viewport(0, 0, GLsizei(out_w), GLsizei(out_h));
            DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
            gl.BindTexture(GL_TEXTURE_BUFFER, 0);
            std::vector<std::uint8_t> rgba(std::size_t(out_w) * out_h * 4);
            gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
            ReadPixels(0, 0, GLsizei(out_w), GLsizei(out_h), GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
            gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
            red->resize(std::size_t(out_w) * out_h);
            for (std::size_t i = 0; i < red->size(); ++i) (*red)[i] = rgba[4 * i];
            UseProgram(0);
            BindVertexArray(0);
            gl.BindBuffer(GL_ARRAY_BUFFER, 0);
        } else {
            *log = "the framebuffer is incomplete";
        }
        BindFramebuffer(GL_FRAMEBUFFER, 0);
        if (quad) gl.DeleteBuffers(1, &quad);
        if (vao) DeleteVertexArrays(1, &vao);
        DeleteFramebuffers(1, &fbo);
        gl.DeleteTextures(1, &target);
        DeleteProgram(program);
        if (Status s = gl_check(gl, "drawing the buffer texture"); !s) {
            *log += s.message();
            return false;
        }
        return ok;
    }
};

}  // namespace cvz::test
