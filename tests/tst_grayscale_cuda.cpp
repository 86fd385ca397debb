// The grayscale kernel on the GPU against the emulator, byte for byte, over both kernels, both
// layouts, many block shapes and odd sizes; and the GPU's error paths: launches our validator
// refuses, launches CUDA itself refuses, allocations larger than the device, a missing device.
// Cases that need a device QSKIP without one (CI); the same program runs on the lent GPU.
#include <QtTest>

#include <algorithm>
#include <random>
#include <vector>

#include "support/cuda_probe.h"
#include "kernels/grayscale/grayscale_cuda.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_variants.h"

#if CUDAVIZ_HAVE_CUDA
#include "kernels/cuda/cuda_stream.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/grayscale/grayscale_device_launch.h"
#endif

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::Dim3)

namespace {

const std::uint8_t kPoison = 0xA5;

std::vector<std::uint8_t> random_rgb(std::uint64_t pixels, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> v(3 * pixels);
    for (auto& b : v) b = std::uint8_t(byte(rng));
    return v;
}

QString shape_name(const LaunchShape& s) {
    const KernelInfo* k = grayscale_variant_info(s.kind);
    return QString("%1 %2").arg(k ? QString::fromStdString(k->name) : QString("?")).arg(QString::fromStdString(to_string(s)));
}

// "" when equal, else where the first few differences are.
QString first_differences(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want,
                          std::uint32_t width) {
    QString out;
    int shown = 0;
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < got.size(); ++i) {
        if (got[i] == want[i]) continue;
        ++count;
        if (shown++ < 5)
            out += QString(" (x %1, y %2): %3 vs %4;").arg(i % width).arg(i / width).arg(got[i]).arg(want[i]);
    }
    return count ? QString("%1 pixels differ:%2").arg(count).arg(out) : QString();
}

}  // namespace

class TestGrayscaleCuda : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void gpu_matches_emulator_data();
    void gpu_matches_emulator();
    void validator_refuses_before_the_gpu_data();
    void validator_refuses_before_the_gpu();
    void cuda_refuses_launch_data();
    void cuda_refuses_launch();
    void allocation_larger_than_device();
    void missing_device_is_a_status();
    void no_device_is_unavailable();
    void timings_are_measured();

private:
    bool has_device_ = false;
    QString no_device_;
    std::uint64_t device_bytes_ = 0;
};

#define REQUIRE_DEVICE() \
    if (!has_device_) QSKIP(qPrintable(no_device_))

void TestGrayscaleCuda::initTestCase() {
    const test::CudaProbe probe = test::probe_cuda_device();
    has_device_ = probe.has_device;
    no_device_ = probe.no_device;
    device_bytes_ = probe.device_bytes;
}

void TestGrayscaleCuda::gpu_matches_emulator_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("layout");
    // 3x70001: more rows than gridDim.y's 65535 blocks of one row reach (2-D grid-stride loop), and
    // more than 65535 blocks in x for small 1-D blocks.
    const QList<QPair<int, int>> sizes = {{1, 1}, {1, 257}, {263, 1}, {97, 33}, {451, 300}, {3, 70001}};
    // Every variant of the catalogue, over blocks of its launch rule.
    QList<LaunchShape> shapes;
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        QList<Dim3> blocks;
        if (k.block == BlockRule::OneD) blocks = {Dim3{1, 1, 1}, Dim3{32, 1, 1}, Dim3{33, 1, 1}, Dim3{256, 1, 1}, Dim3{1024, 1, 1}};
        else if (k.block == BlockRule::Fixed) blocks = {k.fixed_block};
        else blocks = {Dim3{16, 16, 1}, Dim3{32, 8, 1}, Dim3{7, 3, 1}, Dim3{1, 1, 1}, Dim3{32, 32, 1}};
        for (const Dim3& b : blocks) shapes << LaunchShape::of(GrayscaleVariant(k.variant), b);
    }
    for (auto [w, h] : sizes)
        for (const LaunchShape& s : shapes)
            for (int layout : {0, 1})
                if (validate_grayscale_layout(s, layout ? PixelLayout::Planar : PixelLayout::Interleaved).empty())
                QTest::newRow(qPrintable(QString("%1x%2 %3 %4").arg(w).arg(h).arg(shape_name(s)).arg(layout ? "planar" : "interleaved")))
                    << w << h << s << layout;
}

void TestGrayscaleCuda::gpu_matches_emulator() {
    REQUIRE_DEVICE();
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(LaunchShape, shape);
    QFETCH(int, layout);
    const std::uint32_t w = std::uint32_t(width), h = std::uint32_t(height);
    const std::uint64_t n = std::uint64_t(w) * h;
    const auto interleaved = random_rgb(n, w * 7919u + h);
    const auto input = layout ? interleaved_to_planar(interleaved.data(), n) : interleaved;
    const PixelLayout pl = layout ? PixelLayout::Planar : PixelLayout::Interleaved;

    std::vector<std::uint8_t> emulated(n, kPoison), gpu(n, kPoison), reference(n, kPoison);
    const Status se = grayscale_emulated({input.data(), emulated.data(), w, h, pl}, shape);
    QVERIFY2(se.is_ok(), se.message().c_str());
    const Status sg = grayscale_cuda({input.data(), gpu.data(), w, h, pl}, shape);
    QVERIFY2(sg.is_ok(), sg.message().c_str());
    QString diff = first_differences(gpu, emulated, w);
    QVERIFY2(diff.isEmpty(), qPrintable("GPU vs emulator: " + diff));
    grayscale_reference({input.data(), reference.data(), w, h, pl});
    diff = first_differences(gpu, reference, w);
    QVERIFY2(diff.isEmpty(), qPrintable("GPU vs CPU reference: " + diff));
}

