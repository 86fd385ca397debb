// The grayscale session without widgets (builds with CUDAVIZ_BUILD_GUI=OFF): loading a picture, a
// launch change planning and running once, a newer request superseding queued ones, the animation
// steps and the selection, the backend policy, and the launch count that proves the kernel runs
// once per change. Every wait is on a typed signal; nothing reads status text or sleeps.
#include <QtTest>

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <condition_variable>
#include <mutex>

#include "app/jobs/backend_choice.h"
#include "app/jobs/frame_sink.h"
#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/io/rgb_buffer.h"
#include "kernels/grayscale/grayscale_launch_count.h"
#include "kernels/grayscale/grayscale_reference.h"

using namespace cvz;

namespace {

constexpr int kRunTimeoutMs = 60000;

// An odd, non-square picture with distinct channels, so a swapped index or layout shows.
QImage make_picture(int width = 37, int height = 23) {
    QImage image(width, height, QImage::Format_RGB888);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) image.setPixel(x, y, qRgb((x * 7) % 256, (y * 11) % 256, (x * y + 5) % 256));
    return image;
}

// The CPU reference's bytes for `image`: what every backend and shape must give.
QImage reference_gray(const QImage& image) {
    const RgbBuffer rgb = to_rgb_buffer(image);
    std::vector<std::uint8_t> gray(std::size_t(rgb.width) * rgb.height);
    grayscale_reference(GrayscaleImage{rgb.bytes.data(), gray.data(), rgb.width, rgb.height, PixelLayout::Interleaved});
    return gray_to_qimage(gray, rgb.width, rgb.height);
}

bool same_pixels(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return false;
    for (int y = 0; y < a.height(); ++y)
        if (std::memcmp(a.constScanLine(y), b.constScanLine(y), std::size_t(a.width())) != 0) return false;
    return true;
}

// Holds the worker until release(): requests queued meanwhile show what supersession keeps.
class WorkerGate {
public:
    explicit WorkerGate(JobRunner* jobs) {
        jobs->submit(QStringLiteral("test-gate"), nullptr, [this]() -> JobRunner::Continuation {
            std::unique_lock<std::mutex> lock(mutex_);
            entered_ = true;
            wake_.notify_all();
            wake_.wait(lock, [this] { return open_; });
            left_ = true;
            wake_.notify_all();
            return {};
        });
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return entered_; });
    }
    // Waits until the worker has left the gate: it must not wake on a mutex this destructor frees
    // (it hung 2 runs in 8 on a loaded machine when the gate went first).
    ~WorkerGate() {
        release();
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return left_; });
    }
    void release() {
        std::lock_guard<std::mutex> lock(mutex_);
        open_ = true;
        wake_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool entered_ = false;
    bool open_ = false;
    bool left_ = false;
};

}  // namespace

class TestGrayscaleSession : public QObject {
    Q_OBJECT
private slots:
    void loadsAPictureAndRunsOnce();
    void badFileKeepsThePicture();
    void shapeChangePlansAndRunsOnce();
    void sameShapeRunsNothing();
    void invalidShapeFailsAndKeepsTheResult();
    void newerRequestsSupersedeQueuedOnes();
    void everyBackendAndLayoutGivesTheReference_data();
    void everyBackendAndLayoutGivesTheReference();
    void backendPolicy();
    void animationStepsAndSelection();
    void deviceProfileChangesWavesNotTheOutput();
    void cudaRunsOncePerChange();
    void declinedFrameSinkLeavesRunsOnTheWorker();
};

void TestGrayscaleSession::loadsAPictureAndRunsOnce() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("odd.png"));
    const QImage picture = make_picture();
    QVERIFY(picture.save(path));

    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy loaded(&session, &GrayscaleSession::imageChanged);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.openFile(path);
    QVERIFY(loaded.wait(kRunTimeoutMs));
    QCOMPARE(session.file(), path);
    QCOMPARE(session.imageSize(), picture.size());
    QVERIFY(session.hasPlan());
    QCOMPARE(session.plan().width, std::uint32_t(37));
    QVERIFY(finished.count() == 1 || finished.wait(kRunTimeoutMs));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QCOMPARE(session.completedRuns(), 1);
    QVERIFY(same_pixels(session.result(), reference_gray(picture)));
    QVERIFY(!session.running());
}

