// The matmul kernels on the GPU against the emulator, byte for byte, for every kernel, tile and block
// shape on odd, non-square sizes, through both GPU entry points (matmul_cuda with host memory,
// launch_matmul_on_device on device memory and a stream); against the float64 reference; NaN and Inf
// propagation; and the GPU's error paths: launches our validator refuses, launches CUDA itself
// refuses, allocations larger than the device, the barrier-removed lesson, a missing device.
// Cases that need a device QSKIP without one (CI); the same program runs on the lent GPU.
#include <QtTest>

#include "matmul_cases.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "support/cuda_probe.h"
#include "kernels/matmul/matmul_cuda.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"

#if CUDAVIZ_HAVE_CUDA
#include "kernels/cuda/cuda_stream.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/matmul/matmul_device_launch.h"
#include "kernels/matmul/matmul_unvalidated.h"
#endif

using namespace cvz;

Q_DECLARE_METATYPE(cvz::MatmulLaunch)
Q_DECLARE_METATYPE(cvz::Dim3)

namespace {

using cvz::test::all_launches;
using cvz::test::random_matrix;
using cvz::test::Shape;
using cvz::test::shape_name;

// What C holds before a run: a NaN no kernel computes, so an output left unwritten shows.
const std::uint32_t kPoisonBits = 0x7fa5a5a5u;

float poison() {
    float f;
    std::memcpy(&f, &kPoisonBits, sizeof f);
    return f;
}

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Odd and non-square; K not a multiple of any TILE (13x47 @ 47x9); one row (1x65); the lecture's MNIST
// layer (5x784 @ 784x10); a single element; one larger than a 32x32 block in every direction.
// The last two hold whole interior blocks of the double buffer and split-K (read without bounds
// checks) beside ragged edges and a K tail: element by element (odd K and N) and float4.
const QList<Shape> kShapes = {{97, 33, 61}, {5, 784, 10}, {1, 1, 1}, {13, 47, 9}, {1, 65, 40}, {257, 300, 129},
                              {131, 257, 1}, {193, 129, 97}, {259, 53, 517}, {260, 52, 520}};


// "" when every element has the same bits, else where the first few differences are. With
// `nan_as_nan`, any NaN matches any NaN: IEEE 754 leaves NaN payloads open, and they differ (the GPU
// returns the canonical 0x7fffffff, x86 keeps the operand's payload, 0 * Inf gives 0xffc00000).
QString first_differences(const std::vector<float>& got, const std::vector<float>& want, std::uint32_t n,
                          bool nan_as_nan = false) {
    QString out;
    int shown = 0;
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < got.size(); ++i) {
        if (bits(got[i]) == bits(want[i])) continue;
        if (nan_as_nan && std::isnan(got[i]) && std::isnan(want[i])) continue;
        ++count;
        if (shown++ < 5)
            out += QString(" (row %1, col %2): %3 [%4] vs %5 [%6];")
                       .arg(i / n)
                       .arg(i % n)
                       .arg(double(got[i]), 0, 'g', 9)
                       .arg(bits(got[i]), 8, 16, QChar('0'))
                       .arg(double(want[i]), 0, 'g', 9)
                       .arg(bits(want[i]), 8, 16, QChar('0'));
    }
    return count ? QString("%1 of %2 elements differ:%3").arg(count).arg(got.size()).arg(out) : QString();
}

}  // namespace

class TestMatmulCuda : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void gpu_matches_emulator_data();
    void gpu_matches_emulator();
    void nan_and_inf_propagate_like_the_emulator();
    void validator_refuses_before_the_gpu_data();
    void validator_refuses_before_the_gpu();
    void barrier_removal_is_refused_on_the_gpu();
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

void TestMatmulCuda::initTestCase() {
    const test::CudaProbe probe = test::probe_cuda_device();
    has_device_ = probe.has_device;
    no_device_ = probe.no_device;
    device_bytes_ = probe.device_bytes;
}

void TestMatmulCuda::gpu_matches_emulator_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::addColumn<MatmulLaunch>("launch");
    for (const Shape& s : kShapes)
        for (const MatmulLaunch& l : all_launches())
            QTest::newRow(qPrintable(shape_name(s) + " " + QString::fromStdString(to_string(l))))
                << int(s.m) << int(s.k) << int(s.n) << l;
}

