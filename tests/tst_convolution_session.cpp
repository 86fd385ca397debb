// The convolution session without widgets: a picture's grayscale is the kernels' input, every launch
// change runs once and gives the reference's bytes (any variant, block or mask), a newer request
// supersedes queued ones, a bad launch is refused with the validator's reason, and the traced launch
// records the mask's reads. Every wait is on a typed signal; nothing sleeps.
#include <QtTest>

#include <QImage>
#include <QSignalSpy>

#include <cstring>

#include "app/convolution/convolution_session.h"
#include "app/jobs/job_runner.h"
#include "app/io/rgb_buffer.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_problem.h"
#include "kernels/convolution/convolution_reference.h"

using namespace cvz;

namespace {

constexpr int kRunTimeoutMs = 120000;

QImage make_picture(int width, int height) {
    QImage image(width, height, QImage::Format_RGB888);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) image.setPixel(x, y, qRgb((x * 7 + y) % 256, (y * 11) % 256, (x * y + 5) % 256));
    return image;
}

// The float32 reference's output for `image` and `mask`: what every variant must give bit for bit.
std::vector<float> reference(const QImage& image, const ConvolutionMask& mask) {
    const RgbBuffer rgb = to_rgb_buffer(image);
    const std::vector<std::uint8_t> gray = convolution_input(rgb.bytes.data(), rgb.width, rgb.height, PixelLayout::Interleaved);
    std::vector<float> out(gray.size());
    ConvolutionProblem p;
    p.gray = gray.data();
    p.mask = mask.values.data();
    p.out = out.data();
    p.width = rgb.width;
    p.height = rgb.height;
    p.mask_side = mask.side;
    convolution_reference(p);
    return out;
}

bool same_bytes(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

class TestConvolutionSession : public QObject {
    Q_OBJECT
private slots:
    void every_variant_gives_the_reference_bytes_data();
    void every_variant_gives_the_reference_bytes();
    void a_mask_change_runs_again_with_the_new_mask();
    void the_grayscale_of_the_picture_is_the_input();
    void a_refused_launch_says_why_and_keeps_the_result();
    void the_plan_follows_the_block();
    void the_traced_launch_reads_the_mask();
};

void TestConvolutionSession::every_variant_gives_the_reference_bytes_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("bx");
    QTest::addColumn<int>("by");
    QTest::addColumn<QString>("mask");
    const ConvolutionLaunch any;
    for (const KernelInfo& k : family_catalogue(any.ref().family)) {
        const QString name = QString::fromStdString(k.name);
        QTest::addRow("%s 16x16 gauss5", k.name.c_str()) << name << 16 << 16 << "gauss5";
        QTest::addRow("%s 7x5 sobel_x", k.name.c_str()) << name << 7 << 5 << "sobel_x";
        QTest::addRow("%s 32x1 box3", k.name.c_str()) << name << 32 << 1 << "box3";
    }
}

void TestConvolutionSession::every_variant_gives_the_reference_bytes() {
    QFETCH(QString, variant);
    QFETCH(int, bx);
    QFETCH(int, by);
    QFETCH(QString, mask);
    JobRunner jobs;
    ConvolutionSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QVERIFY(session.setNamedMask(mask));
    const KernelInfo* info = find_kernel(ConvolutionLaunch{}.ref().family, variant.toStdString());
    QVERIFY(info);
    session.setLaunch(ConvolutionLaunch::of(ConvolutionVariant(info->variant), Dim3{unsigned(bx), unsigned(by), 1}));
    QSignalSpy finished(&session, &ConvolutionSession::runFinished);
    const QImage picture = make_picture(43, 29);  // odd, non-square, not a multiple of any block
    session.setImage(picture);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.completedRuns(), 1);
    QVERIFY(same_bytes(session.output(), reference(picture, session.mask())));
    QCOMPARE(session.result().size(), picture.size());
}