void TestGrayscaleSession::badFileKeepsThePicture() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    const QImage picture = make_picture();
    session.setImage(picture, QStringLiteral("first"));
    QSignalSpy failed(&session, &GrayscaleSession::loadFailed);
    QSignalSpy changed(&session, &GrayscaleSession::imageChanged);
    session.openFile(QStringLiteral("/nonexistent/none.png"));
    QVERIFY(failed.wait(kRunTimeoutMs));
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("/nonexistent/none.png"));
    QVERIFY2(failed.at(0).at(1).toString().contains(QStringLiteral("none.png")), qPrintable(failed.at(0).at(1).toString()));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(session.file(), QStringLiteral("first"));
    QCOMPARE(session.imageSize(), picture.size());
}

void TestGrayscaleSession::shapeChangePlansAndRunsOnce() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture());
    QVERIFY(finished.wait(kRunTimeoutMs));
    const std::uint64_t launches = session.launchCount();

    QSignalSpy shape(&session, &GrayscaleSession::shapeChanged);
    QSignalSpy plan(&session, &GrayscaleSession::planChanged);
    session.setShape(LaunchShape::two_d(8, 4));
    QCOMPARE(shape.count(), 1);
    QVERIFY(plan.count() >= 1);
    // The plan follows at once, before the run: the overlay needs no result.
    QCOMPARE(session.plan().grid.x, 5u);  // cdiv(37, 8)
    QCOMPARE(session.plan().grid.y, 6u);  // cdiv(23, 4)
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), launches + 1);
    QVERIFY2(session.lastResult().shape_text.contains(QStringLiteral("8x4")), qPrintable(session.lastResult().shape_text));
    QVERIFY(same_pixels(session.result(), reference_gray(session.image())));
}

void TestGrayscaleSession::sameShapeRunsNothing() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy started(&session, &GrayscaleSession::runStarted);
    session.setImage(make_picture());
    QCOMPARE(started.count(), 1);
    session.setShape(session.shape());
    session.setLayout(session.layout());
    session.setBackend(session.backend());
    QCOMPARE(started.count(), 1);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(1));
}

void TestGrayscaleSession::invalidShapeFailsAndKeepsTheResult() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture());
    QVERIFY(finished.wait(kRunTimeoutMs));
    const QImage before = session.result();
    QSignalSpy failed(&session, &GrayscaleSession::runFailed);
    session.setShape(LaunchShape::two_d(64, 32));  // 2048 threads: more than CUDA allows
    QVERIFY(!session.hasPlan());
    QVERIFY(failed.wait(kRunTimeoutMs));
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("1024")), qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(session.launchCount(), std::uint64_t(1));  // refused before any launch
    QVERIFY(same_pixels(session.result(), before));
}

void TestGrayscaleSession::newerRequestsSupersedeQueuedOnes() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    {
        WorkerGate gate(&jobs);
        session.setImage(make_picture());
        // A slider drag: five shapes while the worker is busy. Only the last may run.
        for (unsigned x : {4u, 8u, 16u, 32u, 24u}) session.setShape(LaunchShape::two_d(x, 8));
        QVERIFY(session.running());
    }
    QVERIFY(finished.wait(kRunTimeoutMs));
    QTRY_VERIFY_WITH_TIMEOUT(!session.running(), kRunTimeoutMs);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QVERIFY2(session.lastResult().shape_text.contains(QStringLiteral("24x8")), qPrintable(session.lastResult().shape_text));
}

void TestGrayscaleSession::everyBackendAndLayoutGivesTheReference_data() {
    QTest::addColumn<int>("layout");
    QTest::addColumn<QString>("shape");
    QTest::newRow("interleaved 2-D 16x16") << int(PixelLayout::Interleaved) << QStringLiteral("16x16");
    QTest::newRow("planar 2-D 7x5") << int(PixelLayout::Planar) << QStringLiteral("7x5");
    QTest::newRow("planar 1-D 96") << int(PixelLayout::Planar) << QStringLiteral("96");
    QTest::newRow("interleaved 1-D 33") << int(PixelLayout::Interleaved) << QStringLiteral("33");
}

