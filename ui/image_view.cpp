#include "image_view.h"

#include <QMatrix4x4>
#include <QOpenGLBuffer>
#include <QOpenGLContext>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>

#include <algorithm>

#include "view_navigator.h"
#include "view_transform.h"

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

namespace cvz {

namespace {

// The view background, the same in the raster view.
constexpr float kBackground[3] = {0x30 / 255.0f, 0x30 / 255.0f, 0x30 / 255.0f};

}  // namespace

ImageView::ImageView(ViewTransform* transform, QWidget* parent) : QOpenGLWidget(parent), transform_(transform) {
    setMinimumSize(64, 64);
    new ViewNavigator(this, transform_);
    connect(transform_, &ViewTransform::changed, this, qOverload<>(&QWidget::update));
}

ImageView::~ImageView() { cleanup(); }

void ImageView::setImage(const QImage& image) {
    image_ = image;
    texture_dirty_ = true;  // uploaded in paintGL, where the context is current
    update();
}

QImage ImageView::grabImage() { return grabFramebuffer(); }

QString ImageView::displayPath() const { return QStringLiteral("OpenGL"); }

QPointF ImageView::widgetToImage(QPointF widget) const { return transform_->widgetToImage(widget, size()); }

QPointF ImageView::imageToWidget(QPointF image) const { return transform_->imageToWidget(image, size()); }

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

    QString log;
    if (!buildProgram(&log)) {
        broken_ = true;
        emit failed(tr("OpenGL shader program failed: %1").arg(log.trimmed()));
        return;
    }

    // A unit quad as a triangle strip; the vertex shader scales it to the image size.
    static const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
    vao_ = std::make_unique<QOpenGLVertexArrayObject>();
    vao_->create();  // optional: without VAO support the attributes are set on every draw
    quad_ = std::make_unique<QOpenGLBuffer>(QOpenGLBuffer::VertexBuffer);
    quad_->create();
    quad_->bind();
    quad_->allocate(corners, sizeof corners);
    quad_->release();

    texture_ = 0;
    texture_dirty_ = !image_.isNull();
}

bool ImageView::buildProgram(QString* log) {
    program_ = std::make_unique<QOpenGLShaderProgram>();
    if (!program_->addShaderFromSourceFile(QOpenGLShader::Vertex, QStringLiteral(":/shaders/image.vert")) ||
        !program_->addShaderFromSourceFile(QOpenGLShader::Fragment, QStringLiteral(":/shaders/image.frag")) ||
        !program_->link()) {
        *log = program_->log();
        program_.reset();
        return false;
    }
    loc_corner_ = program_->attributeLocation("a_corner");
    loc_image_to_clip_ = program_->uniformLocation("u_image_to_clip");
    loc_image_size_ = program_->uniformLocation("u_image_size");
    loc_gray_ = program_->uniformLocation("u_gray");
    loc_texture_ = program_->uniformLocation("u_texture");
    return true;
}

void ImageView::uploadTexture() {
    texture_dirty_ = false;
    if (image_.isNull()) return;

    QImage upload = image_;
    if (upload.width() > max_texture_size_ || upload.height() > max_texture_size_) {
        // The shader samples in normalised coordinates, so a smaller texture still covers the
        // whole image rectangle and the mapping to image pixels is unchanged.
        upload = upload.scaled(std::min(upload.width(), int(max_texture_size_)),
                               std::min(upload.height(), int(max_texture_size_)), Qt::KeepAspectRatio,
                               Qt::SmoothTransformation);
        emit downscaled(tr("%1x%2 exceeds this GPU's %3-pixel texture limit; shown at %4x%5")
                            .arg(image_.width())
                            .arg(image_.height())
                            .arg(max_texture_size_)
                            .arg(upload.width())
                            .arg(upload.height()));
    }
    texture_gray_ = upload.format() == QImage::Format_Grayscale8;
    if (!texture_gray_ && upload.format() != QImage::Format_RGB888)
        upload = upload.convertToFormat(QImage::Format_RGB888);

    if (!texture_) glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // QImage pads every scanline to 4 bytes, as does GL
    GLint internal_format;
    GLenum format;
    const bool es = context()->isOpenGLES();
    if (texture_gray_) {
        internal_format = has_rg_textures_ ? GL_R8 : GL_LUMINANCE;
        format = has_rg_textures_ ? GL_RED : GL_LUMINANCE;
    } else {
        internal_format = es ? GL_RGB : GL_RGB8;  // ES 2 wants unsized formats
        format = GL_RGB;
    }
    while (glGetError() != GL_NO_ERROR) {}  // start from a clean error state
    glTexImage2D(GL_TEXTURE_2D, 0, internal_format, upload.width(), upload.height(), 0, format, GL_UNSIGNED_BYTE,
                 upload.constBits());
    if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
        broken_ = true;
        emit failed(tr("OpenGL could not take a %1x%2 texture (GL error 0x%3)")
                        .arg(upload.width())
                        .arg(upload.height())
                        .arg(error, 0, 16));
        return;
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
}

void ImageView::paintGL() {
    glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (broken_ || !program_) return;
    if (texture_dirty_) uploadTexture();
    if (broken_ || image_.isNull() || !texture_) return;

    // Logical widget pixels, y down, to clip space; the viewport is already in device pixels.
    QMatrix4x4 image_to_clip;
    image_to_clip.ortho(0, float(width()), float(height()), 0, -1, 1);
    image_to_clip *= QMatrix4x4(transform_->imageToWidgetTransform(size()));

    program_->bind();
    program_->setUniformValue(loc_image_to_clip_, image_to_clip);
    program_->setUniformValue(loc_image_size_, QVector2D(float(image_.width()), float(image_.height())));
    program_->setUniformValue(loc_gray_, texture_gray_ ? 1.0f : 0.0f);
    program_->setUniformValue(loc_texture_, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture_);

    QOpenGLVertexArrayObject::Binder vao_binder(vao_.get());
    quad_->bind();
    program_->enableAttributeArray(loc_corner_);
    program_->setAttributeBuffer(loc_corner_, GL_FLOAT, 0, 2);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    quad_->release();
    program_->release();

    // The block-grid overlay (next issue) is a second pass here: its own small program drawing the
    // same quad with blending, from u_image_to_clip, v_pixel and uniforms for block and grid shape.
}

void ImageView::cleanup() {
    if (!program_ && !texture_ && !quad_) return;
    makeCurrent();
    if (texture_) glDeleteTextures(1, &texture_);
    texture_ = 0;
    quad_.reset();
    vao_.reset();
    program_.reset();
    doneCurrent();
    texture_dirty_ = !image_.isNull();
    if (context()) disconnect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ImageView::cleanup);
}

}  // namespace cvz
