// The result view's real display path (ui/views/interop_display.h, ImageView as a FrameSink): which
// path is live and what it says, and that the pixels on screen are the CPU reference's, byte for
// byte, whichever path drew them (grabFramebuffer). The display knows no kernel: the frames here are
// written by the grayscale family's writer (GrayscaleFrame), as the session does. Under Xvfb with Mesa
// and no CUDA device (CI) the view must say "host upload (no CUDA)", draw the host result exactly as
// before, and InteropDisplay::open must answer Unavailable without crashing, in builds with and
// without the CUDA toolkit. With a CUDA device the interop path must be live and draw the written
// frame (those cases QSKIP here); through a headless NVIDIA EGL context (the H200) it must be the
// zero-copy path (external memory drawn from a buffer texture), and a session whose frame sink it is runs each change once, on the display.
#include <QtTest>

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSignalSpy>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "support/window_waits.h"
#include "app/jobs/backend_choice.h"
#include "app/jobs/frame_sink.h"
#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/io/rgb_buffer.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/cuda/gl_interop.h"
#include "kernels/cuda/headless_egl_context.h"
#include "kernels/grayscale/grayscale_frame.h"
#include "kernels/grayscale/grayscale_launch_count.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "ui/views/display_path.h"
#include "ui/views/image_view.h"
#include "ui/views/interop_display.h"
#include "ui/views/view_transform.h"

#include "support/event_waits.h"
#include "support/test_images.h"

using namespace cvz;
using cvz::test::make_test_image;

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::PixelLayout)

namespace {

// The CPU reference for `rgb` (interleaved) read in `layout`: the same bytes in either layout.
std::vector<std::uint8_t> reference_gray(const RgbBuffer& rgb, PixelLayout layout) {
    const std::uint64_t n = std::uint64_t(rgb.width) * rgb.height;
    const std::vector<std::uint8_t> input =
        layout == PixelLayout::Planar ? interleaved_to_planar(rgb.bytes.data(), n) : rgb.bytes;
    std::vector<std::uint8_t> gray(n);
    grayscale_reference(GrayscaleImage{input.data(), gray.data(), rgb.width, rgb.height, layout});
    return gray;
}

QString first_differences(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want,
                          std::uint32_t width) {
    if (got.size() != want.size()) return QStringLiteral("%1 bytes, not %2").arg(got.size()).arg(want.size());
    QString out;
    std::uint64_t count = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && count++ < 5)
            out += QStringLiteral(" (%1,%2): %3 vs %4;").arg(i % width).arg(i / width).arg(got[i]).arg(want[i]);
    return count ? QStringLiteral("%1 pixels differ:%2").arg(count).arg(out) : QString();
}

// What `view` shows at the middle of every image pixel, as grey bytes (red channel), or an error.
QString grab_gray(ImageView& view, QSize size, std::vector<std::uint8_t>* gray) {
    const QImage shot = view.grabFramebuffer();
    const qreal dpr = view.devicePixelRatioF();
    gray->assign(std::size_t(size.width()) * size.height(), 0);
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x) {
            const QPointF w = view.imageToWidget(QPointF(x + 0.5, y + 0.5)) * dpr;
            const QPoint device(int(std::floor(w.x())), int(std::floor(w.y())));
            if (!shot.rect().contains(device)) return QStringLiteral("pixel %1,%2 is off screen").arg(x).arg(y);
            const QRgb c = shot.pixel(device);
            if (qRed(c) != qGreen(c) || qRed(c) != qBlue(c))
                return QStringLiteral("pixel %1,%2 is not grey: #%3")
                    .arg(x)
                    .arg(y)
                    .arg(c & 0xFFFFFF, 6, 16, QLatin1Char('0'));
            (*gray)[std::size_t(y) * size.width() + x] = std::uint8_t(qRed(c));
        }
    return {};
}

#define VERIFY_SAME_BYTES(got, want, width)                    \
    do {                                                       \
        const QString diff_ = first_differences(got, want, width); \
        QVERIFY2(diff_.isEmpty(), qPrintable(diff_));          \
    } while (0)