void TestGrayscaleSession::everyBackendAndLayoutGivesTheReference() {
    QFETCH(int, layout);
    QFETCH(QString, shape);
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    session.setLayout(PixelLayout(layout));
    session.setShape(shape.contains(QLatin1Char('x'))
                         ? LaunchShape::two_d(shape.section(QLatin1Char('x'), 0, 0).toUInt(), shape.section(QLatin1Char('x'), 1).toUInt())
                         : LaunchShape::one_d(shape.toUInt()));
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QVERIFY(same_pixels(session.result(), reference_gray(session.image())));
}

void TestGrayscaleSession::backendPolicy() {
    QCOMPARE(GrayscaleSession::resolve(BackendChoice::Cpu), BackendChoice::Cpu);
    QCOMPARE(GrayscaleSession::resolve(BackendChoice::Cuda), BackendChoice::Cuda);
    QCOMPARE(GrayscaleSession::resolve(BackendChoice::Auto),
             cuda_device_available() ? BackendChoice::Cuda : BackendChoice::Cpu);

    JobRunner jobs;
    GrayscaleSession session(&jobs);
    QCOMPARE(session.backend(), BackendChoice::Auto);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY2(session.lastResult().backend.startsWith(QStringLiteral("CPU emulator")), qPrintable(session.lastResult().backend));

    // Changing the backend re-runs once, on the backend Auto resolves to.
    QSignalSpy backend(&session, &GrayscaleSession::backendChanged);
    session.setBackend(BackendChoice::Auto);
    QCOMPARE(backend.count(), 1);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(2));
    QCOMPARE(session.lastResult().backend.startsWith(QStringLiteral("CUDA")), cuda_device_available());
    QVERIFY(same_pixels(session.result(), reference_gray(session.image())));
}

void TestGrayscaleSession::animationStepsAndSelection() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    session.setShape(LaunchShape::two_d(8, 8));
    session.setImage(make_picture());  // grid 5 x 3 = 15 blocks
    QCOMPARE(session.plan().blocks, std::uint64_t(15));
    QCOMPARE(session.animationSteps(), std::uint64_t(0));

    QSignalSpy frame(&session, &GrayscaleSession::frameChanged);
    session.setAnimationMode(AnimationMode::Waves);
    QCOMPARE(session.animationSteps(), std::uint64_t(session.waves().waves));
    QVERIFY(frame.count() >= 1);
    frame.clear();
    session.setAnimationPosition(1000);  // clamped to "done"
    QCOMPARE(session.animationPosition(), session.animationSteps());
    QCOMPARE(frame.count(), 1);
    session.setAnimationPosition(session.animationSteps());  // no change, no signal
    QCOMPARE(frame.count(), 1);

    // The selected pixel picks its block; the Warps animation steps through that block's warps.
    session.select(QPoint(20, 10));  // block (2, 1): linear 1 * 5 + 2
    QCOMPARE(session.selectedBlock(), std::int64_t(7));
    session.setAnimationMode(AnimationMode::Warps);
    QCOMPARE(session.animationSteps(), std::uint64_t(session.plan().warps_per_block));  // 64 threads: 2 warps
    QCOMPARE(session.animationSteps(), std::uint64_t(2));
    session.setAnimationPosition(1);
    QCOMPARE(session.frame().block, std::int64_t(7));
    QCOMPARE(session.frame().warp_done_end, std::uint64_t(1));
    session.select(QPoint(0, 0));  // another block: back to its first warp
    QCOMPARE(session.selectedBlock(), std::int64_t(0));
    QCOMPARE(session.animationPosition(), std::uint64_t(0));
    session.select(QPoint(-1, -1));
    QCOMPARE(session.selectedBlock(), std::int64_t(-1));
}

void TestGrayscaleSession::deviceProfileChangesWavesNotTheOutput() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture(300, 200));
    QVERIFY(finished.wait(kRunTimeoutMs));
    DeviceProfile small = session.device();
    small.sm_count = 2;
    QSignalSpy plan(&session, &GrayscaleSession::planChanged);
    QSignalSpy started(&session, &GrayscaleSession::runStarted);
    session.setDevice(small);
    QCOMPARE(plan.count(), 1);
    QCOMPARE(session.waves().sm_count, 2);
    QVERIFY(session.waves().waves > 1);
    QCOMPARE(started.count(), 0);  // the model changed, the output did not: no run
    QCOMPARE(session.launchCount(), std::uint64_t(1));
}

