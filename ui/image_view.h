#pragma once
#include <QImage>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>

#include <memory>

#include "image_surface.h"

class QOpenGLBuffer;
class QOpenGLShaderProgram;
class QOpenGLVertexArrayObject;

namespace cvz {

class ViewTransform;

// Draws an image as a texture through a small shader program, placed by the shared ViewTransform.
// Nearest filtering when zoomed in, so single pixels stay visible; mipmapped when zoomed out.
// GL resources follow Qt's hellogl2 rules: made in initializeGL, freed in cleanup() while the
// context is current, before the context goes away.
class ImageView : public QOpenGLWidget, public ImageSurface, protected QOpenGLFunctions {
    Q_OBJECT
public:
    explicit ImageView(ViewTransform* transform, QWidget* parent = nullptr);
    ~ImageView() override;

    QWidget* widget() override { return this; }
    ViewTransform* transform() const override { return transform_; }
    void setImage(const QImage& image) override;
    QImage image() const override { return image_; }
    QImage grabImage() override;
    QString displayPath() const override;
    QPointF widgetToImage(QPointF widget) const override;
    QPointF imageToWidget(QPointF image) const override;

    // "Mesa llvmpipe", "NVIDIA H200/PCIe/SSE2", ...; empty until initialised.
    QString renderer() const { return renderer_; }

signals:
    // The context works but this view cannot draw (shader or texture failure): the main window
    // replaces it with a raster view.
    void failed(const QString& reason);
    // The image was larger than GL_MAX_TEXTURE_SIZE and is shown downscaled.
    void downscaled(const QString& message);

protected:
    void initializeGL() override;
    void paintGL() override;

private slots:
    void cleanup();

private:
    bool buildProgram(QString* log);
    void uploadTexture();

    ViewTransform* transform_;
    QImage image_;
    bool texture_dirty_ = false;

    std::unique_ptr<QOpenGLShaderProgram> program_;
    std::unique_ptr<QOpenGLBuffer> quad_;
    std::unique_ptr<QOpenGLVertexArrayObject> vao_;
    GLuint texture_ = 0;
    bool texture_gray_ = false;
    bool has_rg_textures_ = false;  // GL_R8 / GL_RED (GL 3.0, ES 3.0, ARB/EXT_texture_rg)
    bool can_mipmap_ = false;
    GLint max_texture_size_ = 0;
    QString renderer_;
    bool broken_ = false;

    int loc_corner_ = -1;
    int loc_image_to_clip_ = -1;
    int loc_image_size_ = -1;
    int loc_gray_ = -1;
    int loc_texture_ = -1;
};

}  // namespace cvz
