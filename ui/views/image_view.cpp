#include "ui/views/image_view.h"

#include <QFile>
#include <QMatrix4x4>
#include <QVector4D>
#include <QOpenGLBuffer>
#include <QOpenGLContext>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>

#include <algorithm>
#include <climits>
#include <utility>

#include "app/jobs/backend_choice.h"
#include "ui/views/interop_display.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"

// Not every GL header defines the sized formats; the values are fixed by the GL specification.
#ifndef GL_R8
#define GL_R8 0x8229
#endif
#ifndef GL_RED
#define GL_RED 0x1903
#endif
#ifndef GL_RGB8
#define GL_RGB8 0x8051
#endif
#ifndef GL_TEXTURE_BUFFER
#define GL_TEXTURE_BUFFER 0x8C2A
#endif

namespace cvz {

namespace {

// The view background, the same in the raster view.
constexpr float kBackground[3] = {0x30 / 255.0f, 0x30 / 255.0f, 0x30 / 255.0f};

QByteArray read_resource(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}


}  // namespace

// Uniform locations of the program, by name as in image.vert / image.frag.
struct ImageView::Locations {
    int corner = -1, image_to_clip = -1, quad_size = -1, image_size = -1, gray = -1, texture = -1;
    int overlay = -1, anim = -1, show_idle = -1, opacity = -1, coloring = -1, px = -1;
    int line_fade = -1, warp_fade = -1, w = -1, h = -1, bx = -1, by = -1, gx = -1, gy = -1;
    int ext_h = -1, threads = -1, items = -1, warps_per_block = -1, done_end = -1, run_end = -1, warp_block = -1;
    int warp_done_end = -1, warp_run_end = -1, sel_block = -1, sel_x = -1, sel_y = -1;
    int source = -1, source_gray = -1, has_source = -1;
    int hover_block = -1, merge_x = -1, merge_y = -1, focus = -1;

