// The three display paths of gl_interop.h. Everything here runs on the thread that holds the GL
// context; the kernel launches are asynchronous, and unmapping orders GL's later use after them.
#include <cuda_runtime.h>

#include <unistd.h>

#include <limits>

#include "cuda_check.h"
#include "cuda_stream.h"
#include "device_buffer.h"
#include "exportable_memory.h"
#include "gl_interop.h"
#include "gl_texture.h"
#include "graphics_resource.h"
#include "pinned_buffer.h"
#include "surface_object.h"

namespace cvz {

struct GlInterop::Impl {
    GlFunctions gl;
    GLuint texture = 0;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    InteropPath path = InteropPath::HostCopy;
    int device = 0;
    CudaStream stream;

    GraphicsResource resource;  // SurfaceWrite: the texture; PixelBuffer: the buffer
    SurfaceObject surface;      // SurfaceWrite: over the array of the last mapping
    GLuint pixel_buffer = 0;    // PixelBuffer, ExternalMemory (over the imported memory)
    ExportableMemory shared;    // ExternalMemory: CUDA's side
    GLuint memory_object = 0;   // ExternalMemory: GL's import of it
    GLuint buffer_texture = 0;  // ExternalMemory: GL_TEXTURE_BUFFER over pixel_buffer
    GLsync drawn = nullptr;     // ExternalMemory: signalled when the draws that read the last frame are done
    DeviceBuffer<std::uint8_t> gray;     // HostCopy: the kernel's output
    PinnedBuffer<std::uint8_t> staging;  // HostCopy: where it lands on the host

    std::uint64_t pixels() const { return std::uint64_t(width) * height; }

    ~Impl() {
        (void)stream.synchronize();  // no queued kernel may outlive the surface or the mapping
        surface.reset();
        resource.reset();  // unregister before the GL object goes
        if (path == InteropPath::ExternalMemory) {
            wait_for_draws();
            gl.Finish();  // draws not announced by frame_drawn() too
        }
        if (buffer_texture) gl.DeleteTextures(1, &buffer_texture);
        if (pixel_buffer) gl.DeleteBuffers(1, &pixel_buffer);
        if (memory_object) gl.DeleteMemoryObjectsEXT(1, &memory_object);
        shared.reset();  // after GL let go of it
    }

    // ExternalMemory: blocks until the draws announced by frame_drawn() have run on the GPU. A fence
    // made then, polled now: by the next frame it has nearly always signalled, and polling costs
    // nothing, where making and flushing a fence at the frame's start cost 0.33 ms on the H200.
    void wait_for_draws() {
        if (!drawn) return;
        if (gl.ClientWaitSync(drawn, 0, 0) == GL_TIMEOUT_EXPIRED) {
            // Each wait is bounded; a lost context ends it.
            for (int i = 0; i < 100; ++i)
                if (gl.ClientWaitSync(drawn, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(100000000)) != GL_TIMEOUT_EXPIRED) break;
        }
        gl.DeleteSync(drawn);
        drawn = nullptr;
    }

    // The target of a frame over `pointer` (memory of pitch width) or `surface`.
    InteropTarget target(void* pointer, cudaSurfaceObject_t surface_object) const {
        InteropTarget t;
        t.surface = surface_object;
        t.pointer = pointer;
        t.pitch = pointer ? width : 0;
        t.width = width;
        t.height = height;
        t.stream = stream.get();
        t.device = device;
        return t;
    }

