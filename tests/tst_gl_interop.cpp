// The display paths of kernels/cuda/gl_interop.h in a real OpenGL context without a window (EGL on
// a GPU device, kernels/cuda/headless_egl_context.h). The path knows no kernel: it hands a frame
// writer its target (a surface, or device memory with a pitch); the grayscale family's writer
// (kernels/grayscale/grayscale_frame.h) writes each path's texture, which, read back with
// glGetTexImage and glReadPixels, equals the CPU reference byte for byte, and so do the bytes the
// writer reads back from the same frame. Refusals come back as Status values and the fallback takes
// the next path. GL-only cases also run on Mesa's software EGL device (CI); the CUDA cases QSKIP
// without a CUDA device.
#include <QtTest>

#include <memory>
#include <random>
#include <vector>

#include "kernels/cuda/cuda_devices.h"
#include "kernels/cuda/gl_interop.h"
#include "kernels/cuda/gl_texture.h"
#include "kernels/cuda/headless_egl_context.h"
#include "kernels/grayscale/grayscale_frame.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_launch_count.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "tests/support/buffer_texture_draw.h"

#if CUDAVIZ_HAVE_CUDA
#include "kernels/cuda/graphics_resource.h"
#endif

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::InteropPath)

namespace {

std::vector<std::uint8_t> random_rgb(std::uint64_t pixels, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> v(3 * pixels);
    for (auto& b : v) b = std::uint8_t(byte(rng));
    return v;
}

// A picture and its grey image as the CPU reference computes it.
struct Picture {
    std::uint32_t width = 0, height = 0;
    PixelLayout layout = PixelLayout::Interleaved;
    std::vector<std::uint8_t> rgb, gray;
};

Picture make_picture(std::uint32_t w, std::uint32_t h, PixelLayout layout, unsigned seed) {
    Picture p{w, h, layout, random_rgb(std::uint64_t(w) * h, seed), std::vector<std::uint8_t>(std::size_t(w) * h)};
    if (layout == PixelLayout::Planar) p.rgb = interleaved_to_planar(p.rgb.data(), std::uint64_t(w) * h);
    grayscale_reference({p.rgb.data(), p.gray.data(), w, h, layout});
    return p;
}

QString first_differences(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want, std::uint32_t width) {
    QString out;
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && count++ < 5)
            out += QString(" (x %1, y %2): %3 vs %4;").arg(i % width).arg(i / width).arg(got[i]).arg(want[i]);
    return count ? QString("%1 pixels differ:%2").arg(count).arg(out) : QString();
}

// The frame of `shape` over `frame`'s picture, as the app's session hands it to the display.
Status render_frame(GlInterop& interop, GrayscaleFrame& frame, const LaunchShape& shape, GrayscaleFrameRun* run = nullptr,
                    bool read_back = false) {
    return interop.render([&](const InteropTarget& target) { return frame.write(target, shape, run, read_back); });
}

// A GrayscaleFrame holding picture p.
std::unique_ptr<GrayscaleFrame> frame_of(const Picture& p) {
    auto frame = std::make_unique<GrayscaleFrame>();
    if (!frame->set_picture(p.rgb, p.width, p.height, p.layout)) frame.reset();
    return frame;
}

QString shape_label(const LaunchShape& s) {
    const KernelInfo* k = grayscale_variant_info(s.kind);
    return QString::fromStdString((k ? k->name : std::string("?")) + " " + to_string(s));
}

// A texture of the test's context, deleted at scope exit.
struct ScopedTexture {
    const GlFunctions& gl;
    GLuint id = 0;
    ~ScopedTexture() {
        if (id) gl.DeleteTextures(1, &id);
    }
};

}  // namespace

class TestGlInterop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void host_upload_round_trips();
    void pixel_store_state_is_kept();
    void float_texture_takes_bytes();
    void paths_match_reference_data();
    void paths_match_reference();
    void writer_gets_the_paths_target();
    void read_pixels_through_framebuffer();
    void new_picture_and_shapes_per_frame();
    void registration_failure_is_a_status();
    void open_rejects_wrong_texture();
    void falls_back_when_a_path_is_refused();
    void launch_errors_come_back();
    void extensions_are_whole_names();
    void zero_copy_opens_where_gl_imports_memory();
    void view_shader_draws_a_buffer_texture();