void TestConvolutionSession::a_mask_change_runs_again_with_the_new_mask() {
    JobRunner jobs;
    ConvolutionSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &ConvolutionSession::runFinished);
    const QImage picture = make_picture(31, 1);  // a 1xN picture: every window reaches outside it
    session.setImage(picture);
    QVERIFY(finished.wait(kRunTimeoutMs));
    const std::vector<float> before = session.output();
    QVERIFY(session.setNamedMask(QStringLiteral("laplacian")));
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.maskName(), QStringLiteral("laplacian"));
    QVERIFY(!same_bytes(before, session.output()));
    QVERIFY(same_bytes(session.output(), reference(picture, session.mask())));
    QVERIFY(!session.setNamedMask(QStringLiteral("no_such_mask")));
    QCOMPARE(session.maskName(), QStringLiteral("laplacian"));
    ConvolutionMask even;
    even.side = 4;
    even.values.assign(16, 1.0f);
    QVERIFY(!session.setMask(even, QStringLiteral("even.npy")));  // refused: the side must be odd
    QCOMPARE(session.mask().side, 3u);
}

void TestConvolutionSession::the_grayscale_of_the_picture_is_the_input() {
    JobRunner jobs;
    ConvolutionSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    const QImage picture = make_picture(5, 17);
    QSignalSpy finished(&session, &ConvolutionSession::runFinished);
    session.setImage(picture);
    const RgbBuffer rgb = to_rgb_buffer(picture);
    const std::vector<std::uint8_t> gray = convolution_input(rgb.bytes.data(), rgb.width, rgb.height, PixelLayout::Interleaved);
    const QImage shown = session.grayImage();
    QCOMPARE(shown.size(), picture.size());
    for (int y = 0; y < shown.height(); ++y)
        for (int x = 0; x < shown.width(); ++x) QCOMPARE(qGray(shown.pixel(x, y)), int(gray[std::size_t(y) * 5 + std::size_t(x)]));
    QVERIFY(finished.wait(kRunTimeoutMs));
}

void TestConvolutionSession::a_refused_launch_says_why_and_keeps_the_result() {
    JobRunner jobs;
    ConvolutionSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &ConvolutionSession::runFinished);
    QSignalSpy failed(&session, &ConvolutionSession::runFailed);
    session.setImage(make_picture(19, 13));
    QVERIFY(finished.wait(kRunTimeoutMs));
    const std::vector<float> good = session.output();
    session.setLaunch(ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{64, 32, 1}));  // 2048 threads
    QVERIFY(!session.launchError().isEmpty());
    QVERIFY(!session.hasPlan());
    QVERIFY(failed.wait(kRunTimeoutMs));
    QVERIFY(!failed.takeFirst().at(0).toString().isEmpty());
    QVERIFY(same_bytes(session.output(), good));  // the last good result stays
}

void TestConvolutionSession::the_plan_follows_the_block() {
    JobRunner jobs;
    ConvolutionSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &ConvolutionSession::runFinished);
    session.setImage(make_picture(37, 23));
    session.setLaunch(ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{8, 4, 1}));
    QVERIFY(session.hasPlan());
    QCOMPARE(session.plan().grid, (Dim3{5, 6, 1}));  // cdiv(37, 8) x cdiv(23, 4)
    QCOMPARE(session.plan().blocks, std::uint64_t(30));
    QCOMPARE(session.plan().idle_threads, std::uint64_t(40 * 24 - 37 * 23));
    QCOMPARE(session.choice().block, (Dim3{8, 4, 1}));
    QVERIFY(finished.wait(kRunTimeoutMs));
}

void TestConvolutionSession::the_traced_launch_reads_the_mask() {
    JobRunner jobs;
    ConvolutionSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &ConvolutionSession::runFinished);
    session.setImage(make_picture(21, 11));
    QVERIFY(finished.wait(kRunTimeoutMs));
    const TraceResult traced = session.traceJob()(TraceOptions{});
    QVERIFY2(traced.status, traced.status.message().c_str());
    bool mask_read = false;
    for (const auto& buffer : traced.trace.buffers) mask_read |= buffer.name == "mask";
    QVERIFY(mask_read);
}

QTEST_GUILESS_MAIN(TestConvolutionSession)
#include "tst_convolution_session.moc"