#define VERIFY_GRAB(view, size, gray)                          \
    do {                                                       \
        const QString problem_ = grab_gray(view, size, gray);  \
        QVERIFY2(problem_.isEmpty(), qPrintable(problem_));    \
    } while (0)

// A shown view over a picture at a whole zoom, the picture centred.
class Rig {
public:
    explicit Rig(QSize image, double zoom = 2) : view_(&transform_) {
        view_.resize(640, 480);
        view_.show();
        exposed_ = cvz::test::wait_exposed(&view_);
        transform_.setImageSize(image);
        transform_.setZoom(zoom);
        transform_.setCenter(QPointF(image.width() / 2.0, image.height() / 2.0));
    }
    bool exposed() const { return exposed_; }
    ImageView& view() { return view_; }
    ViewTransform& transform() { return transform_; }

private:
    ViewTransform transform_;
    ImageView view_;
    bool exposed_ = false;
};

// A current Qt OpenGL context on an offscreen surface, for InteropDisplay alone.
struct QtContext {
    QOpenGLContext context;
    QOffscreenSurface surface;
    bool current = false;
    QtContext() {
        if (!context.create()) return;
        surface.setFormat(context.format());
        surface.create();
        current = surface.isValid() && context.makeCurrent(&surface);
    }
    ~QtContext() {
        if (current) context.doneCurrent();
    }
    InteropDisplay::Resolver resolver() {
        QOpenGLContext* c = &context;
        return [c](const char* name) { return reinterpret_cast<void*>(c->getProcAddress(name)); };
    }
};

// The picture `rgb` (interleaved) in `layout`, as a frame writer holds it.
std::unique_ptr<GrayscaleFrame> frame_of(const RgbBuffer& rgb, PixelLayout layout) {
    const std::uint64_t n = std::uint64_t(rgb.width) * rgb.height;
    auto frame = std::make_unique<GrayscaleFrame>();
    std::vector<std::uint8_t> bytes = layout == PixelLayout::Planar ? interleaved_to_planar(rgb.bytes.data(), n) : rgb.bytes;
    if (!frame->set_picture(std::move(bytes), rgb.width, rgb.height, layout)) frame.reset();
    return frame;
}

FrameWriter writer(GrayscaleFrame& frame, const LaunchShape& shape) {
    return [&frame, shape](const InteropTarget& target) { return frame.write(target, shape); };
}

// A frame sink over InteropDisplay in a headless EGL context, as the GPU machine has it (no Qt
// window there): what ImageView does, without the widget.
class EglFrameSink : public FrameSink {
public:
    explicit EglFrameSink(HeadlessEglContext* egl) : egl_(egl) {}
    ~EglFrameSink() override { display.close(); }  // the EGL context is current
    bool prepareFrame(QSize size) override {
        ++prepares;
        if (display.isOpen() && display.size() == size) return true;
        return display.open(egl_->resolver(), std::uint32_t(size.width()), std::uint32_t(size.height())).is_ok();
    }
    Status writeFrame(const FrameWriter& write) override {
        ++writes;
        return display.render(write);
    }
    void releaseFrame() override { ++releases; }

    InteropDisplay display;
    int prepares = 0, writes = 0, releases = 0;

private:
    HeadlessEglContext* egl_;
};

const QStringList kInteropTexts = {QStringLiteral("CUDA\u2013GL zero-copy: external memory"),
                                   QStringLiteral("CUDA\u2013GL interop: surface write"),
                                   QStringLiteral("CUDA\u2013GL interop: pixel buffer"),
                                   QStringLiteral("host copy + glTexSubImage2D")};

}  // namespace

class TestInteropDisplay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void path_texts();
    void view_fallback_matches_reference_data();
    void view_fallback_matches_reference();
    void view_interop_live_with_device_data();
    void view_interop_live_with_device();
    void view_survives_reparenting_and_bad_sources();
    void open_without_device_is_unavailable();
    void open_rejects_empty_image();
    void display_renders_reference_with_device();
    void headless_egl_zero_copy();
    void session_runs_each_change_once_on_the_display();