    explicit Locations(QOpenGLShaderProgram& p) {
        corner = p.attributeLocation("a_corner");
        const std::pair<int*, const char*> names[] = {
            {&image_to_clip, "u_image_to_clip"}, {&quad_size, "u_quad_size"}, {&image_size, "u_image_size"},
            {&gray, "u_gray"}, {&texture, "u_texture"}, {&overlay, "u_overlay"},
            {&anim, "u_anim"}, {&show_idle, "u_show_idle"}, {&opacity, "u_opacity"}, {&coloring, "u_coloring"},
            {&px, "u_px"}, {&line_fade, "u_line_fade"}, {&warp_fade, "u_warp_fade"},
            {&w, "u_w"}, {&h, "u_h"}, {&bx, "u_bx"}, {&by, "u_by"}, {&gx, "u_gx"}, {&gy, "u_gy"},
            {&ext_h, "u_ext_h"}, {&threads, "u_threads"}, {&items, "u_items"}, {&warps_per_block, "u_warps_per_block"},
            {&done_end, "u_done_end"}, {&run_end, "u_run_end"}, {&warp_block, "u_warp_block"},
            {&warp_done_end, "u_warp_done_end"}, {&warp_run_end, "u_warp_run_end"}, {&sel_block, "u_sel_block"},
            {&sel_x, "u_sel_x"}, {&sel_y, "u_sel_y"}, {&source, "u_source"}, {&source_gray, "u_source_gray"},
            {&has_source, "u_has_source"}, {&hover_block, "u_hover_block"},
            {&merge_x, "u_merge_x"}, {&merge_y, "u_merge_y"}, {&focus, "u_focus"}};
        for (const auto& [location, name] : names) *location = p.uniformLocation(name);
    }
};

// A linked program and its uniform locations.
struct ImageView::Program {
    std::unique_ptr<QOpenGLShaderProgram> shaders;
    std::unique_ptr<Locations> loc;
};

ImageView::ImageView(ViewTransform* transform, QWidget* parent)
    : QOpenGLWidget(parent), transform_(transform), path_text_(host_upload_text(cuda_device_available())) {
    setMinimumSize(64, 64);
    new ViewNavigator(this, transform_);
    connect(transform_, &ViewTransform::changed, this, qOverload<>(&QWidget::update));
}

ImageView::~ImageView() { cleanup(); }  // closes the interop path, with the context current

void ImageView::setImage(const QImage& image) {
    image_ = image;
    texture_.dirty = true;  // uploaded in paintGL, where the context is current
    update();
}

void ImageView::setSourceImage(const QImage& image) {
    source_ = image;
    source_texture_.dirty = true;  // uploaded when an animation first needs it
    update();
}

void ImageView::setOverlay(const OverlayState& state) {
    overlay_ = state;
    update();
}

QImage ImageView::grabImage() { return grabFramebuffer(); }

QString ImageView::displayPath() const { return QStringLiteral("OpenGL"); }

QPointF ImageView::widgetToImage(QPointF widget) const { return transform_->widgetToImage(widget, size()); }

QPointF ImageView::imageToWidget(QPointF image) const { return transform_->imageToWidget(image, size()); }

// ---- the real display path ----------------------------------------------------------------------

bool ImageView::prepareFrame(QSize size) {
    if (size.isEmpty()) return false;
    if (!cuda_device_available()) {  // nothing to open: the host result is drawn
        refusals_ = QStringList{tr("no CUDA device")};
        setPathText(host_upload_text(false));
        emitPending();
        return false;
    }
    // Not initialised yet, or unable to draw at all (the raster view takes over): host results.
    if (!isValid() || broken_ || !plain_) return false;
    if (interop_ && interop_->isOpen() && interop_->size() == size) return true;
    if (size == refused_size_) return false;
    makeCurrent();
    openInterop(size);
    doneCurrent();
    emitPending();
    return interop_ && interop_->isOpen();
}

void ImageView::openInterop(QSize size) {
    if (!interop_) interop_ = std::make_unique<InteropDisplay>();
    interop_->close();
    frame_live_ = false;
    // GlInterop needs desktop GL with GL_R8 textures (and glGetTexImage and friends); an image over
    // the texture limit is drawn downscaled by the host path instead.
    refusals_.clear();
    if (!has_rg_textures_ || context()->isOpenGLES()) {
        refusals_ << tr("this OpenGL context has no GL_R8 textures or is OpenGL ES");
    } else if (size.width() > max_texture_size_ || size.height() > max_texture_size_) {
        refusals_ << tr("%1x%2 exceeds this GPU's %3-pixel texture limit").arg(size.width()).arg(size.height()).arg(max_texture_size_);
    } else {
        QOpenGLContext* ctx = context();
        const Status s = interop_->open([ctx](const char* name) { return reinterpret_cast<void*>(ctx->getProcAddress(name)); },
                                        std::uint32_t(size.width()), std::uint32_t(size.height()),
                                        buffer_programs_[0] != nullptr);
        if (!s) {
            refusals_ = interop_->refusals();
            if (refusals_.isEmpty()) refusals_ << QString::fromStdString(s.message());
        }
    }
    if (!interop_->isOpen()) {  // an expected outcome (Mesa, remote X, ...), not an error
        refused_size_ = size;
        setPathText(host_upload_text(true));
        return;
    }
    refused_size_ = QSize();
}

Status ImageView::writeFrame(const FrameWriter& write) {
    if (!interop_ || !interop_->isOpen() || !isValid())
        return Status::error(ErrorKind::Unavailable, "no CUDA-GL display path is open");
    makeCurrent();
    const Status s = interop_->render(write);
    // A failed frame is not drawn (the texture may hold part of one, or nothing): the host result is.
    frame_live_ = s.is_ok();
    if (s) setPathText(interop_->pathText());
    else if (s.kind() != ErrorKind::InvalidInput) dropInterop(QString::fromStdString(s.message()));
    doneCurrent();
    emitPending();
    update();
    return s;
}

void ImageView::releaseFrame() {
    setPathText(host_upload_text(cuda_device_available()));
    emitPending();
    if (!frame_live_) return;
    frame_live_ = false;
    update();
}

void ImageView::closeInterop() {
    refused_size_ = QSize();
    if (interop_ && interop_->isOpen()) {
        makeCurrent();  // open implies initialised: the context exists
        dropInterop(QString());
        doneCurrent();
    }
    frame_live_ = false;
    setPathText(host_upload_text(cuda_device_available()));
    emitPending();
    update();
}

bool ImageView::interopLive() const {
    // A host result of another size means the frame written is not this picture's: draw the result.
    return interop_ && interop_->isOpen() && frame_live_ && (image_.isNull() || image_.size() == interop_->size());
}

Status ImageView::readInteropFrame(std::vector<std::uint8_t>* gray) {
    if (!interop_ || !interop_->isOpen() || !isValid())
        return Status::error(ErrorKind::Unavailable, "no CUDA-GL display path is open");
    makeCurrent();
    const Status s = interop_->readBack(gray);
    doneCurrent();
    return s;
}

QStringList ImageView::interopRefusals() const { return refusals_; }

QSize ImageView::shownSize() const { return interopLive() ? interop_->size() : image_.size(); }

void ImageView::dropInterop(const QString& error) {
    const QSize size = interop_ ? interop_->size() : QSize();
    if (interop_) interop_->close();  // the context is current
    frame_live_ = false;
    if (!error.isEmpty()) refused_size_ = size;  // a broken path is not reopened for this size
    // No upload needed here: a host result that arrived while interop was live is still dirty (paintGL
    // uploads only what it draws), so the next paint draws it.
    setPathText(host_upload_text(cuda_device_available()));
    if (!error.isEmpty()) pending_error_ = tr("CUDA\u2013GL interop failed, showing host uploads: %1").arg(error);
}

void ImageView::setPathText(const QString& text) {
    if (text == path_text_) return;
    path_text_ = text;
    pending_path_ = text;
}

void ImageView::emitPending() {
    const QString error = std::exchange(pending_error_, QString());
    const QString path = std::exchange(pending_path_, QString());
    if (!error.isEmpty()) emit interopError(error);
    if (!path.isEmpty()) emit displayPathChanged(path);
}

void ImageView::initializeGL() {
    // A reparented QOpenGLWidget gets a new context: drop what belonged to the old one first.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ImageView::cleanup);
    initializeOpenGLFunctions();

    QOpenGLContext* ctx = context();
    const int major = ctx->format().majorVersion();
    const bool es = ctx->isOpenGLES();
    has_rg_textures_ = major >= 3 || (!es && ctx->hasExtension("GL_ARB_texture_rg"));
    // ES 2 cannot mipmap non-power-of-two textures; desktop GL 3.0 and ES 3 can.
    can_mipmap_ = major >= 3 || (!es && ctx->hasExtension("GL_ARB_framebuffer_object"));
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_size_);
    renderer_ = QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

