// No Qt GL headers here: gl_interop.h brings the system's <GL/gl.h> and <GL/glext.h> (see the header).
#include "ui/views/interop_display.h"

#include <QtGlobal>

#include <type_traits>

#include "kernels/cuda/gl_interop.h"
#include "kernels/cuda/gl_texture.h"

namespace cvz {

static_assert(std::is_same_v<GLuint, unsigned>, "textureId() hands out a GLuint as unsigned");

QString interop_path_text(InteropPath path) {
    switch (path) {
        case InteropPath::ExternalMemory: return QStringLiteral("CUDA\u2013GL zero-copy: external memory");
        case InteropPath::SurfaceWrite: return QStringLiteral("CUDA\u2013GL interop: surface write");
        case InteropPath::PixelBuffer: return QStringLiteral("CUDA\u2013GL interop: pixel buffer");
        case InteropPath::HostCopy: return QStringLiteral("host copy + glTexSubImage2D");
    }
    return {};
}

QString host_upload_text(bool cuda_available) {
    return cuda_available ? QStringLiteral("host upload") : QStringLiteral("host upload (no CUDA)");
}

struct InteropDisplay::Impl {
    GlFunctions gl;
    GLuint texture = 0;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::unique_ptr<GlInterop> interop;
    QStringList refusals;
    bool rendered = false;
};

InteropDisplay::InteropDisplay() : impl_(std::make_unique<Impl>()) {}

InteropDisplay::~InteropDisplay() {
    if (impl_->interop || impl_->texture) {
        qWarning("cudaviz: an InteropDisplay was destroyed while open; its CUDA registration and GL texture "
                 "are leaked (close() must run with its GL context current)");
        (void)impl_->interop.release();
    }
}

Status InteropDisplay::open(const Resolver& resolve, std::uint32_t width, std::uint32_t height, bool zero_copy) {
    close();
    impl_->refusals.clear();
    if (width == 0 || height == 0) return Status::error(ErrorKind::InvalidInput, "the image is empty");
    if (Status s = impl_->gl.load(resolve); !s) {
        impl_->refusals << QString::fromStdString(s.message());
        return Status::error(ErrorKind::Unavailable, s.message());
    }
    Impl& d = *impl_;
    for (InteropPath path : interop_paths()) {
        if (path == InteropPath::ExternalMemory && !zero_copy) {
            d.refusals << QStringLiteral("%1: the view cannot draw from a buffer texture (no GLSL 1.40)")
                              .arg(QString::fromLatin1(to_string(path)));
            continue;
        }
        GLuint texture = 0;
        if (Status s = create_r8_texture(d.gl, width, height, &texture); !s) return s;  // GL refused the size
        {
            // Magnified: nearest, each image pixel a crisp square, as the host path draws it. Minified:
            // linear, since the texture has one level (mipmaps would change storage CUDA registered).
            GLint bound = 0;
            d.gl.GetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
            d.gl.BindTexture(GL_TEXTURE_2D, texture);
            d.gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
            d.gl.BindTexture(GL_TEXTURE_2D, GLuint(bound));
        }
        const Status s = GlInterop::open(d.gl, texture, width, height, path, &d.interop);
        if (s) {
            d.texture = texture;
            d.width = width;
            d.height = height;
            return Status::ok();
        }
        d.interop.reset();
        d.gl.DeleteTextures(1, &texture);  // the next path gets a texture CUDA never registered
        if (s.kind() == ErrorKind::InvalidInput) return s;  // the texture is wrong: no other path would do
        d.refusals << QStringLiteral("%1: %2").arg(QString::fromLatin1(to_string(path)),
                                                   QString::fromStdString(s.message()));
    }
    return Status::error(ErrorKind::Unavailable,
                         "no CUDA-GL display path: " + d.refusals.join(QStringLiteral("; ")).toStdString());
}

void InteropDisplay::close() {
    Impl& d = *impl_;
    d.interop.reset();  // unregisters from CUDA (and frees the pixel buffer) before the texture goes
    if (d.texture) d.gl.DeleteTextures(1, &d.texture);
    d.texture = 0;
    d.width = d.height = 0;
    d.rendered = false;
}

bool InteropDisplay::isOpen() const { return impl_->interop != nullptr; }

InteropPath InteropDisplay::path() const {
    return impl_->interop ? impl_->interop->path() : InteropPath::HostCopy;
}

QString InteropDisplay::pathText() const { return isOpen() ? interop_path_text(path()) : QString(); }

QSize InteropDisplay::size() const {
    return isOpen() ? QSize(int(impl_->width), int(impl_->height)) : QSize();
}

unsigned InteropDisplay::textureId() const { return isOpen() ? impl_->texture : 0; }

unsigned InteropDisplay::bufferTextureId() const { return isOpen() ? impl_->interop->buffer_texture() : 0; }

void InteropDisplay::frameDrawn() {
    if (impl_->interop) impl_->interop->frame_drawn();
}

QStringList InteropDisplay::refusals() const { return impl_->refusals; }

Status InteropDisplay::render(const FrameWriter& write) {
    Impl& d = *impl_;
    if (!d.interop) return Status::error(ErrorKind::Unavailable, "no CUDA-GL display path is open");
    if (!write) return Status::error(ErrorKind::InvalidInput, "no frame writer");
    d.rendered = false;
    const Status s = d.interop->render(write);
    if (s) d.rendered = true;
    return s;
}

bool InteropDisplay::rendered() const { return impl_->rendered; }

Status InteropDisplay::readBack(std::vector<std::uint8_t>* gray) const {
    const Impl& d = *impl_;
    if (!d.interop) return Status::error(ErrorKind::Unavailable, "no CUDA-GL display path is open");
    gray->assign(std::size_t(d.width) * d.height, 0);
    return d.interop->read_back(gray->data());
}

}  // namespace cvz