private:
    DisplayPathChoice gl_;
    bool cuda_ = false;
};

#define REQUIRE_GL()                                                                                       \
    do {                                                                                                   \
        if (gl_.path != DisplayPath::OpenGL)                                                               \
            QSKIP(qPrintable(QStringLiteral("no OpenGL for Qt here (%1)").arg(gl_.reason)));               \
    } while (0)

void TestInteropDisplay::initTestCase() {
    gl_ = choose_display_path(false);
    cuda_ = cuda_device_available();
    qInfo("display: %s (%s); CUDA device: %s; built %s the CUDA toolkit", qPrintable(to_string(gl_.path)),
          qPrintable(gl_.reason), cuda_ ? "yes" : "no", CUDAVIZ_HAVE_CUDA ? "with" : "without");
}

void TestInteropDisplay::path_texts() {
    QCOMPARE(int(interop_paths().size()), kInteropTexts.size());
    for (std::size_t i = 0; i < interop_paths().size(); ++i)  // fastest first, each with its own text
        QCOMPARE(interop_path_text(interop_paths()[i]), kInteropTexts[int(i)]);
    QCOMPARE(host_upload_text(false), QStringLiteral("host upload (no CUDA)"));
    QCOMPARE(host_upload_text(true), QStringLiteral("host upload"));
}

void TestInteropDisplay::view_fallback_matches_reference_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<PixelLayout>("layout");
    QTest::addColumn<LaunchShape>("shape");
    QTest::newRow("97x61 interleaved, 1-D 256") << QSize(97, 61) << PixelLayout::Interleaved << LaunchShape::one_d(256);
    QTest::newRow("97x61 planar, 2-D 16x16") << QSize(97, 61) << PixelLayout::Planar << LaunchShape::two_d(16, 16);
    QTest::newRow("130x33 interleaved, 2-D 32x8")
        << QSize(130, 33) << PixelLayout::Interleaved << LaunchShape::two_d(32, 8);
}

// What the window does with a result: the host result (setImage) always, and, when the view says a
// frame can be shown (prepareFrame), the frame written by the session's writer. Without a device:
// the host path, exactly today's pixels.
void TestInteropDisplay::view_fallback_matches_reference() {
    REQUIRE_GL();
    QFETCH(QSize, size);
    QFETCH(PixelLayout, layout);
    QFETCH(LaunchShape, shape);
    const RgbBuffer rgb = to_rgb_buffer(make_test_image(size.width(), size.height(), 3));
    const std::vector<std::uint8_t> want = reference_gray(rgb, layout);

    Rig rig(size);
    QVERIFY(rig.exposed());
    ImageView& view = rig.view();
    QSignalSpy errors(&view, &ImageView::interopError);
    view.grabFramebuffer();  // initialised first: prepareFrame opens at once
    view.setImage(gray_to_qimage(want, rgb.width, rgb.height));
    const bool live = view.prepareFrame(size);
    if (!cuda_) {
        QVERIFY(!live);
        QCOMPARE(view.displayPathText(), QStringLiteral("host upload (no CUDA)"));
        QVERIFY(!view.interopLive());
        QCOMPARE(int(view.writeFrame([](const InteropTarget&) { return Status::ok(); }).kind()), int(ErrorKind::Unavailable));
    } else {
        QVERIFY(live);
        auto frame = frame_of(rgb, layout);
        QVERIFY(frame);
        const Status s = view.writeFrame(writer(*frame, shape));
        QVERIFY2(s.is_ok(), s.message().c_str());
        QVERIFY2(kInteropTexts.contains(view.displayPathText()), qPrintable(view.displayPathText()));
        QVERIFY(view.interopLive());
    }
    std::vector<std::uint8_t> got;
    VERIFY_GRAB(view, size, &got);
    VERIFY_SAME_BYTES(got, want, rgb.width);
    QCOMPARE(errors.count(), 0);
}