    // The plain image: GLSL 1.10 / ES 2, as everywhere. The overlay: GLSL 1.30 (desktop GL 3.0)
    // has exact 32-bit int arithmetic; if that program does not build, the float one still draws
    // everything up to 2^24 pixels exactly. Without an overlay program the raster view takes over:
    // it draws the overlay on the CPU.
    // The 2-D overlay is built now to decide; the 1-D one when first needed.
    QString log;
    plain_ = buildProgram(QByteArray(), &log);
    const bool want_int = !es && major >= 3 && qEnvironmentVariableIntValue("CUDAVIZ_OVERLAY_FLOAT_MATH") != 1;
    int_math_ = want_int;
    if (plain_ && want_int) overlay_programs_[1] = buildProgram(overlayHeader(false), &log);
    if (plain_ && !overlay_programs_[1]) {
        int_math_ = false;
        overlay_programs_[1] = buildProgram(overlayHeader(false), &log);
    }
    if (!plain_ || !overlay_programs_[1]) {
        broken_ = true;
        emit failed(tr("OpenGL shader program failed: %1").arg(log.trimmed()));
        return;
    }
    // Drawing the zero-copy frame (a buffer texture) takes GLSL 1.40: without it, that path is not opened.
    if (!es && (major > 3 || (major == 3 && ctx->format().minorVersion() >= 1)) && int_math_) {
        QString buffer_log;
        buffer_programs_[0] = buildProgram(bufferHeader(false, false), &buffer_log);
    }

