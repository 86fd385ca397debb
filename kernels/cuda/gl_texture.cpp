#include "gl_texture.h"

#include <string>

namespace cvz {

namespace {

// Saves the pixel-store parameters and bindings that the uploads and readbacks change, sets tight
// byte packing, and restores everything on destruction, so the caller's (Qt's) GL state survives.
class PixelStoreScope {
public:
    PixelStoreScope(const GlFunctions& gl, bool unpack) : gl_(gl), unpack_(unpack) {
        gl.GetIntegerv(GL_TEXTURE_BINDING_2D, &texture_);
        for (int i = 0; i < kParams; ++i) gl.GetIntegerv(param(i), &saved_[i]);
        gl.GetIntegerv(unpack ? GL_PIXEL_UNPACK_BUFFER_BINDING : GL_PIXEL_PACK_BUFFER_BINDING, &buffer_);
        gl.PixelStorei(param(0), 1);  // rows of odd widths are not padded to 4 bytes
        for (int i = 1; i < kParams; ++i) gl.PixelStorei(param(i), 0);
        gl.BindBuffer(unpack ? GL_PIXEL_UNPACK_BUFFER : GL_PIXEL_PACK_BUFFER, 0);
    }
    ~PixelStoreScope() {
        for (int i = 0; i < kParams; ++i) gl_.PixelStorei(param(i), saved_[i]);
        gl_.BindBuffer(unpack_ ? GL_PIXEL_UNPACK_BUFFER : GL_PIXEL_PACK_BUFFER, GLuint(buffer_));
        gl_.BindTexture(GL_TEXTURE_2D, GLuint(texture_));
    }
    PixelStoreScope(const PixelStoreScope&) = delete;
    PixelStoreScope& operator=(const PixelStoreScope&) = delete;

private:
    static constexpr int kParams = 4;
    GLenum param(int i) const {
        static const GLenum unpack[kParams] = {GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                               GL_UNPACK_SKIP_PIXELS};
        static const GLenum pack[kParams] = {GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS,
                                             GL_PACK_SKIP_PIXELS};
        return unpack_ ? unpack[i] : pack[i];
    }
    const GlFunctions& gl_;
    bool unpack_;
    GLint texture_ = 0;
    GLint buffer_ = 0;
    GLint saved_[kParams] = {};
};

// Restores GL_TEXTURE_BINDING_2D on destruction.
class TextureBindingScope {
public:
    explicit TextureBindingScope(const GlFunctions& gl) : gl_(gl) { gl.GetIntegerv(GL_TEXTURE_BINDING_2D, &saved_); }
    ~TextureBindingScope() { gl_.BindTexture(GL_TEXTURE_2D, GLuint(saved_)); }
    TextureBindingScope(const TextureBindingScope&) = delete;
    TextureBindingScope& operator=(const TextureBindingScope&) = delete;

private:
    const GlFunctions& gl_;
    GLint saved_ = 0;
};

Status not_loaded() { return Status::error(ErrorKind::Unavailable, "the GL functions were not loaded"); }

}  // namespace

Status create_r8_texture(const GlFunctions& gl, std::uint32_t width, std::uint32_t height, GLuint* texture) {
    if (!gl.loaded()) return not_loaded();
    gl_clear_errors(gl);
    const TextureBindingScope keep(gl);
    GLuint t = 0;
    gl.GenTextures(1, &t);
    gl.BindTexture(GL_TEXTURE_2D, t);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // no mipmaps: complete with level 0
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);  // texels stay visible when zoomed
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_R8, GLsizei(width), GLsizei(height), 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
    const std::string what = "glTexImage2D (GL_R8, " + std::to_string(width) + "x" + std::to_string(height) + ")";
    if (Status s = gl_check(gl, what.c_str()); !s) {
        gl.DeleteTextures(1, &t);
        return s;
    }
    *texture = t;
    return Status::ok();
}

Status query_texture(const GlFunctions& gl, GLuint texture, GlTextureInfo* info) {
    if (!gl.loaded()) return not_loaded();
    gl_clear_errors(gl);
    const TextureBindingScope keep(gl);
    gl.BindTexture(GL_TEXTURE_2D, texture);
    GlTextureInfo i;
    gl.GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &i.width);
    gl.GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &i.height);
    gl.GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &i.internal_format);
    const std::string what = "GL texture " + std::to_string(texture) + " is not a 2-D texture of this context";
    if (Status s = gl_check(gl, what.c_str()); !s) return Status::error(ErrorKind::InvalidInput, s.message());
    *info = i;
    return Status::ok();
}

namespace {

Status upload(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height, GLuint buffer,
              const void* data_or_offset, const char* what) {
    if (!gl.loaded()) return not_loaded();
    gl_clear_errors(gl);
    const PixelStoreScope keep(gl, /*unpack=*/true);
    gl.BindTexture(GL_TEXTURE_2D, texture);
    if (buffer) gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
    gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GLsizei(width), GLsizei(height), GL_RED, GL_UNSIGNED_BYTE, data_or_offset);
    return gl_check(gl, what);
}

}  // namespace

Status upload_gray_from_host(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                             const std::uint8_t* gray) {
    return upload(gl, texture, width, height, 0, gray, "glTexSubImage2D from host memory");
}

Status upload_gray_from_pixel_buffer(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                                     GLuint buffer) {
    return upload(gl, texture, width, height, buffer, nullptr, "glTexSubImage2D from a pixel buffer");
}

Status read_gray_texture(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                         std::uint8_t* gray) {
    if (!gl.loaded()) return not_loaded();
    GlTextureInfo info;
    if (Status s = query_texture(gl, texture, &info); !s) return s;
    if (info.width != int(width) || info.height != int(height))
        return Status::error(ErrorKind::InvalidInput, "the texture is " + std::to_string(info.width) + "x" +
                                                          std::to_string(info.height) + ", not " +
                                                          std::to_string(width) + "x" + std::to_string(height));
    const PixelStoreScope keep(gl, /*unpack=*/false);
    gl.BindTexture(GL_TEXTURE_2D, texture);
    gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_UNSIGNED_BYTE, gray);
    return gl_check(gl, "glGetTexImage");
}

}  // namespace cvz