void TestInteropDisplay::view_interop_live_with_device_data() {
    QTest::addColumn<PixelLayout>("layout");
    QTest::newRow("interleaved") << PixelLayout::Interleaved;
    QTest::newRow("planar") << PixelLayout::Planar;
}

// With a device the written frame is what is drawn: a host image delivered later (here a wrong one,
// all black, to tell them apart) does not overwrite it; a new frame re-renders; a writer that refuses
// its launch leaves the host image drawn; releasing the frame goes back to the host image.
void TestInteropDisplay::view_interop_live_with_device() {
    REQUIRE_GL();
    if (!cuda_) QSKIP("no CUDA device: the interop path cannot be live here");
    QFETCH(PixelLayout, layout);
    const QSize size(123, 77);
    const RgbBuffer rgb = to_rgb_buffer(make_test_image(size.width(), size.height(), 5));
    const std::vector<std::uint8_t> want = reference_gray(rgb, layout);
    auto frame = frame_of(rgb, layout);
    QVERIFY(frame);

    Rig rig(size);
    QVERIFY(rig.exposed());
    ImageView& view = rig.view();
    QSignalSpy paths(&view, &ImageView::displayPathChanged);
    QSignalSpy errors(&view, &ImageView::interopError);
    view.grabFramebuffer();
    QVERIFY(view.prepareFrame(size));
    QVERIFY(view.writeFrame(writer(*frame, LaunchShape::two_d(16, 16))).is_ok());
    QTRY_VERIFY_WITH_TIMEOUT(!paths.isEmpty(), 120000);
    QVERIFY2(kInteropTexts.contains(view.displayPathText()), qPrintable(view.interopRefusals().join("; ")));
    QCOMPARE(paths.last().at(0).toString(), view.displayPathText());
    QVERIFY(view.interopLive());
    qInfo("live path: %s; refused: %s", qPrintable(view.displayPathText()),
          qPrintable(view.interopRefusals().join("; ")));
    std::vector<std::uint8_t> got;
    VERIFY_GRAB(view, size, &got);
    VERIFY_SAME_BYTES(got, want, rgb.width);
    std::vector<std::uint8_t> texture;
    QVERIFY(view.readInteropFrame(&texture).is_ok());
    VERIFY_SAME_BYTES(texture, want, rgb.width);

    const std::vector<std::uint8_t> black(want.size(), 0);
    view.setImage(gray_to_qimage(black, rgb.width, rgb.height));
    QVERIFY(view.prepareFrame(size));  // the same size: the path is reused
    QVERIFY(view.writeFrame(writer(*frame, LaunchShape::one_d(128))).is_ok());
    QVERIFY(view.interopLive());
    VERIFY_GRAB(view, size, &got);
    VERIFY_SAME_BYTES(got, want, rgb.width);

    // Refused before anything ran: not drawn (the texture may hold nothing); the path stays open.
    QCOMPARE(int(view.writeFrame(writer(*frame, LaunchShape::one_d(4096))).kind()), int(ErrorKind::InvalidInput));
    QVERIFY(!view.interopLive());
    QVERIFY(view.prepareFrame(size));
    QCOMPARE(errors.count(), 0);
    VERIFY_GRAB(view, size, &got);
    VERIFY_SAME_BYTES(got, black, rgb.width);

    QVERIFY(view.writeFrame(writer(*frame, LaunchShape::two_d(32, 8))).is_ok());
    QVERIFY(view.interopLive());
    view.releaseFrame();  // the next result is the host's
    QVERIFY(!view.interopLive());
    QCOMPARE(view.displayPathText(), QStringLiteral("host upload"));
    VERIFY_GRAB(view, size, &got);
    VERIFY_SAME_BYTES(got, black, rgb.width);

    // A writer's own failure is a broken path: reported, closed, not reopened for this size.
    const Status s = view.writeFrame([](const InteropTarget&) { return Status::error(ErrorKind::Device, "the writer failed"); });
    QCOMPARE(int(s.kind()), int(ErrorKind::Device));
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 120000);
    QVERIFY(errors.last().at(0).toString().contains(QStringLiteral("the writer failed")));
    QVERIFY(!view.prepareFrame(size));
    view.closeInterop();  // forgets the refusal: the next prepareFrame opens again
    QVERIFY(view.prepareFrame(size));
}