    // Bound in place of the source image when there is none: CPU renderers sample the source even
    // where the shader does not use it, and a 1x1 texture costs nothing to sample.
    const GLubyte black[4] = {0, 0, 0, 255};
    glGenTextures(1, &dummy_texture_);
    glBindTexture(GL_TEXTURE_2D, dummy_texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    // A unit quad as a triangle strip; the vertex shader scales it to the drawn area.
    static const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
    vao_ = std::make_unique<QOpenGLVertexArrayObject>();
    vao_->create();  // optional: without VAO support the attributes are set on every draw
    quad_ = std::make_unique<QOpenGLBuffer>(QOpenGLBuffer::VertexBuffer);
    quad_->create();
    quad_->bind();
    quad_->allocate(corners, sizeof corners);
    quad_->release();

    texture_ = Texture{0, false, !image_.isNull()};
    source_texture_ = Texture{0, false, !source_.isNull()};

    if (!pending_path_.isEmpty() || !pending_error_.isEmpty())
        QMetaObject::invokeMethod(this, &ImageView::emitPending, Qt::QueuedConnection);  // not from inside GL
}

QByteArray ImageView::overlayHeader(bool one_d) const {
    QByteArray header = int_math_ ? QByteArrayLiteral("#version 130\n#define CVZ_INT_MATH 1\n") : QByteArray();
    header += QByteArrayLiteral("#define CVZ_OVERLAY 1\n");
    if (one_d) header += QByteArrayLiteral("#define CVZ_GRID_1D 1\n");
    return header;
}

QByteArray ImageView::bufferHeader(bool overlay, bool one_d) const {
    QByteArray header = QByteArrayLiteral("#version 140\n#define CVZ_INT_MATH 1\n#define CVZ_BUFFER_SOURCE 1\n");
    if (overlay) header += QByteArrayLiteral("#define CVZ_OVERLAY 1\n");
    if (overlay && one_d) header += QByteArrayLiteral("#define CVZ_GRID_1D 1\n");
    return header;
}

ImageView::Program* ImageView::bufferProgram(bool overlay, bool one_d) {
    std::unique_ptr<Program>& program = buffer_programs_[overlay ? (one_d ? 1 : 2) : 0];
    if (!program && overlay) {
        QString log;
        program = buildProgram(bufferHeader(true, one_d), &log);
        if (!program) {
            broken_ = true;
            emit failed(tr("OpenGL shader program failed: %1").arg(log.trimmed()));
        }
    }
    return program.get();
}

ImageView::Program* ImageView::overlayProgram(bool one_d) {
    std::unique_ptr<Program>& program = overlay_programs_[one_d ? 0 : 1];
    if (!program) {
        QString log;
        program = buildProgram(overlayHeader(one_d), &log);
        if (!program) {
            broken_ = true;
            emit failed(tr("OpenGL shader program failed: %1").arg(log.trimmed()));
        }
    }
    return program.get();
}

std::unique_ptr<ImageView::Program> ImageView::buildProgram(const QByteArray& header, QString* log) {
    // One source for all: the header picks the program and the index type (see image.frag).
    const QByteArray vert = read_resource(QStringLiteral(":/shaders/image.vert"));
    const QByteArray frag = read_resource(QStringLiteral(":/shaders/image.frag"));
    if (vert.isEmpty() || frag.isEmpty()) {
        *log = QStringLiteral("shader sources missing from the resources");
        return nullptr;
    }
    auto program = std::make_unique<Program>();
    program->shaders = std::make_unique<QOpenGLShaderProgram>();
    if (!program->shaders->addShaderFromSourceCode(QOpenGLShader::Vertex, header + vert) ||
        !program->shaders->addShaderFromSourceCode(QOpenGLShader::Fragment, header + frag) ||
        !program->shaders->link()) {
        *log = program->shaders->log();
        return nullptr;
    }
    program->loc = std::make_unique<Locations>(*program->shaders);
    return program;
}

bool ImageView::upload(const QImage& image, Texture* texture, bool report) {
    texture->dirty = false;
    if (image.isNull()) return true;

    QImage pixels = image;
    if (pixels.width() > max_texture_size_ || pixels.height() > max_texture_size_) {
        // The shader samples in normalised coordinates, so a smaller texture still covers the
        // whole image rectangle and the mapping to image pixels is unchanged.
        pixels = pixels.scaled(std::min(pixels.width(), int(max_texture_size_)),
                               std::min(pixels.height(), int(max_texture_size_)), Qt::KeepAspectRatio,
                               Qt::SmoothTransformation);
        if (report)
            emit downscaled(tr("%1x%2 exceeds this GPU's %3-pixel texture limit; shown at %4x%5")
                                .arg(image.width())
                                .arg(image.height())
                                .arg(max_texture_size_)
                                .arg(pixels.width())
                                .arg(pixels.height()));
    }
    texture->gray = pixels.format() == QImage::Format_Grayscale8;
    if (!texture->gray && pixels.format() != QImage::Format_RGB888)
        pixels = pixels.convertToFormat(QImage::Format_RGB888);

    if (!texture->id) glGenTextures(1, &texture->id);
    glBindTexture(GL_TEXTURE_2D, texture->id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // QImage pads every scanline to 4 bytes, as does GL
    GLint internal_format;
    GLenum format;
    const bool es = context()->isOpenGLES();
    if (texture->gray) {
        internal_format = has_rg_textures_ ? GL_R8 : GL_LUMINANCE;
        format = has_rg_textures_ ? GL_RED : GL_LUMINANCE;
    } else {
        internal_format = es ? GL_RGB : GL_RGB8;  // ES 2 wants unsized formats
        format = GL_RGB;
    }
    while (glGetError() != GL_NO_ERROR) {}  // start from a clean error state
    glTexImage2D(GL_TEXTURE_2D, 0, internal_format, pixels.width(), pixels.height(), 0, format, GL_UNSIGNED_BYTE,
                 pixels.constBits());
    if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
        broken_ = true;
        emit failed(tr("OpenGL could not take a %1x%2 texture (GL error 0x%3)")
                        .arg(pixels.width())
                        .arg(pixels.height())
                        .arg(error, 0, 16));
        return false;
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    // Magnified: nearest, so each image pixel is a crisp square (the unit a thread works on).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    if (can_mipmap_) {
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    } else {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    }
    return true;
}

bool ImageView::decorates() const {
    const QSize shown = shownSize();
    return overlay_.decorates() && overlay_.plan.width == std::uint32_t(shown.width()) &&
           overlay_.plan.height == std::uint32_t(shown.height());
}

void ImageView::setIndex(QOpenGLShaderProgram& program, int location, std::int64_t value) {
    if (int_math_) program.setUniformValue(location, GLint(std::clamp<std::int64_t>(value, INT_MIN, INT_MAX)));
    else program.setUniformValue(location, GLfloat(value));
}

void ImageView::setOverlayUniforms(Program& overlay) {
    QOpenGLShaderProgram& program = *overlay.shaders;
    const Locations& l = *overlay.loc;
    const OverlayState& o = overlay_;
    const QSize quad = o.extent();
    program.setUniformValue(l.quad_size, QVector2D(float(quad.width()), float(quad.height())));

    const LaunchPlan& p = o.plan;
    const AnimationFrame& a = o.animation;
    const bool anim = a.mode != AnimationMode::Off;
    const double device_px = transform_->zoom() * devicePixelRatioF();  // device pixels per image pixel
    const QPointF line_fade = o.blockLineFade(device_px), warp_fade = o.warpLineFade(device_px);
    program.setUniformValue(l.overlay, o.enabled ? 1.0f : 0.0f);
    program.setUniformValue(l.anim, anim ? 1.0f : 0.0f);
    program.setUniformValue(l.show_idle, o.show_idle ? 1.0f : 0.0f);
    program.setUniformValue(l.opacity, float(o.opacity));
    program.setUniformValue(l.coloring, float(int(o.coloring)));
    program.setUniformValue(l.px, float(1.0 / device_px));
    program.setUniformValue(l.line_fade, QVector2D(float(line_fade.x()), float(line_fade.y())));
    program.setUniformValue(l.warp_fade, QVector2D(float(warp_fade.x()), float(warp_fade.y())));
    setIndex(program, l.w, p.width);
    setIndex(program, l.h, p.height);
    setIndex(program, l.bx, p.shape.block.x);
    setIndex(program, l.by, p.shape.block.y);
    setIndex(program, l.gx, p.grid.x);
    setIndex(program, l.gy, p.grid.y);
    setIndex(program, l.ext_h, quad.height());
    setIndex(program, l.threads, std::int64_t(p.total_threads));
    setIndex(program, l.items, std::int64_t(std::max<std::uint32_t>(1, p.items_per_thread)));
    setIndex(program, l.warps_per_block, std::int64_t(p.warps_per_block));
    setIndex(program, l.done_end, std::int64_t(a.done_end));
    setIndex(program, l.run_end, std::int64_t(a.run_end));
    setIndex(program, l.warp_block, anim ? a.block : -1);
    setIndex(program, l.warp_done_end, std::int64_t(a.warp_done_end));
    setIndex(program, l.warp_run_end, std::int64_t(a.warp_run_end));
    setIndex(program, l.sel_block, o.selected_block);
    setIndex(program, l.sel_x, o.selected_pixel.x());
    setIndex(program, l.sel_y, o.selected_pixel.y());
    setIndex(program, l.hover_block, o.hovered_block);
    setIndex(program, l.merge_x, std::max(1, o.line_merge.x()));
    setIndex(program, l.merge_y, std::max(1, o.line_merge.y()));
    const QRectF ring = o.focusRing(device_px);
    program.setUniformValue(l.focus, ring.isNull() ? QVector4D(1, 0, 0, 0)
                                                   : QVector4D(float(ring.left()), float(ring.top()),
                                                               float(ring.right()), float(ring.bottom())));

    // Pixels of blocks not yet done show the kernel's input (on the result view); paintGL uploaded it.
    const bool source = wantsSource() && source_texture_.id;
    program.setUniformValue(l.has_source, source ? 1.0f : 0.0f);
    program.setUniformValue(l.source_gray, source_texture_.gray ? 1.0f : 0.0f);
    program.setUniformValue(l.source, 1);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, source ? source_texture_.id : dummy_texture_);
    glActiveTexture(GL_TEXTURE0);
}