void TestMatmulCuda::gpu_matches_emulator() {
    REQUIRE_DEVICE();
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    QFETCH(MatmulLaunch, launch);
    const std::uint32_t um = std::uint32_t(m), uk = std::uint32_t(k), un = std::uint32_t(n);
    const std::uint64_t na = std::uint64_t(m) * k, nb = std::uint64_t(k) * n, nc = std::uint64_t(m) * n;
    const auto a = random_matrix(na, um * 7919u + uk), b = random_matrix(nb, un * 104729u + uk);

    std::vector<float> emulated(nc, poison()), gpu(nc, poison()), reference(nc, poison());
    const Status se = matmul_emulated({a.data(), b.data(), emulated.data(), um, uk, un}, launch);
    QVERIFY2(se.is_ok(), se.message().c_str());
    const Status sg = matmul_cuda({a.data(), b.data(), gpu.data(), um, uk, un}, launch);
    QVERIFY2(sg.is_ok(), sg.message().c_str());
    // Every variant, the tensor-core rungs included (their MMA sums as mma_tf32.h models the H200's),
    // gives the emulator's bytes.
    const auto compare = [&](const std::vector<float>& got) { return first_differences(got, emulated, un); };
    QString diff = compare(gpu);
    QVERIFY2(diff.isEmpty(), qPrintable("matmul_cuda vs emulator: " + diff));

#if CUDAVIZ_HAVE_CUDA
    // The same launch on device memory already in place, on a stream of its own.
    CudaStream stream;
    QVERIFY(stream.create().is_ok());
    DeviceBuffer<float> da, db, dc;
    QVERIFY(da.allocate(na).is_ok());
    QVERIFY(db.allocate(nb).is_ok());
    QVERIFY(dc.allocate(nc).is_ok());
    QCOMPARE(int(cudaMemcpy(da.get(), a.data(), na * sizeof(float), cudaMemcpyHostToDevice)), int(cudaSuccess));
    QCOMPARE(int(cudaMemcpy(db.get(), b.data(), nb * sizeof(float), cudaMemcpyHostToDevice)), int(cudaSuccess));
    QCOMPARE(int(cudaMemset(dc.get(), 0xA5, nc * sizeof(float))), int(cudaSuccess));
    const Status sd = launch_matmul_on_device({da.get(), db.get(), dc.get(), um, uk, un}, launch, stream.get());
    QVERIFY2(sd.is_ok(), sd.message().c_str());
    QVERIFY(stream.synchronize().is_ok());
    std::vector<float> on_device(nc, 0.0f);
    QCOMPARE(int(cudaMemcpy(on_device.data(), dc.get(), nc * sizeof(float), cudaMemcpyDeviceToHost)), int(cudaSuccess));
    diff = compare(on_device);
    QVERIFY2(diff.isEmpty(), qPrintable("launch_matmul_on_device vs emulator: " + diff));
#endif

    // float accumulation of K products of magnitude <= 1 against the float64 reference
    matmul_reference({a.data(), b.data(), reference.data(), um, uk, un});
    const double err = matmul_max_relative_error(gpu.data(), reference.data(), nc);
    const double tolerance = matmul_test_tolerance(launch.kernel, uk);
    QVERIFY2(err < tolerance, qPrintable(QString("GPU vs float64 reference: max relative error %1 (tolerance %2)").arg(err).arg(tolerance)));
}

