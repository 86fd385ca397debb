// Choosing a display path: shared by the CUDA build and the build without the toolkit, where every
// path answers Unavailable (cuda_absent.cpp).
#include "gl_interop.h"

namespace cvz {

const std::vector<InteropPath>& interop_paths() {
    // External memory first: no map/unmap and no copy per frame (the view draws the shared buffer).
    static const std::vector<InteropPath> all = {InteropPath::ExternalMemory, InteropPath::SurfaceWrite,
                                                 InteropPath::PixelBuffer, InteropPath::HostCopy};
    return all;
}

const char* to_string(InteropPath path) {
    switch (path) {
        case InteropPath::ExternalMemory: return "external memory (zero-copy, GL_EXT_memory_object_fd)";
        case InteropPath::SurfaceWrite: return "surface write (CUDA-GL interop)";
        case InteropPath::PixelBuffer: return "pixel buffer (CUDA-GL interop)";
        case InteropPath::HostCopy: return "host copy";
    }
    return "?";
}

Status open_gl_interop_with_fallback(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                                     std::unique_ptr<GlInterop>* out, std::vector<std::string>* refusals,
                                     const std::vector<InteropPath>& order) {
    Status last = Status::error(ErrorKind::InvalidInput, "no display path was asked for");
    for (InteropPath path : order) {
        last = GlInterop::open(gl, texture, width, height, path, out);
        if (last || last.kind() == ErrorKind::InvalidInput) return last;
        if (refusals) refusals->push_back(std::string(to_string(path)) + ": " + last.message());
    }
    return last;
}

}  // namespace cvz