// The context is replaced when the widget moves to another window (cleanup, then initializeGL):
// nothing leaks or crashes, the picture comes back (the host image: the frame went with the old
// context), and the next frame opens the path in the new context.
void TestInteropDisplay::view_survives_reparenting_and_bad_sources() {
    REQUIRE_GL();
    const QSize size(64, 40);
    const RgbBuffer rgb = to_rgb_buffer(make_test_image(size.width(), size.height(), 7));
    const std::vector<std::uint8_t> want = reference_gray(rgb, PixelLayout::Interleaved);
    auto frame = frame_of(rgb, PixelLayout::Interleaved);
    QVERIFY(frame);

    QWidget window;  // declared first: destroyed after the view, which is not its child yet
    window.resize(400, 300);
    ViewTransform transform;
    transform.setImageSize(size);
    transform.setZoom(2);
    transform.setCenter(QPointF(size.width() / 2.0, size.height() / 2.0));
    auto view = std::make_unique<ImageView>(&transform);
    view->resize(320, 240);
    view->show();
    QVERIFY(cvz::test::wait_exposed(view.get()));
    view->setImage(gray_to_qimage(want, rgb.width, rgb.height));
    view->grabFramebuffer();
    if (view->prepareFrame(size)) QVERIFY(view->writeFrame(writer(*frame, LaunchShape::one_d(256))).is_ok());
    QCOMPARE(view->interopLive(), cuda_);
    std::vector<std::uint8_t> got;
    VERIFY_GRAB(*view, size, &got);
    VERIFY_SAME_BYTES(got, want, rgb.width);

    view->setParent(&window);
    view->move(0, 0);
    view->show();
    window.show();
    QVERIFY(cvz::test::wait_exposed(&window));
    VERIFY_GRAB(*view, size, &got);
    VERIFY_SAME_BYTES(got, want, rgb.width);
    QVERIFY(!view->interopLive());
    QCOMPARE(view->displayPathText(), host_upload_text(cuda_));

    QVERIFY(!view->prepareFrame(QSize()));  // no picture: nothing to open
    if (view->prepareFrame(size)) QVERIFY(view->writeFrame(writer(*frame, LaunchShape::two_d(16, 16))).is_ok());
    QCOMPARE(view->interopLive(), cuda_);
    VERIFY_GRAB(*view, size, &got);
    VERIFY_SAME_BYTES(got, want, rgb.width);
    view.reset();  // destroyed with a path open: cleanup closes it with the context current
}

// InteropDisplay alone in a Qt context: no device (or no toolkit) is Unavailable, says why for every
// path, leaves nothing open, and every later call is refused rather than crashing.
void TestInteropDisplay::open_without_device_is_unavailable() {
    REQUIRE_GL();
    if (cuda_) QSKIP("a CUDA device is present: display_renders_reference_with_device covers it");
    QtContext gl;
    QVERIFY(gl.current);
    InteropDisplay display;
    const Status s = display.open(gl.resolver(), 64, 32);
    QVERIFY(!s);
    QCOMPARE(int(s.kind()), int(ErrorKind::Unavailable));
    qInfo("refused: %s", s.message().c_str());
    QVERIFY(!display.isOpen());
    QCOMPARE(display.textureId(), 0u);
    QVERIFY(display.size().isEmpty());
    QVERIFY(display.pathText().isEmpty());
    QCOMPARE(display.refusals().size(), 4);  // external memory, surface write, pixel buffer, host copy
    int calls = 0;
    const Status r = display.render([&](const InteropTarget&) {
        ++calls;
        return Status::ok();
    });
    QCOMPARE(int(r.kind()), int(ErrorKind::Unavailable));
    QCOMPARE(calls, 0);  // never handed a target that is not there
    QVERIFY(!display.rendered());
    std::vector<std::uint8_t> back;
    QVERIFY(!display.readBack(&back));
    display.close();
    display.close();
    // GL is left clean: no error queued by the attempts.
    QCOMPARE(gl.context.functions()->glGetError(), GLenum(GL_NO_ERROR));
}