// NaN and Inf reach the same outputs on the GPU as on the emulator; finite outputs keep their bytes.
void TestMatmulCuda::nan_and_inf_propagate_like_the_emulator() {
    REQUIRE_DEVICE();
    const std::uint32_t m = 3, k = 20, n = 4;
    auto a = random_matrix(m * k, 9), b = random_matrix(k * n, 10);
    a[1 * k + 17] = NAN;       // row 1 of C is NaN
    b[3 * n + 2] = INFINITY;   // column 2 of C is +-Inf ...
    a[2 * k + 3] = 0.0f;       // ... except row 2, where 0 * Inf is NaN
    b[5 * n + 0] = -INFINITY;  // column 0 is -+Inf, with the sign of -a[r][5]
    for (const MatmulLaunch& l : all_launches()) {
        const QString name = QString::fromStdString(to_string(l));
        std::vector<float> gpu(m * n, poison()), emulated(m * n, poison());
        QVERIFY(matmul_emulated({a.data(), b.data(), emulated.data(), m, k, n}, l).is_ok());
        const Status s = matmul_cuda({a.data(), b.data(), gpu.data(), m, k, n}, l);
        QVERIFY2(s.is_ok(), s.message().c_str());
        const QString diff = first_differences(gpu, emulated, n, true);
        QVERIFY2(diff.isEmpty(), qPrintable(name + ": " + diff));
        for (std::uint32_t col = 0; col < n; ++col) QVERIFY2(std::isnan(gpu[1 * n + col]), qPrintable(name));
        QVERIFY2(std::isinf(gpu[0 * n + 2]) && std::isnan(gpu[2 * n + 2]), qPrintable(name));
        QVERIFY2(std::isinf(gpu[0 * n + 0]) && std::signbit(gpu[0 * n + 0]) != std::signbit(a[0 * k + 5]), qPrintable(name));
        QVERIFY2(std::isfinite(gpu[0 * n + 1]) && std::isfinite(gpu[2 * n + 3]), qPrintable(name));
    }
}

void TestMatmulCuda::validator_refuses_before_the_gpu_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<int>("m");
    QTest::addColumn<QString>("message");
    QTest::newRow("tile 12") << MatmulLaunch::tiled(12) << 4 << "TILE = 12";
    QTest::newRow("block 64x32") << MatmulLaunch::naive(64, 32) << 4 << "2048 threads";
    QTest::newRow("block 0x8") << MatmulLaunch::naive(0, 8) << 4 << "blockDim.x = 0";
    QTest::newRow("empty") << MatmulLaunch::naive(16, 16) << 0 << "empty";
}

// Our validator answers before any CUDA call, so these hold on a machine without a GPU as well.
void TestMatmulCuda::validator_refuses_before_the_gpu() {
#if !CUDAVIZ_HAVE_CUDA
    QSKIP("built without the CUDA toolkit");
#endif
    QFETCH(MatmulLaunch, launch);
    QFETCH(int, m);
    QFETCH(QString, message);
    std::vector<float> a(64, 1), b(64, 1), c(64, 7);
    const Status s = matmul_cuda({a.data(), b.data(), c.data(), std::uint32_t(m), 4, 4}, launch);
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(s.message()).contains(message), s.message().c_str());
    QCOMPARE(c, std::vector<float>(64, 7));
}

// The missing-barrier race is a lesson for the emulator; the GPU refuses it as a value, before any
// launch (so the device entry point refuses it even without a device), and leaves C alone.
void TestMatmulCuda::barrier_removal_is_refused_on_the_gpu() {
#if !CUDAVIZ_HAVE_CUDA
    QSKIP("built without the CUDA toolkit");
#else
    MatmulLaunch l = MatmulLaunch::tiled(16);
    l.second_barrier = false;
    const Status direct = launch_matmul_on_device({nullptr, nullptr, nullptr, 37, 70, 29}, l, nullptr);
    QCOMPARE(direct.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(direct.message()).contains("barrier"), direct.message().c_str());
    REQUIRE_DEVICE();
    const auto a = random_matrix(37 * 70, 1), b = random_matrix(70 * 29, 2);
    std::vector<float> c(37 * 29, 7.0f);
    const Status s = matmul_cuda({a.data(), b.data(), c.data(), 37, 70, 29}, l);
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(s.message()).contains("barrier"), s.message().c_str());
    QCOMPARE(c, std::vector<float>(37 * 29, 7.0f));
    QCOMPARE(int(cudaGetLastError()), int(cudaSuccess));
#endif
}