void TestGrayscaleCuda::validator_refuses_before_the_gpu_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("width");
    QTest::addColumn<QString>("message");
    QTest::newRow("1-D 1025 threads") << LaunchShape::one_d(1025) << 8 << "blockDim.x = 1025";
    QTest::newRow("2-D 64x32") << LaunchShape::two_d(64, 32) << 8 << "2048 threads exceeds";
    QTest::newRow("2-D 0x4") << LaunchShape::two_d(0, 4) << 8 << "blockDim.x = 0";
    QTest::newRow("empty image") << LaunchShape::one_d(256) << 0 << "empty";
}

// Our validator answers before any CUDA call, so these hold on a machine without a GPU as well.
void TestGrayscaleCuda::validator_refuses_before_the_gpu() {
#if !CUDAVIZ_HAVE_CUDA
    QSKIP("built without the CUDA toolkit");
#endif
    QFETCH(LaunchShape, shape);
    QFETCH(int, width);
    QFETCH(QString, message);
    std::vector<std::uint8_t> rgb(3 * 64, 1), gray(64, kPoison);
    const Status s = grayscale_cuda({rgb.data(), gray.data(), std::uint32_t(width), 8, PixelLayout::Interleaved}, shape);
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(s.message()).contains(message), s.message().c_str());
    QVERIFY(std::all_of(gray.begin(), gray.end(), [](std::uint8_t g) { return g == kPoison; }));
}

void TestGrayscaleCuda::cuda_refuses_launch_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<Dim3>("grid");
    QTest::addColumn<Dim3>("block");
    QTest::addColumn<int>("shared_bytes");
    QTest::addColumn<QStringList>("errors");  // CUDA's error names, any of which is right
    // CUDA 13 with driver 580 answers cudaErrorInvalidValue where older releases said
    // cudaErrorInvalidConfiguration (seen on the H200): either is CUDA's own refusal.
    const QStringList config{"cudaErrorInvalidConfiguration", "cudaErrorInvalidValue"};
    QTest::newRow("1-D block of 2048 threads") << 0 << Dim3{1, 1, 1} << Dim3{2048, 1, 1} << 0 << config;
    QTest::newRow("2-D block 64x32 = 2048 threads") << 1 << Dim3{1, 1, 1} << Dim3{64, 32, 1} << 0 << config;
    QTest::newRow("blockDim.z = 65") << 1 << Dim3{1, 1, 1} << Dim3{1, 1, 65} << 0 << config;
    QTest::newRow("blockDim.x = 0") << 0 << Dim3{1, 1, 1} << Dim3{0, 1, 1} << 0 << config;
    QTest::newRow("gridDim.y = 65536") << 1 << Dim3{1, 65536, 1} << Dim3{1, 1, 1} << 0 << config;
    QTest::newRow("gridDim.x = 0") << 0 << Dim3{0, 1, 1} << Dim3{32, 1, 1} << 0 << config;
    // Beyond the 48 KiB a kernel gets without opting in, and beyond the 227 KiB of any block on Hopper.
    QTest::newRow("1 MiB of dynamic shared memory")
        << 0 << Dim3{1, 1, 1} << Dim3{32, 1, 1} << (1 << 20) << config;
}

// Launches past the limits with our validation bypassed: the Status carries CUDA's own refusal, the
// refusal is not sticky, and the next good launch on the same buffers is right.
void TestGrayscaleCuda::cuda_refuses_launch() {
    REQUIRE_DEVICE();
#if CUDAVIZ_HAVE_CUDA
    QFETCH(int, kind);
    QFETCH(Dim3, grid);
    QFETCH(Dim3, block);
    QFETCH(int, shared_bytes);
    QFETCH(QStringList, errors);
    const std::uint32_t w = 45, h = 17;
    const std::uint64_t n = std::uint64_t(w) * h;
    const auto rgb = random_rgb(n, 3);
    DeviceBuffer<std::uint8_t> d_rgb, d_gray;
    QVERIFY(d_rgb.allocate(3 * n).is_ok());
    QVERIFY(d_gray.allocate(n).is_ok());
    QCOMPARE(int(cudaMemcpy(d_rgb.get(), rgb.data(), 3 * n, cudaMemcpyHostToDevice)), int(cudaSuccess));
    const GrayscaleImage dev{d_rgb.get(), d_gray.get(), w, h, PixelLayout::Interleaved};

    const Status s = launch_grayscale_unvalidated(dev, kind ? GrayscaleVariant::TwoD : GrayscaleVariant::OneD, grid, block,
                                                  std::size_t(shared_bytes), nullptr);
    QVERIFY(!s.is_ok());
    const QString message = QString::fromStdString(s.message());
    qInfo("CUDA says: %s", qPrintable(message));
    QVERIFY2(std::any_of(errors.begin(), errors.end(), [&](const QString& e) { return message.contains(e); }),
             qPrintable(message));
    QVERIFY2(message.contains("grayscale") && message.contains("launch"), qPrintable(message));
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);  // the user's launch shape, not a broken device

    QVERIFY(launch_grayscale_on_device(dev, LaunchShape::two_d(7, 3), nullptr).is_ok());
    std::vector<std::uint8_t> got(n, kPoison), want(n, kPoison);
    QCOMPARE(int(cudaMemcpy(got.data(), d_gray.get(), n, cudaMemcpyDeviceToHost)), int(cudaSuccess));
    grayscale_reference({rgb.data(), want.data(), w, h, PixelLayout::Interleaved});
    QCOMPARE(got, want);