    Status open_external_memory();
    Status render_external_memory(const FrameWriter& write);
    Status open_surface_write();
    Status open_pixel_buffer();
    Status open_host_copy();
    Status render_surface_write(const FrameWriter& write);
    Status render_pixel_buffer(const FrameWriter& write);
    Status render_host_copy(const FrameWriter& write);
};

namespace {

// The CUDA device that drives the current GL context, when CUDA can tell (NVIDIA GL); else the
// current device, and registration will say whether GL and CUDA can share.
int device_for_current_gl_context() {
    unsigned count = 0;
    int devices[1] = {0};
    if (cudaGLGetDevices(&count, devices, 1, cudaGLDeviceListAll) == cudaSuccess && count > 0) return devices[0];
    cudaGetLastError();  // not an error worth keeping: registration is the real test
    int current = 0;
    cudaGetDevice(&current);
    return current;
}

}  // namespace

Status GlInterop::Impl::open_external_memory() {
    if (!gl.has_extension("GL_EXT_memory_object") || !gl.has_extension("GL_EXT_memory_object_fd"))
        return Status::error(ErrorKind::Unavailable, "this OpenGL context has no GL_EXT_memory_object_fd");
    if (!gl.CreateMemoryObjectsEXT || !gl.DeleteMemoryObjectsEXT || !gl.ImportMemoryFdEXT || !gl.BufferStorageMemEXT ||
        !gl.FenceSync || !gl.ClientWaitSync || !gl.DeleteSync || !gl.TexBuffer || !gl.GetBufferSubData)
        return Status::error(ErrorKind::Unavailable,
                             "this OpenGL context lacks the memory-object, buffer-texture or fence entry points");
    gl_clear_errors(gl);
    GLint max_texels = 0;
    gl.GetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    if (gl_check(gl, "GL_MAX_TEXTURE_BUFFER_SIZE").is_ok() == false || std::uint64_t(max_texels) < pixels())
        return Status::error(ErrorKind::Unavailable, "a buffer texture here holds at most " + std::to_string(max_texels) +
                                                         " texels, the image has " + std::to_string(pixels()));
    if (Status s = shared.allocate(device, pixels()); !s) return s;
    int fd = -1;
    if (Status s = shared.export_fd(&fd); !s) return s;
    gl_clear_errors(gl);
    gl.CreateMemoryObjectsEXT(1, &memory_object);
    gl.ImportMemoryFdEXT(memory_object, GLuint64(shared.size()), GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);  // GL owns fd now
    if (Status s = gl_check(gl, "glImportMemoryFdEXT"); !s) {
        ::close(fd);  // a failed import leaves the descriptor with us
        return Status::error(ErrorKind::Unavailable, s.message());
    }
    GLint bound = 0;
    gl.GetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &bound);
    gl.GenBuffers(1, &pixel_buffer);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer);
    gl.BufferStorageMemEXT(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(shared.size()), memory_object, 0);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, GLuint(bound));
    if (Status s = gl_check(gl, "glBufferStorageMemEXT"); !s) return Status::error(ErrorKind::Unavailable, s.message());
    GLint bound_texture = 0;
    gl.GetIntegerv(GL_TEXTURE_BINDING_BUFFER, &bound_texture);
    gl.GenTextures(1, &buffer_texture);
    gl.BindTexture(GL_TEXTURE_BUFFER, buffer_texture);
    gl.TexBuffer(GL_TEXTURE_BUFFER, GL_R8, pixel_buffer);  // one byte a texel, the frame's rows in order
    gl.BindTexture(GL_TEXTURE_BUFFER, GLuint(bound_texture));
    if (Status s = gl_check(gl, "glTexBuffer"); !s) return Status::error(ErrorKind::Unavailable, s.message());
    return Status::ok();
}

Status GlInterop::Impl::render_external_memory(const FrameWriter& write) {
    wait_for_draws();  // the draws of the last frame read the bytes this frame overwrites
    if (Status s = write(target(shared.pointer(), 0)); !s) return s;
    // GL does not see CUDA's stream: the CPU waits for the writer (what replaces unmap); GL commands
    // issued afterwards (the view's draw) read the finished bytes.
    return stream.synchronize();
}

Status GlInterop::Impl::open_surface_write() {
    GlTextureInfo info;
    if (Status s = query_texture(gl, texture, &info); !s) return s;
    // The kernel stores one byte per texel: any other texel format would be garbled, not converted.
    if (info.internal_format != GL_R8)
        return Status::error(ErrorKind::Unavailable, "the surface path writes bytes and needs a GL_R8 texture (this one's "
                                                     "internal format is " + std::to_string(info.internal_format) + ")");
    if (pixels() > std::numeric_limits<std::uint32_t>::max())
        return Status::error(ErrorKind::Unavailable, "the surface path addresses fewer than 2^32 texels");
    if (Status s = resource.register_image(texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore); !s)
        return s;
    // Every texel is overwritten each frame: the driver need not keep the old contents.
    return cuda_status(cudaGraphicsResourceSetMapFlags(resource.get(), cudaGraphicsMapFlagsWriteDiscard),
                       "cudaGraphicsResourceSetMapFlags");
}

Status GlInterop::Impl::open_pixel_buffer() {
    gl_clear_errors(gl);
    GLint bound = 0;
    gl.GetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &bound);
    gl.GenBuffers(1, &pixel_buffer);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, pixel_buffer);
    gl.BufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(pixels()), nullptr, GL_STREAM_DRAW);
    gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, GLuint(bound));
    if (Status s = gl_check(gl, "creating the pixel buffer"); !s) return s;
    return resource.register_buffer(pixel_buffer, cudaGraphicsRegisterFlagsWriteDiscard);
}

Status GlInterop::Impl::open_host_copy() {
    if (Status s = gray.allocate(pixels()); !s) return s;
    // Each frame copies the whole buffer to the texture: texels a writer leaves alone must be defined
    // (black), not whatever the allocation held (compute-sanitizer initcheck).
    CVZ_CUDA_TRY(cudaMemset(gray.get(), 0, pixels()));
    return staging.allocate(pixels());
}

Status GlInterop::Impl::render_surface_write(const FrameWriter& write) {
    MappedResource mapped;
    if (Status s = mapped.map(resource.get(), stream.get()); !s) return s;
    cudaArray_t array = nullptr;
    if (Status s = mapped.array(&array); !s) return s;
    if (array != surface.array()) {  // the driver may move the texture between mappings
        if (Status s = stream.synchronize(); !s) return s;  // no queued kernel may still use the old surface
        if (Status s = surface.create(array); !s) return s;
    }
    if (Status s = write(target(nullptr, surface.get())); !s) return s;  // unmapped on the way out
    return mapped.unmap();
}