// On a machine with a CUDA device: each change runs the GPU kernel exactly once (the run that is
// shown is the run that is timed). Without one, the emulator tests above prove the same count.
void TestGrayscaleSession::cudaRunsOncePerChange() {
    if (!cuda_device_available()) QSKIP("no CUDA device");
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    session.setBackend(BackendChoice::Cuda);
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture(301, 199));
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QVERIFY(session.lastResult().backend.startsWith(QStringLiteral("CUDA")));
    const LaunchShape shapes[] = {LaunchShape::one_d(256), LaunchShape::two_d(32, 8), LaunchShape::two_d(7, 5)};
    std::uint64_t expected = 1;
    for (const LaunchShape& shape : shapes) {
        session.setShape(shape);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(session.launchCount(), ++expected);
        QVERIFY(same_pixels(session.result(), reference_gray(session.image())));
    }
    session.setLayout(PixelLayout::Planar);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), ++expected);
}

namespace {

// A display that never has a path open (no CUDA, no GL that CUDA shares): it counts what it is asked.
struct DecliningSink : FrameSink {
    int prepares = 0, writes = 0, releases = 0;
    bool prepareFrame(QSize) override {
        ++prepares;
        return false;
    }
    Status writeFrame(const FrameWriter&) override {
        ++writes;
        return Status::error(ErrorKind::Unavailable, "no path");
    }
    void releaseFrame() override { ++releases; }
};

}  // namespace

// A frame sink that cannot show a frame changes nothing: each change still runs once, on the
// worker, and its host result is what the display is told to show (releaseFrame). Only the CUDA
// backend asks the display at all; the emulator's result is always the host's. Here (no device) Auto
// is the CPU: no GPU launch, the sink never asked to prepare; on the GPU machine the sink is asked
// once per change and the worker's CUDA run is the one launch.
void TestGrayscaleSession::declinedFrameSinkLeavesRunsOnTheWorker() {
    JobRunner jobs;
    GrayscaleSession session(&jobs);
    DecliningSink sink;
    session.setFrameSink(&sink);
    QCOMPARE(session.frameSink(), static_cast<FrameSink*>(&sink));
    const bool cuda = GrayscaleSession::resolve(session.backend()) == BackendChoice::Cuda;
    const std::uint64_t gpu_before = grayscale_gpu_launches();
    QSignalSpy finished(&session, &GrayscaleSession::runFinished);
    session.setImage(make_picture(53, 29));
    QVERIFY(finished.wait(kRunTimeoutMs));
    const LaunchShape shapes[] = {LaunchShape::one_d(96), LaunchShape::two_d(8, 4), LaunchShape::of(GrayscaleVariant::Gray1dX4, Dim3{32, 1, 1})};
    for (const LaunchShape& shape : shapes) {
        session.setShape(shape);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY(!session.lastResult().displayed);
        QVERIFY(same_pixels(session.result(), reference_gray(session.image())));
    }
    const int runs = 1 + int(std::size(shapes));
    QCOMPARE(session.launchCount(), std::uint64_t(runs));
    QCOMPARE(sink.releases, runs);  // every result came from the host
    QCOMPARE(sink.writes, 0);
    QCOMPARE(sink.prepares, cuda ? runs : 0);
    // Each CUDA run launches once for its result and then times warm launches (the median after a
    // warm-up, app/kernel_times.h): at least one launch per run on the GPU, none without CUDA.
    const std::uint64_t launched = grayscale_gpu_launches() - gpu_before;
    if (cuda) QVERIFY2(launched >= std::uint64_t(runs), qPrintable(QString::number(launched)));
    else QCOMPARE(launched, std::uint64_t(0));
    session.setFrameSink(nullptr);
}

QTEST_GUILESS_MAIN(TestGrayscaleSession)
#include "tst_grayscale_session.moc"