#endif
}

void TestGrayscaleCuda::allocation_larger_than_device() {
    REQUIRE_DEVICE();
#if CUDAVIZ_HAVE_CUDA
    DeviceBuffer<std::uint8_t> huge;
    const std::size_t bytes = std::size_t(device_bytes_) * 2;
    const Status s = huge.allocate(bytes);
    QVERIFY(!s.is_ok());
    qInfo("CUDA says: %s", s.message().c_str());
    QVERIFY2(QString::fromStdString(s.message()).contains("cudaErrorMemoryAllocation"), s.message().c_str());
    QVERIFY2(QString::fromStdString(s.message()).contains(QString::number(bytes)), s.message().c_str());
    QCOMPARE(s.kind(), ErrorKind::Device);
    QVERIFY(huge.get() == nullptr);
    // The failure was reported once, as the Status: a later launch does not see it again.
    QCOMPARE(int(cudaGetLastError()), int(cudaSuccess));
    QVERIFY(huge.allocate(1024).is_ok());
    DeviceBuffer<std::uint8_t> rgb;
    QVERIFY(rgb.allocate(3 * 1024).is_ok());
    QCOMPARE(int(cudaMemset(rgb.get(), 0, 3 * 1024)), int(cudaSuccess));
    QVERIFY(huge.allocate(bytes).kind() == ErrorKind::Device);  // fails again, just before a launch
    QVERIFY(huge.allocate(1024).is_ok());
    const GrayscaleImage im{rgb.get(), huge.get(), 32, 32, PixelLayout::Interleaved};
    const Status launched = launch_grayscale_on_device(im, LaunchShape::one_d(256), nullptr);
    QVERIFY2(launched.is_ok(), launched.message().c_str());
    QCOMPARE(int(cudaDeviceSynchronize()), int(cudaSuccess));
#endif
}

void TestGrayscaleCuda::missing_device_is_a_status() {
    REQUIRE_DEVICE();
    std::vector<std::uint8_t> rgb(3 * 16, 1), gray(16, kPoison);
    const Status s = grayscale_cuda({rgb.data(), gray.data(), 4, 4, PixelLayout::Interleaved}, LaunchShape::one_d(32),
                                    nullptr, 4096);
    QVERIFY(!s.is_ok());
    QVERIFY2(QString::fromStdString(s.message()).contains("cudaErrorInvalidDevice"), s.message().c_str());
    QCOMPARE(s.kind(), ErrorKind::Unavailable);
}

// On a machine without a GPU (or driver) the GPU path says so as a value: the app then runs the emulator.
void TestGrayscaleCuda::no_device_is_unavailable() {
    if (has_device_) QSKIP("a CUDA device is present");
    std::vector<std::uint8_t> rgb(3 * 16, 1), gray(16, kPoison);
    const Status s = grayscale_cuda({rgb.data(), gray.data(), 4, 4, PixelLayout::Interleaved}, LaunchShape::one_d(32));
    QVERIFY(!s.is_ok());
    qInfo("without a device: %s", s.message().c_str());
    QCOMPARE(s.kind(), ErrorKind::Unavailable);
    QVERIFY(std::all_of(gray.begin(), gray.end(), [](std::uint8_t g) { return g == kPoison; }));
}

void TestGrayscaleCuda::timings_are_measured() {
    REQUIRE_DEVICE();
    const std::uint32_t w = 640, h = 480;
    const auto rgb = random_rgb(std::uint64_t(w) * h, 9);
    std::vector<std::uint8_t> gray(std::size_t(w) * h);
    GpuTimings t;
    const Status s = grayscale_cuda({rgb.data(), gray.data(), w, h, PixelLayout::Interleaved}, LaunchShape::two_d(16, 16), &t);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY(t.kernel_ms > 0 && t.upload_ms > 0 && t.download_ms > 0);
    QVERIFY(t.total_ms >= t.kernel_ms);
}

QTEST_APPLESS_MAIN(TestGrayscaleCuda)
#include "tst_grayscale_cuda.moc"