Status GlInterop::Impl::render_pixel_buffer(const FrameWriter& write) {
    {
        MappedResource mapped;
        if (Status s = mapped.map(resource.get(), stream.get()); !s) return s;
        void* p = nullptr;
        std::size_t bytes = 0;
        if (Status s = mapped.pointer(&p, &bytes); !s) return s;
        if (bytes < pixels())
            return Status::error(ErrorKind::Device, "the mapped pixel buffer holds " + std::to_string(bytes) +
                                                        " bytes, fewer than the image's " + std::to_string(pixels()));
        if (Status s = write(target(p, 0)); !s) return s;
        if (Status s = mapped.unmap(); !s) return s;
    }
    return upload_gray_from_pixel_buffer(gl, texture, width, height, pixel_buffer);
}

Status GlInterop::Impl::render_host_copy(const FrameWriter& write) {
    if (Status s = write(target(gray.get(), 0)); !s) return s;
    CVZ_CUDA_TRY(cudaMemcpyAsync(staging.get(), gray.get(), pixels(), cudaMemcpyDeviceToHost, stream.get()));
    if (Status s = stream.synchronize(); !s) return s;
    return upload_gray_from_host(gl, texture, width, height, staging.get());
}

GlInterop::GlInterop(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GlInterop::~GlInterop() = default;

Status GlInterop::open(const GlFunctions& gl, GLuint texture, std::uint32_t width, std::uint32_t height,
                       InteropPath path, std::unique_ptr<GlInterop>* out) {
    if (!gl.loaded()) return Status::error(ErrorKind::InvalidInput, "the GL functions were not loaded");
    if (width == 0 || height == 0) return Status::error(ErrorKind::InvalidInput, "the image is empty");
    GlTextureInfo info;
    if (Status s = query_texture(gl, texture, &info); !s) return s;
    if (info.width != int(width) || info.height != int(height))
        return Status::error(ErrorKind::InvalidInput,
                             "GL texture " + std::to_string(texture) + " is " + std::to_string(info.width) + "x" +
                                 std::to_string(info.height) + ", the image " + std::to_string(width) + "x" +
                                 std::to_string(height));
    int count = 0;
    CVZ_CUDA_TRY(cudaGetDeviceCount(&count));

    auto impl = std::make_unique<Impl>();
    impl->gl = gl;
    impl->texture = texture;
    impl->width = width;
    impl->height = height;
    impl->path = path;
    impl->device = device_for_current_gl_context();
    CVZ_CUDA_TRY(cudaSetDevice(impl->device));
    if (Status s = impl->stream.create(); !s) return s;
    Status s = path == InteropPath::ExternalMemory ? impl->open_external_memory()
               : path == InteropPath::SurfaceWrite ? impl->open_surface_write()
               : path == InteropPath::PixelBuffer ? impl->open_pixel_buffer()
                                                  : impl->open_host_copy();
    if (!s) return s;
    out->reset(new GlInterop(std::move(impl)));
    return Status::ok();
}

InteropPath GlInterop::path() const { return impl_->path; }
GLuint GlInterop::buffer_texture() const { return impl_->buffer_texture; }

void GlInterop::frame_drawn() {
    Impl& d = *impl_;
    if (d.path != InteropPath::ExternalMemory) return;
    if (d.drawn) d.gl.DeleteSync(d.drawn);
    d.drawn = d.gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!d.drawn) d.gl.Finish();  // no fence: wait now instead
}

Status GlInterop::read_back(std::uint8_t* gray) const {
    const Impl& d = *impl_;
    d.gl.Finish();
    if (d.path != InteropPath::ExternalMemory) return read_gray_texture(d.gl, d.texture, d.width, d.height, gray);
    // The shared memory itself, through CUDA: GL draws read it in place, but on the H200 a second
    // glGetBufferSubData answered with the bytes of the first (GL keeps a copy of a buffer it
    // believes nobody else writes).
    CVZ_CUDA_TRY(cudaSetDevice(d.device));
    return cuda_status(cudaMemcpy(gray, d.shared.pointer(), d.pixels(), cudaMemcpyDeviceToHost), "cudaMemcpy");
}
int GlInterop::cuda_device() const { return impl_->device; }

Status GlInterop::render(const FrameWriter& write) {
    if (!write) return Status::error(ErrorKind::InvalidInput, "no frame writer");
    CVZ_CUDA_TRY(cudaSetDevice(impl_->device));
    switch (impl_->path) {
        case InteropPath::ExternalMemory: return impl_->render_external_memory(write);
        case InteropPath::SurfaceWrite: return impl_->render_surface_write(write);
        case InteropPath::PixelBuffer: return impl_->render_pixel_buffer(write);
        case InteropPath::HostCopy: return impl_->render_host_copy(write);
    }
    return Status::error(ErrorKind::InvalidInput, "unknown display path");
}

}  // namespace cvz