private:
    // The texture a path writes, read back: glGetTexImage.
    std::vector<std::uint8_t> read_back(GLuint texture, std::uint32_t w, std::uint32_t h);
    // What GL holds after a frame: the texture, or the zero-copy path's shared buffer.
    static std::vector<std::uint8_t> seen_by_gl(const GlInterop& interop, std::uint32_t w, std::uint32_t h) {
        std::vector<std::uint8_t> gray(std::size_t(w) * h, 0xA5);
        if (Status s = interop.read_back(gray.data()); !s) qWarning("read_back: %s", s.message().c_str());
        return gray;
    }

    std::unique_ptr<HeadlessEglContext> egl_;
    GlFunctions gl_;
    QString no_gl_;
    bool has_cuda_ = false;
    QString no_cuda_;
};

#define REQUIRE_GL() \
    if (!egl_) QSKIP(qPrintable(no_gl_))
#define REQUIRE_GL_AND_CUDA()                      \
    do {                                           \
        if (!egl_) QSKIP(qPrintable(no_gl_));      \
        if (!has_cuda_) QSKIP(qPrintable(no_cuda_)); \
    } while (0)

void TestGlInterop::initTestCase() {
    const CudaInventory inv = query_cuda_devices();
    has_cuda_ = inv.status.is_ok() && !inv.devices.empty();
    if (!has_cuda_) no_cuda_ = "no CUDA device: " + QString::fromStdString(inv.status.is_ok() ? "none found" : inv.status.message());
    Status s = HeadlessEglContext::create(&egl_);
    if (s) s = gl_.load(egl_->resolver());
    if (!s) {
        egl_.reset();
        no_gl_ = "no headless OpenGL context: " + QString::fromStdString(s.message());
        qInfo("%s", qPrintable(no_gl_));
        return;
    }
    qInfo("OpenGL: %s", egl_->description().c_str());
    if (has_cuda_) qInfo("CUDA device 0: %s", inv.devices.front().name.c_str());
    else qInfo("%s", qPrintable(no_cuda_));
}

void TestGlInterop::cleanupTestCase() { egl_.reset(); }

std::vector<std::uint8_t> TestGlInterop::read_back(GLuint texture, std::uint32_t w, std::uint32_t h) {
    gl_.Finish();
    std::vector<std::uint8_t> out(std::size_t(w) * h, 0xA5);
    const Status s = read_gray_texture(gl_, texture, w, h, out.data());
    if (!s) qWarning("read back: %s", s.message().c_str());
    return out;
}

// GL alone: bytes uploaded with the host-copy path's upload come back unchanged, odd width included.
void TestGlInterop::host_upload_round_trips() {
    REQUIRE_GL();
    const Picture p = make_picture(97, 33, PixelLayout::Interleaved, 1);
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, p.width, p.height, &tex.id).is_ok());
    const Status s = upload_gray_from_host(gl_, tex.id, p.width, p.height, p.gray.data());
    QVERIFY2(s.is_ok(), s.message().c_str());
    const QString diff = first_differences(read_back(tex.id, p.width, p.height), p.gray, p.width);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// The caller's (Qt's) pixel-store state and bindings survive an upload.
void TestGlInterop::pixel_store_state_is_kept() {
    REQUIRE_GL();
    ScopedTexture tex{gl_}, other{gl_};
    QVERIFY(create_r8_texture(gl_, 5, 3, &tex.id).is_ok());
    QVERIFY(create_r8_texture(gl_, 2, 2, &other.id).is_ok());
    gl_.PixelStorei(GL_UNPACK_ALIGNMENT, 8);
    gl_.BindTexture(GL_TEXTURE_2D, other.id);
    const std::vector<std::uint8_t> gray(15, 7);
    QVERIFY(upload_gray_from_host(gl_, tex.id, 5, 3, gray.data()).is_ok());
    GLint alignment = 0, bound = 0;
    gl_.GetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
    gl_.GetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
    QCOMPARE(alignment, 8);
    QCOMPARE(GLuint(bound), other.id);
    gl_.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    QCOMPARE(read_back(tex.id, 5, 3), gray);
}