bool ImageView::wantsSource() const {
    return overlay_.animating() && !source_.isNull() && source_.size() == shownSize();
}

void ImageView::paintGL() {
    glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (broken_ || !plain_) return;
    if (!pending_path_.isEmpty() || !pending_error_.isEmpty())
        QMetaObject::invokeMethod(this, &ImageView::emitPending, Qt::QueuedConnection);  // not from inside GL
    // While the kernel's texture is live, the host result is not uploaded (it holds the same bytes);
    // it stays dirty and goes up if the view falls back.
    const bool live = interopLive();
    if (!live && texture_.dirty) upload(image_, &texture_, true);
    if (wantsSource() && source_texture_.dirty) upload(source_, &source_texture_, false);
    const QSize shown = shownSize();
    // The zero-copy path draws the kernel's buffer itself, with the CVZ_BUFFER_SOURCE programs.
    const GLuint buffer_texture = live ? GLuint(interop_->bufferTextureId()) : 0;
    const GLuint texture = buffer_texture ? buffer_texture : live ? GLuint(interop_->textureId()) : texture_.id;
    if (broken_ || shown.isEmpty() || !texture) return;

    // Logical widget pixels, y down, to clip space; the viewport is already in device pixels.
    QMatrix4x4 image_to_clip;
    image_to_clip.ortho(0, float(width()), float(height()), 0, -1, 1);
    image_to_clip *= QMatrix4x4(transform_->imageToWidgetTransform(size()));

    // Nothing over the image: the plain program, which costs no more than drawing the texture.
    Program* overlay = !decorates()   ? nullptr
                       : buffer_texture ? bufferProgram(true, overlay_.plan.one_d)
                                        : overlayProgram(overlay_.plan.one_d);
    Program* plain = buffer_texture ? bufferProgram(false, false) : plain_.get();
    if (broken_ || !plain) return;
    Program& program = overlay ? *overlay : *plain;
    QOpenGLShaderProgram& shaders = *program.shaders;
    const Locations& l = *program.loc;
    shaders.bind();
    shaders.setUniformValue(l.image_to_clip, image_to_clip);
    shaders.setUniformValue(l.image_size, QVector2D(float(shown.width()), float(shown.height())));
    // The kernel's texture is GL_R8: the shader shows its red channel as grey.
    shaders.setUniformValue(l.gray, live || texture_.gray ? 1.0f : 0.0f);
    shaders.setUniformValue(l.texture, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(buffer_texture ? GL_TEXTURE_BUFFER : GL_TEXTURE_2D, texture);
    if (overlay) setOverlayUniforms(*overlay);
    else shaders.setUniformValue(l.quad_size, QVector2D(float(shown.width()), float(shown.height())));

    QOpenGLVertexArrayObject::Binder vao_binder(vao_.get());
    quad_->bind();
    shaders.enableAttributeArray(l.corner);
    shaders.setAttributeBuffer(l.corner, GL_FLOAT, 0, 2);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    quad_->release();
    shaders.release();
    if (buffer_texture) {
        glBindTexture(GL_TEXTURE_BUFFER, 0);
        interop_->frameDrawn();  // the next frame's writer waits for this draw
    }
}

void ImageView::drawFrameNow() {
    makeCurrent();  // binds this widget's framebuffer
    paintGL();
    glFinish();
    doneCurrent();
}

void ImageView::cleanup() {
    const bool interop_open = interop_ && interop_->isOpen();
    if (!plain_ && !texture_.id && !source_texture_.id && !quad_ && !interop_open) return;
    makeCurrent();
    // First the interop path (CUDA unregisters the texture), then its texture, then ours. The frame
    // written is gone with it: the host result (the same bytes) is drawn until the next frame, which
    // opens a path in the new context (the widget reparented).
    if (interop_ && interop_->isOpen()) setPathText(host_upload_text(cuda_device_available()));
    if (interop_) interop_->close();
    frame_live_ = false;
    refused_size_ = QSize();
    for (Texture* t : {&texture_, &source_texture_})
        if (t->id) glDeleteTextures(1, &t->id);
    if (dummy_texture_) glDeleteTextures(1, &dummy_texture_);
    dummy_texture_ = 0;
    texture_ = Texture{0, false, !image_.isNull()};
    source_texture_ = Texture{0, false, !source_.isNull()};
    quad_.reset();
    vao_.reset();
    plain_.reset();
    for (auto& program : overlay_programs_) program.reset();
    for (auto& program : buffer_programs_) program.reset();
    doneCurrent();
    if (context()) disconnect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ImageView::cleanup);
}

}  // namespace cvz
