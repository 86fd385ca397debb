#pragma once
#include <QImage>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

#include "app/rgb_buffer.h"
#include "ui/views/image_surface.h"
#include "kernels/core/launch_shape.h"
#include "kernels/grayscale/grayscale_image.h"
#include "ui/views/overlay_state.h"

class QOpenGLBuffer;
class QOpenGLShaderProgram;
class QOpenGLVertexArrayObject;

namespace cvz {

class InteropDisplay;
class ViewTransform;

// Draws an image as a texture through a small shader program, placed by the shared ViewTransform,
// and over it the launch grid (block, thread and warp colours, idle threads, the execution
// animation, the inspector's selection), computed per fragment from a few uniforms: the cost does
// not depend on the image's size. Programs from one source (resources/shaders/image.frag): the
// plain image when nothing is drawn over it, and the overlay for 1-D and for 2-D launches.
// Nearest filtering when zoomed in, so single pixels stay visible; mipmapped when zoomed out.
// GL resources follow Qt's hellogl2 rules: made in initializeGL, freed in cleanup() while the
// context is current, before the context goes away.
//
// The real display path (ARCHITECTURE.md, invariant 4), for the grayscale result view: given the
// kernel's input (setInteropSource) and launch shape (setInteropShape), and with a CUDA device, the
// kernel itself writes this view's texture through CUDA-GL interop (InteropDisplay), on the GUI
// thread with this view's context current: registered once per image, the picture copied to the GPU
// once per image, one kernel run per change of shape or picture (never per paint). The path is the
// fastest that opens: surface write, pixel buffer, else host copy + glTexSubImage2D (GL that CUDA
// cannot share: Mesa, other vendors, remote X); without CUDA, the host upload of setImage() as ever.
// While interop is live, setImage() (the worker's result, still delivered for timing and the
// inspector) is kept as image() but not uploaded: the kernel's own texture is what is drawn; it is
// uploaded only if the view falls back (a CUDA error, clearInteropSource()). Both hold the same
// bytes (invariant 2), so which one is drawn never changes a pixel.
class ImageView : public QOpenGLWidget, public ImageSurface, protected QOpenGLFunctions {
    Q_OBJECT
public:
    explicit ImageView(ViewTransform* transform, QWidget* parent = nullptr);
    ~ImageView() override;

    QWidget* widget() override { return this; }
    ViewTransform* transform() const override { return transform_; }
    void setImage(const QImage& image) override;
    QImage image() const override { return image_; }
    void setSourceImage(const QImage& image) override;
    void setOverlay(const OverlayState& state) override;
    const OverlayState& overlay() const override { return overlay_; }
    QImage grabImage() override;
    QString displayPath() const override;
    QPointF widgetToImage(QPointF widget) const override;
    QPointF imageToWidget(QPointF image) const override;

    // "Mesa llvmpipe", "NVIDIA H200/PCIe/SSE2", ...; empty until initialised.
    QString renderer() const { return renderer_; }
    // True when the shader does its index arithmetic in int (GLSL 1.30+), false for the float
    // fallback of GLSL 1.10 / ES 2 (exact below 2^24 pixels). CUDAVIZ_OVERLAY_FLOAT_MATH=1 forces
    // the fallback, so that it can be tested where both are available.
    bool integerIndexMath() const { return int_math_; }

    // Draws one frame into the widget's framebuffer now and waits for the GPU to finish it. For
    // benchmarks: the normal path is update().
    void drawFrameNow();