void TestInteropDisplay::open_rejects_empty_image() {
    REQUIRE_GL();
    QtContext gl;
    QVERIFY(gl.current);
    InteropDisplay display;
    QCOMPARE(int(display.open(gl.resolver(), 0, 32).kind()), int(ErrorKind::InvalidInput));
    QCOMPARE(int(display.open(InteropDisplay::Resolver(), 16, 16).kind()), int(ErrorKind::Unavailable));
    QVERIFY(!display.isOpen());
}

// With a device, in Qt's context (Mesa here would take the host copy; NVIDIA GL a registered path):
// the texture holds the reference's bytes; a writer refusing its launch comes back as InvalidInput.
void TestInteropDisplay::display_renders_reference_with_device() {
    REQUIRE_GL();
    if (!cuda_) QSKIP("no CUDA device");
    QtContext gl;
    QVERIFY(gl.current);
    const QSize size(101, 57);
    const RgbBuffer rgb = to_rgb_buffer(make_test_image(size.width(), size.height(), 9));
    for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
        const std::vector<std::uint8_t> want = reference_gray(rgb, layout);
        auto frame = frame_of(rgb, layout);
        QVERIFY(frame);
        InteropDisplay display;
        const Status s = display.open(gl.resolver(), rgb.width, rgb.height);
        QVERIFY2(s.is_ok(), s.message().c_str());
        qInfo("path in Qt's context: %s", qPrintable(display.pathText()));
        QVERIFY(!display.rendered());
        const Status r = display.render(writer(*frame, LaunchShape::two_d(16, 16)));
        QVERIFY2(r.is_ok(), r.message().c_str());
        QVERIFY(display.rendered());
        std::vector<std::uint8_t> got;
        QVERIFY(display.readBack(&got).is_ok());
        VERIFY_SAME_BYTES(got, want, rgb.width);
        QCOMPARE(int(display.render(writer(*frame, LaunchShape::one_d(4096))).kind()), int(ErrorKind::InvalidInput));
        QVERIFY(!display.rendered());
        display.close();
    }
}

// On the GPU machine: a headless NVIDIA EGL context, as tst_gl_interop uses, where CUDA can register
// GL can import CUDA's memory: InteropDisplay takes the zero-copy path (first) and what GL holds is the
// reference.
void TestInteropDisplay::headless_egl_zero_copy() {
    if (!cuda_) QSKIP("no CUDA device");
    std::unique_ptr<HeadlessEglContext> egl;
    if (const Status s = HeadlessEglContext::create(&egl); !s)
        QSKIP(qPrintable(QStringLiteral("no headless OpenGL context: %1").arg(QString::fromStdString(s.message()))));
    qInfo("OpenGL: %s", egl->description().c_str());
    const QSize size(1921, 1081);  // odd, past a 1080p frame
    const RgbBuffer rgb = to_rgb_buffer(make_test_image(size.width(), size.height(), 11));
    const std::vector<std::uint8_t> want = reference_gray(rgb, PixelLayout::Interleaved);
    auto frame = frame_of(rgb, PixelLayout::Interleaved);
    QVERIFY(frame);
    InteropDisplay display;
    const Status s = display.open(egl->resolver(), rgb.width, rgb.height);
    QVERIFY2(s.is_ok(), s.message().c_str());
    if (egl->on_cuda_device())
        QVERIFY2(display.path() == InteropPath::ExternalMemory, qPrintable(display.refusals().join("; ")));
    QCOMPARE(display.bufferTextureId() != 0, display.path() == InteropPath::ExternalMemory);
    for (const LaunchShape& shape : {LaunchShape::one_d(256), LaunchShape::two_d(32, 8)}) {
        const Status r = display.render(writer(*frame, shape));
        QVERIFY2(r.is_ok(), r.message().c_str());
        std::vector<std::uint8_t> got;
        QVERIFY(display.readBack(&got).is_ok());
        VERIFY_SAME_BYTES(got, want, rgb.width);
    }
    display.close();  // with the EGL context still current
}

