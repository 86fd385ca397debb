#pragma once
// The GL texture side of displaying a grayscale image: making a one-byte-per-texel texture, asking
// what a texture is, and filling it from host memory or from a pixel buffer. GL-only (no CUDA): the
// host-copy fallback and the pixel-buffer path share these. Call with the GL context current; each
// call leaves the context's bindings and pixel-store state as it found them.
#include <cstdint>

#include "../core/status.h"
#include "gl_functions.h"

namespace cvz {

struct GlTextureInfo {
    int width = 0;
    int height = 0;
    GLint internal_format = 0;  // GL_R8 (0x8229), ...
};

// A width x height GL_R8 texture with nearest filtering and no mipmaps, contents undefined.
Status create_r8_texture(const GlFunctions& gl, std::uint32_t width, std::uint32_t height, GLuint* texture);

// Level 0's size and internal format of the 2-D texture `texture`.
Status query_texture(const GlFunctions& gl, GLuint texture, GlTextureInfo* info);

// glTexSubImage2D of width x height bytes (GL_RED, tightly packed rows) from host memory.
Status upload_gray_from_host(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                             const std::uint8_t* gray);

// The same from the first width x height bytes of the pixel buffer `buffer`: a copy on the GPU.
Status upload_gray_from_pixel_buffer(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                                     GLuint buffer);

// glGetTexImage of level 0 as GL_RED bytes into `gray` (width x height, tightly packed): the
// texture as the GPU holds it, for tests and benchmarks.
Status read_gray_texture(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                         std::uint8_t* gray);

}  // namespace cvz