void TestMatmulCuda::cuda_refuses_launch_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<Dim3>("grid");
    QTest::addColumn<Dim3>("block");
    QTest::addColumn<int>("shared_bytes");
    QTest::addColumn<QStringList>("errors");  // CUDA's error names, any of which is right
    // CUDA 13 with driver 580 answers cudaErrorInvalidValue where older releases said
    // cudaErrorInvalidConfiguration (seen on the H200 for grayscale): either is CUDA's own refusal.
    const QStringList config{"cudaErrorInvalidConfiguration", "cudaErrorInvalidValue"};
    QTest::newRow("naive block 64x32 = 2048 threads") << MatmulLaunch::naive(64, 32) << Dim3{1, 1, 1} << Dim3{64, 32, 1} << 0 << config;
    QTest::newRow("naive block 0x8") << MatmulLaunch::naive(0, 8) << Dim3{1, 1, 1} << Dim3{0, 8, 1} << 0 << config;
    QTest::newRow("naive gridDim.y = 65536") << MatmulLaunch::naive(16, 16) << Dim3{1, 65536, 1} << Dim3{16, 16, 1} << 0 << config;
    // Beyond the 48 KiB a kernel gets without opting in, and beyond the 227 KiB of any block on Hopper.
    QTest::newRow("tiled 16, 1 MiB of dynamic shared memory")
        << MatmulLaunch::tiled(16) << Dim3{2, 2, 1} << Dim3{16, 16, 1} << (1 << 20) << config;
    // __launch_bounds__(64) promises at most 64 threads; the driver holds the launch to it. (The
    // shared memory is enough for 16x16 threads, so that even a launch that went ahead stays in bounds.)
    QTest::newRow("tiled 8 launched with 16x16 threads")
        << MatmulLaunch::tiled(8) << Dim3{2, 2, 1} << Dim3{16, 16, 1} << 2048
        << (config + QStringList{"cudaErrorLaunchOutOfResources"});
}

// Launches past the limits with our validation bypassed: the Status carries CUDA's own refusal, the
// refusal is not sticky, and the next good launch on the same buffers is right.
void TestMatmulCuda::cuda_refuses_launch() {
    REQUIRE_DEVICE();
#if CUDAVIZ_HAVE_CUDA
    QFETCH(MatmulLaunch, launch);
    QFETCH(Dim3, grid);
    QFETCH(Dim3, block);
    QFETCH(int, shared_bytes);
    QFETCH(QStringList, errors);
    const std::uint32_t m = 19, k = 23, n = 17;
    const auto a = random_matrix(m * k, 3), b = random_matrix(k * n, 4);
    DeviceBuffer<float> da, db, dc;
    QVERIFY(da.allocate(m * k).is_ok());
    QVERIFY(db.allocate(k * n).is_ok());
    QVERIFY(dc.allocate(m * n).is_ok());
    QCOMPARE(int(cudaMemcpy(da.get(), a.data(), m * k * sizeof(float), cudaMemcpyHostToDevice)), int(cudaSuccess));
    QCOMPARE(int(cudaMemcpy(db.get(), b.data(), k * n * sizeof(float), cudaMemcpyHostToDevice)), int(cudaSuccess));
    const MatmulProblem dev{da.get(), db.get(), dc.get(), m, k, n};

    const Status s = launch_matmul_unvalidated(dev, launch, grid, block, std::size_t(shared_bytes), nullptr);
    QVERIFY(!s.is_ok());
    const QString message = QString::fromStdString(s.message());
    qInfo("CUDA says: %s", qPrintable(message));
    QVERIFY2(std::any_of(errors.begin(), errors.end(), [&](const QString& e) { return message.contains(e); }),
             qPrintable(message));
    QVERIFY2(message.contains("matmul") && message.contains("launch"), qPrintable(message));
    if (message.contains("cudaErrorLaunchOutOfResources"))
        QCOMPARE(s.kind(), ErrorKind::Device);  // how cuda_error_kind files "too many resources requested"
    else
        QCOMPARE(s.kind(), ErrorKind::InvalidInput);  // the user's launch shape, not a broken device

    const MatmulLaunch good = MatmulLaunch::tiled(8);
    QVERIFY(launch_matmul_on_device(dev, good, nullptr).is_ok());
    std::vector<float> got(m * n, 0.0f), want(m * n, poison());
    QCOMPARE(int(cudaMemcpy(got.data(), dc.get(), m * n * sizeof(float), cudaMemcpyDeviceToHost)), int(cudaSuccess));
    QVERIFY(matmul_emulated({a.data(), b.data(), want.data(), m, k, n}, good).is_ok());
    const QString diff = first_differences(got, want, n);
    QVERIFY2(diff.isEmpty(), qPrintable("after the refusal: " + diff));
#endif
}