// Invariant 4 end to end, on the GPU machine: a session whose frame sink is an interop display runs
// each change of launch once, on the display (the grayscale GPU launch counter moves by exactly the
// number of changes: no worker run besides), and its result (timing, bytes for the inspector) is
// that run's, equal to the CPU reference; the texture holds the same bytes. Every variant of the
// catalogue, and a change of layout, are changes.
void TestInteropDisplay::session_runs_each_change_once_on_the_display() {
    if (!cuda_) QSKIP("no CUDA device: without one every run is the worker's emulator run");
    std::unique_ptr<HeadlessEglContext> egl;
    if (const Status s = HeadlessEglContext::create(&egl); !s)
        QSKIP(qPrintable(QStringLiteral("no headless OpenGL context: %1").arg(QString::fromStdString(s.message()))));
    EglFrameSink sink(egl.get());
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setFrameSink(&sink);
    session.setBackend(BackendChoice::Cuda);
    session.setShape(LaunchShape::one_d(256));
    const QImage image = make_test_image(203, 117, 13);
    const RgbBuffer rgb = to_rgb_buffer(image);
    session.setImage(image);
    QTRY_VERIFY_WITH_TIMEOUT(session.completedRuns() == 1 && !session.running(), 60000);
    QVERIFY(session.lastResult().displayed);
    QVERIFY2(sink.display.isOpen(), qPrintable(sink.display.refusals().join("; ")));
    qInfo("display path: %s", qPrintable(sink.display.pathText()));

    QList<QPair<LaunchShape, PixelLayout>> changes;
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        const Dim3 block = k.block == BlockRule::OneD ? Dim3{96, 1, 1} : k.block == BlockRule::Fixed ? k.fixed_block : Dim3{16, 8, 1};
        changes << qMakePair(LaunchShape::of(GrayscaleVariant(k.variant), block), PixelLayout::Interleaved);
    }
    changes << qMakePair(changes.last().first, PixelLayout::Planar);  // the layout alone changes
    const std::uint64_t launches = grayscale_gpu_launches();
    const int writes = sink.writes;
    int runs = session.completedRuns();
    for (const auto& [shape, layout] : changes) {
        session.setShape(shape);
        session.setLayout(layout);
        QTRY_VERIFY_WITH_TIMEOUT(session.completedRuns() == runs + 1 && !session.running(), 60000);
        ++runs;
        const QString what = QString::fromStdString(grayscale_variant_info(shape.kind)->name + " " + to_string(shape)) +
                             (layout == PixelLayout::Planar ? " planar" : " interleaved");
        QVERIFY2(session.lastResult().displayed, qPrintable(what));
        QVERIFY(session.resultShape() == shape);
        QCOMPARE(session.resultLayout(), layout);
        const std::vector<std::uint8_t> want = reference_gray(rgb, layout);
        const QImage got = session.result();
        std::vector<std::uint8_t> bytes(want.size());
        for (int y = 0; y < got.height(); ++y)
            std::memcpy(&bytes[std::size_t(y) * rgb.width], got.constScanLine(y), rgb.width);
        QVERIFY2(first_differences(bytes, want, rgb.width).isEmpty(), qPrintable(what));
        std::vector<std::uint8_t> texture;
        QVERIFY(sink.display.readBack(&texture).is_ok());
        VERIFY_SAME_BYTES(texture, want, rgb.width);
    }
    QCOMPARE(grayscale_gpu_launches() - launches, std::uint64_t(changes.size()));
    QCOMPARE(sink.writes - writes, int(changes.size()));
    QCOMPARE(sink.releases, 0);  // no result came from the host
    QVERIFY(test::drain(jobs, 60000));  // and nothing ran on the worker meanwhile
    QCOMPARE(grayscale_gpu_launches() - launches, std::uint64_t(changes.size()));
    session.setFrameSink(nullptr);
}

QTEST_MAIN(TestInteropDisplay)
#include "tst_interop_display.moc"