// GL alone: GL converts bytes into a GL_R32F texture and back exactly (the fallback test relies on it).
void TestGlInterop::float_texture_takes_bytes() {
    REQUIRE_GL();
    const Picture p = make_picture(61, 29, PixelLayout::Interleaved, 2);
    ScopedTexture tex{gl_};
    gl_.GenTextures(1, &tex.id);
    gl_.BindTexture(GL_TEXTURE_2D, tex.id);
    gl_.TexImage2D(GL_TEXTURE_2D, 0, GL_R32F, GLsizei(p.width), GLsizei(p.height), 0, GL_RED, GL_FLOAT, nullptr);
    gl_.BindTexture(GL_TEXTURE_2D, 0);
    QVERIFY(gl_check(gl_, "GL_R32F texture").is_ok());
    QVERIFY(upload_gray_from_host(gl_, tex.id, p.width, p.height, p.gray.data()).is_ok());
    const QString diff = first_differences(read_back(tex.id, p.width, p.height), p.gray, p.width);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestGlInterop::paths_match_reference_data() {
    QTest::addColumn<InteropPath>("path");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("layout");
    const QList<QPair<int, int>> sizes = {{1, 1}, {97, 33}, {451, 300}, {1920, 1080}};
    QList<LaunchShape> shapes = {LaunchShape::one_d(256), LaunchShape::one_d(33), LaunchShape::two_d(16, 16),
                                 LaunchShape::two_d(7, 3)};
    // The ladder's 1-D variants too: x4 and vec16's 16-byte stores reach a surface byte by byte.
    for (const KernelInfo& k : grayscale_catalogue())
        if (k.block == BlockRule::OneD && GrayscaleVariant(k.variant) != GrayscaleVariant::Gray1d)
            shapes << LaunchShape::of(GrayscaleVariant(k.variant), Dim3{256, 1, 1});
    for (InteropPath path : interop_paths())
        for (auto [w, h] : sizes)
            for (const LaunchShape& s : shapes)
                for (int layout : {0, 1})
                    QTest::newRow(qPrintable(QString("%1 %2x%3 %4 %5 %6")
                                                 .arg(path == InteropPath::ExternalMemory ? "external"
                                                      : path == InteropPath::SurfaceWrite ? "surface"
                                                      : path == InteropPath::PixelBuffer  ? "pbo"
                                                                                          : "host")
                                                 .arg(w)
                                                 .arg(h)
                                                 .arg(shape_label(s))
                                                 .arg(QString())
                                                 .arg(layout ? "planar" : "interleaved")))
                        << path << w << h << s << layout;
}

void TestGlInterop::paths_match_reference() {
    REQUIRE_GL_AND_CUDA();
    QFETCH(InteropPath, path);
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(LaunchShape, shape);
    QFETCH(int, layout);
    const Picture p = make_picture(std::uint32_t(width), std::uint32_t(height),
                                   layout ? PixelLayout::Planar : PixelLayout::Interleaved, unsigned(width + height));
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, p.width, p.height, &tex.id).is_ok());
    std::unique_ptr<GlInterop> interop;
    Status s = GlInterop::open(gl_, tex.id, p.width, p.height, path, &interop);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QCOMPARE(interop->path(), path);
    auto frame = frame_of(p);
    QVERIFY(frame);
    GrayscaleFrameRun run;
    const std::uint64_t launches = grayscale_gpu_launches();
    s = render_frame(*interop, *frame, shape, &run, true);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QCOMPARE(grayscale_gpu_launches(), launches + 1);  // one frame, one launch
    const QString diff = first_differences(seen_by_gl(*interop, p.width, p.height), p.gray, p.width);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // The bytes the writer read back from the same frame (the session's result and inspector data).
    const QString diff_run = first_differences(run.gray, p.gray, p.width);
    QVERIFY2(diff_run.isEmpty(), qPrintable("read back from the frame: " + diff_run));
    QVERIFY(run.kernel_ms >= 0);
    interop.reset();
    QVERIFY2(gl_check(gl_, "after the interop").is_ok(), "GL errors left behind");
}

