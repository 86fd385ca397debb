#pragma once
#include <QImage>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

#include "app/jobs/frame_sink.h"
#include "ui/views/image_surface.h"
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
// The real display path (ARCHITECTURE.md, invariant 4), for the result view: a FrameSink
// (app/frame_sink.h). With a CUDA device the session asks prepareFrame(size) and, when it says yes,
// runs the change's one launch through writeFrame(): its writer writes this view's texture through
// CUDA-GL interop (InteropDisplay), on the GUI thread with this view's context current, registered
// once per size. The view knows no kernel. The path is the fastest that opens: surface write, pixel
// buffer, else host copy + glTexSubImage2D (GL that CUDA cannot share: Mesa, other vendors, remote
// X); without CUDA, the host upload of setImage() as ever. While a written frame is live, setImage()
// (the same run's bytes, read back for the inspector) is kept as image() but not uploaded; it is
// uploaded once the frame is released (releaseFrame(): the next result came from the host), the
// context is replaced, or the path fails. Both hold the same bytes (invariant 2).
class ImageView : public QOpenGLWidget, public ImageSurface, public FrameSink, protected QOpenGLFunctions {
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

    // ---- the real display path (see above); only the result view is a page's sink --------------
    // True when a frame written now is what this view draws: a CUDA device, the view initialised,
    // and an interop path open for `size` (opened here, reused while the size stays; a size that was
    // refused is not tried again until another size or closeInterop()).
    bool prepareFrame(QSize size) override;
    // Runs `write` on this view's texture (its context current) and draws what it wrote.
    Status writeFrame(const FrameWriter& write) override;
    // The next result is the host's (setImage): draw it, not the written frame.
    void releaseFrame() override;
    // Closes the path: host uploads until the next prepareFrame().
    void closeInterop();
    // "CUDA–GL interop: surface write", "CUDA–GL interop: pixel buffer", "host copy +
    // glTexSubImage2D", "host upload (no CUDA)", or "host upload" (CUDA present but the shown result
    // came from the host: the CPU backend, the image too large for a texture, a refused path, or
    // the view fell back after an error).
    QString displayPathText() const { return path_text_; }
    // True while the written frame is what paintGL draws.
    bool interopLive() const;
    // The interop texture as the GPU holds it (glGetTexImage), for tests; Unavailable when closed.
    Status readInteropFrame(std::vector<std::uint8_t>* gray);
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
    // already fallen back to host uploads of setImage(), and a picture of another size tries again.
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
    QByteArray bufferHeader(bool overlay, bool one_d) const;
    Program* overlayProgram(bool one_d);  // built when first needed; null (and failed()) if it cannot be
    // The programs that draw the zero-copy frame from a buffer texture (CVZ_BUFFER_SOURCE): the plain
    // one (built with the others, null where GLSL 1.40 is missing) and the overlay ones when needed.
    Program* bufferProgram(bool overlay, bool one_d);
    bool upload(const QImage& image, Texture* texture, bool report);
    bool decorates() const;
    void setOverlayUniforms(Program& overlay);
    void setIndex(QOpenGLShaderProgram& program, int location, std::int64_t value);
    bool wantsSource() const;
    QSize shownSize() const;  // of what paintGL draws: the kernel's texture while live, else image_
    void openInterop(QSize size);  // with the context current
    void dropInterop(const QString& error);  // closes; with an error, reports it (interopError)
    void setPathText(const QString& text);
    void emitPending();  // the signals decided on with the context current

    ViewTransform* transform_;
    QImage image_;
    QImage source_;
    OverlayState overlay_;
    Texture texture_;
    Texture source_texture_;
    GLuint dummy_texture_ = 0;  // 1x1, bound where there is no source image

    std::unique_ptr<Program> plain_;            // the image alone
    std::unique_ptr<Program> overlay_programs_[2];  // the image with the overlay: 1-D, 2-D launch
    std::unique_ptr<Program> buffer_programs_[3];   // from a buffer texture: plain, overlay 1-D, 2-D
    std::unique_ptr<QOpenGLBuffer> quad_;
    std::unique_ptr<QOpenGLVertexArrayObject> vao_;
    bool has_rg_textures_ = false;  // GL_R8 / GL_RED (GL 3.0, ES 3.0, ARB/EXT_texture_rg)
    bool can_mipmap_ = false;
    bool int_math_ = false;
    GLint max_texture_size_ = 0;
    QString renderer_;
    bool broken_ = false;

    std::unique_ptr<InteropDisplay> interop_;
    bool frame_live_ = false;  // the texture holds the frame to draw (written, not yet released)
    QSize refused_size_;       // the size no path opened for (or one failed at): not retried
    QStringList refusals_;  // why the interop path was not opened, or each path was refused
    QString path_text_;
    QString pending_path_;   // set by syncInterop(), emitted by emitPending()
    QString pending_error_;
};

}  // namespace cvz