// 300000 x 300000 floats are 360 GB per matrix: the first cudaMalloc fails, as a value, before any
// host memory is read (so the host pointers can be small), and the next run works.
void TestMatmulCuda::allocation_larger_than_device() {
    REQUIRE_DEVICE();
    const std::uint32_t big = 300000;
    const std::uint64_t bytes = std::uint64_t(big) * big * sizeof(float);
    if (device_bytes_ >= 3 * bytes) QSKIP("this device holds three 300000 x 300000 float matrices");
    std::vector<float> a(16, 1), b(16, 1), c(16, 7);
    const Status s = matmul_cuda({a.data(), b.data(), c.data(), big, big, big}, MatmulLaunch::naive(16, 16));
    QVERIFY(!s.is_ok());
    qInfo("CUDA says: %s", s.message().c_str());
    QVERIFY2(QString::fromStdString(s.message()).contains("cudaErrorMemoryAllocation"), s.message().c_str());
    QVERIFY2(QString::fromStdString(s.message()).contains(QString::number(bytes)), s.message().c_str());
    QCOMPARE(s.kind(), ErrorKind::Device);
    QCOMPARE(c, std::vector<float>(16, 7));
#if CUDAVIZ_HAVE_CUDA
    // The failure was reported once, as the Status: a later run does not see it again.
    QCOMPARE(int(cudaGetLastError()), int(cudaSuccess));
#endif
    const std::uint32_t m = 9, k = 40, n = 11;
    const auto x = random_matrix(m * k, 5), y = random_matrix(k * n, 6);
    std::vector<float> got(m * n, poison()), want(m * n, poison());
    const Status ok = matmul_cuda({x.data(), y.data(), got.data(), m, k, n}, MatmulLaunch::tiled(16));
    QVERIFY2(ok.is_ok(), ok.message().c_str());
    QVERIFY(matmul_emulated({x.data(), y.data(), want.data(), m, k, n}, MatmulLaunch::tiled(16)).is_ok());
    const QString diff = first_differences(got, want, n);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestMatmulCuda::missing_device_is_a_status() {
    REQUIRE_DEVICE();
    std::vector<float> a(16, 1), b(16, 1), c(16, 7);
    const Status s = matmul_cuda({a.data(), b.data(), c.data(), 4, 4, 4}, MatmulLaunch::naive(16, 16), nullptr, 4096);
    QVERIFY(!s.is_ok());
    QVERIFY2(QString::fromStdString(s.message()).contains("cudaErrorInvalidDevice"), s.message().c_str());
    QCOMPARE(s.kind(), ErrorKind::Unavailable);
    QCOMPARE(c, std::vector<float>(16, 7));
}

// On a machine without a GPU (or driver, or toolkit) the GPU path says so as a value: the app then
// runs the emulator.
void TestMatmulCuda::no_device_is_unavailable() {
    if (has_device_) QSKIP("a CUDA device is present");
    std::vector<float> a(16, 1), b(16, 1), c(16, 7);
    for (const MatmulLaunch& l : all_launches()) {
        const Status s = matmul_cuda({a.data(), b.data(), c.data(), 4, 4, 4}, l);
        QVERIFY(!s.is_ok());
        QCOMPARE(s.kind(), ErrorKind::Unavailable);
        QCOMPARE(c, std::vector<float>(16, 7));
    }
    qInfo("without a device: %s", matmul_cuda({a.data(), b.data(), c.data(), 4, 4, 4}, MatmulLaunch::tiled(8)).message().c_str());
}

void TestMatmulCuda::timings_are_measured() {
    REQUIRE_DEVICE();
    const std::uint32_t m = 300, k = 200, n = 100;
    const auto a = random_matrix(m * k, 11), b = random_matrix(k * n, 12);
    std::vector<float> c(m * n);
    GpuTimings t;
    const Status s = matmul_cuda({a.data(), b.data(), c.data(), m, k, n}, MatmulLaunch::tiled(16), &t);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY(t.kernel_ms > 0 && t.upload_ms > 0 && t.download_ms > 0);
    QVERIFY(t.total_ms >= t.kernel_ms);
}

QTEST_APPLESS_MAIN(TestMatmulCuda)
#include "tst_matmul_cuda.moc"