    // ---- the real display path (see above); only the result view is given a source ------------
    // A new picture for the kernel: `rgb` interleaved, as to_rgb_buffer makes it; `layout` is how the
    // kernel reads it (planar is converted here, as the worker's runner does). Kept (copied, or taken
    // over by the && overload) to reopen the path when the view's context is replaced (reparenting);
    // nothing is kept without a CUDA device. Call for every new image and when the layout changes: it
    // opens the path (a registration is reused while the size stays), copies the picture to the GPU
    // and renders with the last shape given.
    void setInteropSource(const RgbBuffer& rgb, PixelLayout layout);
    void setInteropSource(RgbBuffer&& rgb, PixelLayout layout);  // the same, taking the bytes over
    // The launch shape the kernel runs with: renders when it differs from the last one rendered. A
    // shape the validator rejects renders nothing (the worker reports it; the last frame stays).
    void setInteropShape(const LaunchShape& shape);
    // Back to host uploads of setImage(); the path closes. E.g. when the CPU emulator's result
    // should be what is seen.
    void clearInteropSource();
    // "CUDA–GL interop: surface write", "CUDA–GL interop: pixel buffer", "host copy +
    // glTexSubImage2D", "host upload (no CUDA)", or "host upload" (CUDA present but no source given,
    // the image too large for a texture, or the view fell back after an error).
    QString displayPathText() const { return path_text_; }
    // True while the kernel's texture is what paintGL draws.
    bool interopLive() const;
    // Why each interop path was refused when the path was last opened (for a tooltip).
    QStringList interopRefusals() const;

signals:
    // The context works but this view cannot draw (shader or texture failure): the main window
    // replaces it with a raster view.
    void failed(const QString& reason);
    // The image was larger than GL_MAX_TEXTURE_SIZE and is shown downscaled.
    void downscaled(const QString& message);
    // displayPathText() changed: for the status bar.
    void displayPathChanged(const QString& text);
    // A live interop path failed (CUDA's or GL's message, as a Status carries it); the view has
    // already fallen back to host uploads of setImage(), and a new setInteropSource() tries again.
    void interopError(const QString& message);

protected:
    void initializeGL() override;
    void paintGL() override;

private slots:
    void cleanup();

private:
    struct Texture {
        GLuint id = 0;
        bool gray = false;
        bool dirty = false;
    };
    struct Locations;
    struct Program;

    std::unique_ptr<Program> buildProgram(const QByteArray& header, QString* log);
    QByteArray overlayHeader(bool one_d) const;  // the 1-D or the 2-D variant of the shader
    Program* overlayProgram(bool one_d);  // built when first needed; null (and failed()) if it cannot be
    bool upload(const QImage& image, Texture* texture, bool report);
    bool decorates() const;
    void setOverlayUniforms(Program& overlay);
    void setIndex(QOpenGLShaderProgram& program, int location, std::int64_t value);
    bool wantsSource() const;
    QSize shownSize() const;  // of what paintGL draws: the kernel's texture while live, else image_
    // With the context current: opens, feeds and renders the interop path as the requests say.
    void syncInterop();
    void dropInterop(const QString& error);  // closes; with an error, reports it (interopError)
    void setPathText(const QString& text);
    void emitPending();  // the signals syncInterop() decided on
    bool acceptInteropSource(const RgbBuffer& rgb);
    void startInteropSource(std::vector<std::uint8_t> rgb, QSize size, PixelLayout layout);  // rgb in layout

    struct InteropRequest {
        std::vector<std::uint8_t> rgb;  // in `layout`
        QSize size;
        PixelLayout layout = PixelLayout::Interleaved;
        bool upload = false;  // rgb not yet on the GPU
        bool failed = false;  // fell back for this picture: host uploads until the next source
    };

    ViewTransform* transform_;
    QImage image_;
    QImage source_;
    OverlayState overlay_;
    Texture texture_;
    Texture source_texture_;
    GLuint dummy_texture_ = 0;  // 1x1, bound where there is no source image

    std::unique_ptr<Program> plain_;            // the image alone
    std::unique_ptr<Program> overlay_programs_[2];  // the image with the overlay: 1-D, 2-D launch
    std::unique_ptr<QOpenGLBuffer> quad_;
    std::unique_ptr<QOpenGLVertexArrayObject> vao_;
    bool has_rg_textures_ = false;  // GL_R8 / GL_RED (GL 3.0, ES 3.0, ARB/EXT_texture_rg)
    bool can_mipmap_ = false;
    bool int_math_ = false;
    GLint max_texture_size_ = 0;
    QString renderer_;
    bool broken_ = false;

    std::unique_ptr<InteropDisplay> interop_;
    std::optional<InteropRequest> interop_source_;  // none: host uploads only
    std::optional<LaunchShape> interop_shape_;
    std::optional<LaunchShape> rendered_shape_;  // the shape of the frame in the texture
    QStringList refusals_;  // why the interop path was not opened, or each path was refused
    QString path_text_;
    QString pending_path_;   // set by syncInterop(), emitted by emitPending()
    QString pending_error_;
};

}  // namespace cvz