// Each path describes its object to the writer: a surface for SurfaceWrite; device memory of pitch
// width for the pixel buffer and the host copy; the picture's size, the path's stream and device.
void TestGlInterop::writer_gets_the_paths_target() {
    REQUIRE_GL_AND_CUDA();
    const std::uint32_t w = 37, h = 23;
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, w, h, &tex.id).is_ok());
    for (InteropPath path : interop_paths()) {
        std::unique_ptr<GlInterop> interop;
        QVERIFY(GlInterop::open(gl_, tex.id, w, h, path, &interop).is_ok());
        int calls = 0;
        InteropTarget seen;
        QVERIFY(interop->render([&](const InteropTarget& t) {
                           ++calls;
                           seen = t;
                           return Status::ok();
                       }).is_ok());
        QCOMPARE(calls, 1);
        QCOMPARE(seen.width, w);
        QCOMPARE(seen.height, h);
        QCOMPARE(seen.device, interop->cuda_device());
        QVERIFY(seen.stream != nullptr);
        if (path == InteropPath::SurfaceWrite) {
            QVERIFY(seen.is_surface());
            QVERIFY(seen.pointer == nullptr);
        } else {
            QVERIFY(!seen.is_surface());
            QVERIFY(seen.pointer != nullptr);
            QCOMPARE(seen.pitch, std::size_t(w));
        }
    }
}

// What a view draws: the texture attached to a framebuffer and read with glReadPixels.
void TestGlInterop::read_pixels_through_framebuffer() {
    REQUIRE_GL_AND_CUDA();
    const auto resolve = egl_->resolver();
    const auto gen = reinterpret_cast<PFNGLGENFRAMEBUFFERSPROC>(resolve("glGenFramebuffers"));
    const auto bind = reinterpret_cast<PFNGLBINDFRAMEBUFFERPROC>(resolve("glBindFramebuffer"));
    const auto attach = reinterpret_cast<PFNGLFRAMEBUFFERTEXTURE2DPROC>(resolve("glFramebufferTexture2D"));
    const auto check = reinterpret_cast<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(resolve("glCheckFramebufferStatus"));
    const auto drop = reinterpret_cast<PFNGLDELETEFRAMEBUFFERSPROC>(resolve("glDeleteFramebuffers"));
    const auto read = reinterpret_cast<decltype(&::glReadPixels)>(resolve("glReadPixels"));
    QVERIFY(gen && bind && attach && check && drop && read);

    const Picture p = make_picture(451, 300, PixelLayout::Planar, 5);
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, p.width, p.height, &tex.id).is_ok());
    for (InteropPath path : interop_paths()) {
        std::unique_ptr<GlInterop> interop;
        QVERIFY(GlInterop::open(gl_, tex.id, p.width, p.height, path, &interop).is_ok());
        auto frame = frame_of(p);
        QVERIFY(frame);
        QVERIFY(render_frame(*interop, *frame, LaunchShape::two_d(32, 8)).is_ok());
        if (interop->buffer_texture()) {  // zero-copy: the view's shader draws the shared buffer
            test::BufferTextureDrawer drawer;
            QVERIFY(drawer.load(egl_->resolver()));
            std::vector<std::uint8_t> got;
            std::string log;
            QVERIFY2(drawer.draw(gl_, interop->buffer_texture(), p.width, p.height, p.width, p.height, &got, &log), log.c_str());
            const QString diff = first_differences(got, p.gray, p.width);
            QVERIFY2(diff.isEmpty(), qPrintable(QString(to_string(path)) + ": " + diff));
            continue;
        }
        GLuint fbo = 0;
        gen(1, &fbo);
        bind(GL_FRAMEBUFFER, fbo);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex.id, 0);
        QCOMPARE(check(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));
        std::vector<std::uint8_t> got(p.gray.size(), 0xA5);
        gl_.PixelStorei(GL_PACK_ALIGNMENT, 1);
        read(0, 0, GLsizei(p.width), GLsizei(p.height), GL_RED, GL_UNSIGNED_BYTE, got.data());
        gl_.PixelStorei(GL_PACK_ALIGNMENT, 4);
        bind(GL_FRAMEBUFFER, 0);
        drop(1, &fbo);
        QVERIFY(gl_check(gl_, "glReadPixels").is_ok());
        const QString diff = first_differences(got, p.gray, p.width);
        QVERIFY2(diff.isEmpty(), qPrintable(QString(to_string(path)) + ": " + diff));
    }
}

// Frames after the first: a new picture, other shapes; the registration and surface are reused.
void TestGlInterop::new_picture_and_shapes_per_frame() {
    REQUIRE_GL_AND_CUDA();
    const std::uint32_t w = 641, h = 479;
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, w, h, &tex.id).is_ok());
    for (InteropPath path : interop_paths()) {
        std::unique_ptr<GlInterop> interop;
        QVERIFY(GlInterop::open(gl_, tex.id, w, h, path, &interop).is_ok());
        unsigned seed = 100;
        GrayscaleFrame frame;
        for (const LaunchShape& shape : {LaunchShape::one_d(1024), LaunchShape::two_d(1, 1), LaunchShape::two_d(32, 32),
                                         LaunchShape::one_d(1)}) {
            const Picture p = make_picture(w, h, seed % 2 ? PixelLayout::Planar : PixelLayout::Interleaved, seed);
            ++seed;
            QVERIFY(frame.set_picture(p.rgb, w, h, p.layout).is_ok());
            for (int i = 0; i < 3; ++i) QVERIFY(render_frame(*interop, frame, shape).is_ok());
            const QString diff = first_differences(seen_by_gl(*interop, w, h), p.gray, w);
            QVERIFY2(diff.isEmpty(), qPrintable(QString("%1, %2: %3").arg(to_string(path)).arg(QString::fromStdString(to_string(shape))).arg(diff)));
            if (!interop->buffer_texture()) continue;
            test::BufferTextureDrawer drawer;  // and what the view's shader draws from it
            QVERIFY(drawer.load(egl_->resolver()));
            std::vector<std::uint8_t> drawn;
            std::string log;
            QVERIFY2(drawer.draw(gl_, interop->buffer_texture(), w, h, w, h, &drawn, &log), log.c_str());
            const QString drawn_diff = first_differences(drawn, p.gray, w);
            QVERIFY2(drawn_diff.isEmpty(), qPrintable("drawn: " + drawn_diff));
        }
    }
}

// CUDA refuses to register GL names that are no texture or buffer: its error comes back as a value.
void TestGlInterop::registration_failure_is_a_status() {
    REQUIRE_GL_AND_CUDA();
#if CUDAVIZ_HAVE_CUDA
    const unsigned never_made = 987654;
    GraphicsResource image, buffer;
    const Status si = image.register_image(never_made, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore);
    QVERIFY(!si.is_ok());
    qInfo("CUDA says: %s", si.message().c_str());
    QVERIFY2(QString::fromStdString(si.message()).contains("cudaGraphicsGLRegisterImage"), si.message().c_str());
    QVERIFY2(QString::fromStdString(si.message()).contains("cudaError"), si.message().c_str());
    QVERIFY(!image);
    const Status sb = buffer.register_buffer(never_made, cudaGraphicsRegisterFlagsWriteDiscard);
    QVERIFY(!sb.is_ok());
    qInfo("CUDA says: %s", sb.message().c_str());
    QVERIFY2(QString::fromStdString(sb.message()).contains("cudaGraphicsGLRegisterBuffer"), sb.message().c_str());
    QVERIFY(!buffer);
    cudaGetLastError();
    gl_clear_errors(gl_);
#endif
}

// A texture of the wrong size, or a name that is no texture, is the caller's mistake: InvalidInput,
// and the fallback does not paper over it.
void TestGlInterop::open_rejects_wrong_texture() {
    REQUIRE_GL_AND_CUDA();
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, 64, 32, &tex.id).is_ok());
    std::unique_ptr<GlInterop> interop;
    std::vector<std::string> refusals;
    Status s = open_gl_interop_with_fallback(gl_, tex.id, 32, 64, &interop, &refusals);
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(s.message()).contains("64x32"), s.message().c_str());
    QVERIFY(!interop);
    QVERIFY(refusals.empty());
    s = GlInterop::open(gl_, 987654, 64, 32, InteropPath::SurfaceWrite, &interop);
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    qInfo("not a texture: %s", s.message().c_str());
}

// A float texture: the surface path (bytes into GL_R8 texels) refuses, the pixel-buffer path takes
// over and GL converts the bytes; with it left out, the host copy does.
void TestGlInterop::falls_back_when_a_path_is_refused() {
    REQUIRE_GL_AND_CUDA();
    const Picture p = make_picture(97, 33, PixelLayout::Interleaved, 8);
    ScopedTexture tex{gl_};
    gl_.GenTextures(1, &tex.id);
    gl_.BindTexture(GL_TEXTURE_2D, tex.id);
    gl_.TexImage2D(GL_TEXTURE_2D, 0, GL_R32F, GLsizei(p.width), GLsizei(p.height), 0, GL_RED, GL_FLOAT, nullptr);
    gl_.BindTexture(GL_TEXTURE_2D, 0);
    QVERIFY(gl_check(gl_, "GL_R32F texture").is_ok());

    const std::vector<std::vector<InteropPath>> orders = {
        {InteropPath::SurfaceWrite, InteropPath::PixelBuffer, InteropPath::HostCopy},
        {InteropPath::SurfaceWrite, InteropPath::HostCopy}};
    const InteropPath expected[] = {InteropPath::PixelBuffer, InteropPath::HostCopy};
    for (int i = 0; i < 2; ++i) {
        std::unique_ptr<GlInterop> interop;
        std::vector<std::string> refusals;
        const Status s = open_gl_interop_with_fallback(gl_, tex.id, p.width, p.height, &interop, &refusals, orders[i]);
        QVERIFY2(s.is_ok(), s.message().c_str());
        QCOMPARE(interop->path(), expected[i]);
        QCOMPARE(int(refusals.size()), 1);
        qInfo("refused: %s", refusals.front().c_str());
        QVERIFY2(QString::fromStdString(refusals.front()).contains("GL_R8"), refusals.front().c_str());
        auto frame = frame_of(p);
        QVERIFY(frame);
        QVERIFY(render_frame(*interop, *frame, LaunchShape::one_d(256)).is_ok());
        const QString diff = first_differences(read_back(tex.id, p.width, p.height), p.gray, p.width);
        QVERIFY2(diff.isEmpty(), qPrintable(QString(to_string(expected[i])) + ": " + diff));
    }
}

// A writer's error (no picture yet, a launch the validator refuses, any error of its own) comes back
// as it is, with the resource unmapped: the next frame works. A writer that launches nothing
// launches nothing: the path runs no kernel of its own.
void TestGlInterop::launch_errors_come_back() {
    REQUIRE_GL_AND_CUDA();
    const Picture p = make_picture(64, 48, PixelLayout::Interleaved, 9);
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, p.width, p.height, &tex.id).is_ok());
    for (InteropPath path : interop_paths()) {
        std::unique_ptr<GlInterop> interop;
        QVERIFY(GlInterop::open(gl_, tex.id, p.width, p.height, path, &interop).is_ok());
        GrayscaleFrame frame;
        Status s = render_frame(*interop, frame, LaunchShape::one_d(256));
        QCOMPARE(s.kind(), ErrorKind::InvalidInput);  // no picture yet
        QVERIFY(frame.set_picture(p.rgb, p.width, p.height, p.layout).is_ok());
        s = render_frame(*interop, frame, LaunchShape::two_d(64, 32));
        QCOMPARE(s.kind(), ErrorKind::InvalidInput);
        QVERIFY2(QString::fromStdString(s.message()).contains("2048 threads"), s.message().c_str());
        s = interop->render([](const InteropTarget&) { return Status::error(ErrorKind::Device, "the writer's own failure"); });
        QCOMPARE(s.kind(), ErrorKind::Device);
        QCOMPARE(QString::fromStdString(s.message()), QStringLiteral("the writer's own failure"));
        const std::uint64_t launches = grayscale_gpu_launches();
        QVERIFY(interop->render([](const InteropTarget&) { return Status::ok(); }).is_ok());
        QCOMPARE(grayscale_gpu_launches(), launches);
        QCOMPARE(int(interop->render(FrameWriter()).kind()), int(ErrorKind::InvalidInput));
        s = render_frame(*interop, frame, LaunchShape::two_d(16, 16));
        QVERIFY2(s.is_ok(), s.message().c_str());
        QCOMPARE(seen_by_gl(*interop, p.width, p.height), p.gray);
    }
}

// The zero-copy path is chosen by the context's extension list: a listed name is found, its prefix
// and an unknown name are not. GL only (Mesa in CI too).
void TestGlInterop::extensions_are_whole_names() {
    REQUIRE_GL();
    QVERIFY(gl_.GetStringi);  // every desktop context made here is 3.0 or later
    GLint count = 0;
    gl_.GetIntegerv(GL_NUM_EXTENSIONS, &count);
    QVERIFY(count > 0);
    const std::string first = reinterpret_cast<const char*>(gl_.GetStringi(GL_EXTENSIONS, 0));
    const std::string last = reinterpret_cast<const char*>(gl_.GetStringi(GL_EXTENSIONS, GLuint(count - 1)));
    QVERIFY(gl_.has_extension(first.c_str()));
    QVERIFY(gl_.has_extension(last.c_str()));
    QVERIFY(!gl_.has_extension(first.substr(0, first.size() - 1).c_str()));
    QVERIFY(!gl_.has_extension("GL_CUDAVIZ_no_such_extension"));
    QVERIFY(!gl_.has_extension(""));
    QVERIFY(gl_check(gl_, "extension queries").is_ok());
    qInfo("GL_EXT_memory_object_fd: %s", gl_.has_extension("GL_EXT_memory_object_fd") ? "yes" : "no");
}

// Where the context imports memory (NVIDIA's EGL on the H200) the zero-copy path opens with no
// refusal; a context without the extension refuses it by name and the next path opens.
void TestGlInterop::zero_copy_opens_where_gl_imports_memory() {
    REQUIRE_GL_AND_CUDA();
    const Picture p = make_picture(1537, 1023, PixelLayout::Planar, 12);
    ScopedTexture tex{gl_};
    QVERIFY(create_r8_texture(gl_, p.width, p.height, &tex.id).is_ok());
    std::unique_ptr<GlInterop> interop;
    std::vector<std::string> refusals;
    const Status s = open_gl_interop_with_fallback(gl_, tex.id, p.width, p.height, &interop, &refusals,
                                                   {InteropPath::ExternalMemory, InteropPath::PixelBuffer});
    QVERIFY2(s.is_ok(), s.message().c_str());
    if (gl_.has_extension("GL_EXT_memory_object_fd")) {
        QVERIFY2(interop->path() == InteropPath::ExternalMemory, refusals.empty() ? "" : refusals.front().c_str());
        QVERIFY(refusals.empty());
    } else {
        QVERIFY(interop->path() != InteropPath::ExternalMemory);
        QVERIFY(!refusals.empty());
        QVERIFY2(QString::fromStdString(refusals.front()).contains("GL_EXT_memory_object_fd"), refusals.front().c_str());
    }
    auto frame = frame_of(p);
    QVERIFY(frame);
    test::BufferTextureDrawer drawer;
    QVERIFY(drawer.load(egl_->resolver()));
    // Frame after frame through the same shared memory, each drawn by the view's shader before the
    // next is written (the fence at a frame's start keeps its writer off bytes a draw still reads),
    // on pictures that differ, so a stale frame would show.
    unsigned seed = 40;
    for (const LaunchShape& shape : {LaunchShape::one_d(256), LaunchShape::two_d(16, 16), LaunchShape::two_d(1, 1)}) {
        const Picture q = make_picture(p.width, p.height, seed % 2 ? PixelLayout::Planar : PixelLayout::Interleaved, seed);
        ++seed;
        QVERIFY(frame->set_picture(q.rgb, q.width, q.height, q.layout).is_ok());
        QVERIFY(render_frame(*interop, *frame, shape).is_ok());
        if (interop->buffer_texture()) {  // what the view's shader draws from the shared memory
            std::vector<std::uint8_t> drawn;
            std::string log;
            QVERIFY2(drawer.draw(gl_, interop->buffer_texture(), q.width, q.height, q.width, q.height, &drawn, &log),
                     log.c_str());
            interop->frame_drawn();
            const QString diff = first_differences(drawn, q.gray, q.width);
            QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("drawn, seed %1: ").arg(seed - 1) + diff));
        }
        const QString diff = first_differences(seen_by_gl(*interop, q.width, q.height), q.gray, q.width);
        QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("read back, seed %1: ").arg(seed - 1) + diff));
    }
}

// The view's zero-copy shader (image.frag with CVZ_BUFFER_SOURCE) on a buffer texture the host
// filled: at 1:1 each pixel shows its byte exactly; minified it filters bilinearly as the 2-D texture
// would. GL only (Mesa in CI, NVIDIA on the H200).
void TestGlInterop::view_shader_draws_a_buffer_texture() {
    REQUIRE_GL();
    if (!gl_.TexBuffer) QSKIP("no buffer textures in this context");
    const std::uint32_t w = 97, h = 33;
    std::vector<std::uint8_t> bytes(std::size_t(w) * h);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t((i * 37 + (i / w) * 11) % 251);
    GLuint buffer = 0, texture = 0;
    gl_.GenBuffers(1, &buffer);
    gl_.BindBuffer(GL_TEXTURE_BUFFER, buffer);
    gl_.BufferData(GL_TEXTURE_BUFFER, GLsizeiptr(bytes.size()), bytes.data(), GL_STATIC_DRAW);
    gl_.BindBuffer(GL_TEXTURE_BUFFER, 0);
    gl_.GenTextures(1, &texture);
    gl_.BindTexture(GL_TEXTURE_BUFFER, texture);
    gl_.TexBuffer(GL_TEXTURE_BUFFER, GL_R8, buffer);
    gl_.BindTexture(GL_TEXTURE_BUFFER, 0);
    QVERIFY(gl_check(gl_, "buffer texture").is_ok());
    test::BufferTextureDrawer drawer;
    QVERIFY(drawer.load(egl_->resolver()));
    std::vector<std::uint8_t> got;
    std::string log;
    QVERIFY2(drawer.draw(gl_, texture, w, h, w, h, &got, &log), log.c_str());
    QVERIFY2(first_differences(got, bytes, w).isEmpty(), qPrintable(first_differences(got, bytes, w)));
    // Minified to 48x16: each pixel the bilinear sample at its centre (as GL_LINEAR would give).
    const std::uint32_t ow = 48, oh = 16;
    QVERIFY2(drawer.draw(gl_, texture, w, h, ow, oh, &got, &log), log.c_str());
    auto at = [&](int x, int y) {
        x = std::clamp(x, 0, int(w) - 1);
        y = std::clamp(y, 0, int(h) - 1);
        return double(bytes[std::size_t(y) * w + std::size_t(x)]);
    };
    int worst = 0;
    for (std::uint32_t y = 0; y < oh; ++y)
        for (std::uint32_t x = 0; x < ow; ++x) {
            const double qx = (x + 0.5) * w / ow - 0.5, qy = (y + 0.5) * h / oh - 0.5;
            const int ix = int(std::floor(qx)), iy = int(std::floor(qy));
            const double fx = qx - ix, fy = qy - iy;
            const double top = at(ix, iy) + (at(ix + 1, iy) - at(ix, iy)) * fx;
            const double bottom = at(ix, iy + 1) + (at(ix + 1, iy + 1) - at(ix, iy + 1)) * fx;
            const double want = top + (bottom - top) * fy;
            worst = std::max(worst, int(std::lround(std::abs(got[std::size_t(y) * ow + x] - want))));
        }
    QVERIFY2(worst <= 1, qPrintable(QStringLiteral("bilinear off by %1").arg(worst)));
    gl_.DeleteTextures(1, &texture);
    gl_.DeleteBuffers(1, &buffer);
}

QTEST_APPLESS_MAIN(TestGlInterop)
#include "tst_gl_interop.moc"
