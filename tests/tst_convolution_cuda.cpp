// The convolution kernels on the GPU against the emulator, byte for byte: every variant, odd sizes
// (1x1, 1xN, Nx1, primes, one larger than many blocks), masks of side 1, 3, 7 and 15, odd blocks,
// through both GPU entry points (convolution_cuda with host memory; launch_convolution_on_device on
// device memory after set_convolution_constant_mask); the recorded schedule's output; and the
// missing-device path. Cases that need a device QSKIP without one (CI); the same program runs on the
// lent GPU.
#include <QtTest>

#include <cstring>
#include <vector>

#include "support/cuda_probe.h"
#include "kernels/convolution/convolution_cuda.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_emulated.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_schedule.h"
#include "kernels/convolution/convolution_variants.h"

#if CUDAVIZ_HAVE_CUDA
#include "kernels/convolution/convolution_device_launch.h"
#include "kernels/cuda/device_buffer.h"
#endif

using namespace cvz;

namespace {

std::vector<std::uint8_t> picture(std::uint32_t w, std::uint32_t h, std::uint32_t seed) {
    std::vector<std::uint8_t> g(std::size_t(w) * h);
    std::uint32_t x = seed * 2654435761u + 7;
    for (auto& v : g) {
        x = x * 1664525u + 1013904223u;
        v = std::uint8_t(x >> 24);
    }
    return g;
}

std::vector<float> mask_values(std::uint32_t side) {
    std::vector<float> m(std::size_t(side) * side);
    std::uint32_t x = side * 97 + 5;
    for (float& v : m) {
        x = x * 1664525u + 1013904223u;
        v = float(int(x >> 8) % 20011 - 10005) / 10007.0f;
    }
    return m;
}

ConvolutionProblem problem(const std::vector<std::uint8_t>& g, const std::vector<float>& m, std::uint32_t side,
                           std::vector<float>& out, std::uint32_t w, std::uint32_t h) {
    out.assign(std::size_t(w) * h, std::nanf(""));
    ConvolutionProblem p;
    p.gray = g.data();
    p.mask = m.data();
    p.out = out.data();
    p.width = w;
    p.height = h;
    p.mask_side = side;
    return p;
}

QString differences(const std::vector<float>& got, const std::vector<float>& want) {
    if (got.size() != want.size()) return QStringLiteral("sizes differ");
    std::size_t count = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0 && count++ == 0) first = i;
    if (!count) return {};
    return QString("%1 of %2 outputs differ, the first at %3: %4 vs %5")
        .arg(count)
        .arg(got.size())
        .arg(first)
        .arg(double(got[first]), 0, 'g', 9)
        .arg(double(want[first]), 0, 'g', 9);
}

}  // namespace

class TestConvolutionCuda : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void gpu_matches_emulator_data();
    void gpu_matches_emulator();
    void device_launch_matches_emulator();
    void recorded_schedule_gives_the_same_bytes();
    void no_device_is_unavailable();

private:
    bool has_device_ = false;
    QString no_device_;
};

#define REQUIRE_DEVICE() \
    if (!has_device_) QSKIP(qPrintable(no_device_))

void TestConvolutionCuda::initTestCase() {
    const test::CudaProbe probe = test::probe_cuda_device();
    has_device_ = probe.has_device;
    no_device_ = probe.no_device;
}

void TestConvolutionCuda::gpu_matches_emulator_data() {
    QTest::addColumn<int>("variant");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("side");
    QTest::addColumn<int>("bx");
    QTest::addColumn<int>("by");
    const int sizes[][2] = {{1, 1}, {61, 1}, {1, 53}, {97, 61}, {1031, 257}};
    const int sides[] = {1, 3, 7, 15};
    const int blocks[][2] = {{16, 16}, {32, 8}, {7, 5}, {1, 33}};
    for (const KernelInfo& k : family_catalogue(KernelFamily::Convolution))
        for (const auto& s : sizes)
            for (int side : sides)
                for (const auto& b : blocks)
                    QTest::addRow("%s %dx%d mask %d block %dx%d", k.name.c_str(), s[0], s[1], side, b[0], b[1])
                        << int(k.variant) << s[0] << s[1] << side << b[0] << b[1];
}

void TestConvolutionCuda::gpu_matches_emulator() {
    REQUIRE_DEVICE();
    QFETCH(int, variant);
    QFETCH(int, w);
    QFETCH(int, h);
    QFETCH(int, side);
    QFETCH(int, bx);
    QFETCH(int, by);
    const std::vector<std::uint8_t> g = picture(w, h, std::uint32_t(w + 3 * h));
    const std::vector<float> m = mask_values(side);
    const ConvolutionLaunch l = ConvolutionLaunch::of(ConvolutionVariant(variant), Dim3{unsigned(bx), unsigned(by), 1});
    std::vector<float> emu, gpu, ref;
    QVERIFY(convolution_emulated(problem(g, m, side, emu, w, h), l));
    GpuTimings t;
    const Status s = convolution_cuda(problem(g, m, side, gpu, w, h), l, &t);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY2(differences(gpu, emu).isEmpty(), qPrintable(differences(gpu, emu)));
    convolution_reference(problem(g, m, side, ref, w, h));
    QVERIFY2(differences(gpu, ref).isEmpty(), qPrintable(differences(gpu, ref)));
    QVERIFY(t.kernel_ms >= 0);
}

void TestConvolutionCuda::device_launch_matches_emulator() {
    REQUIRE_DEVICE();
#if CUDAVIZ_HAVE_CUDA
    const std::uint32_t w = 509, h = 131, side = 5;
    const std::vector<std::uint8_t> g = picture(w, h, 11);
    const std::vector<float> m = mask_values(side);
    DeviceBuffer<std::uint8_t> dg;
    DeviceBuffer<float> dm, dout;
    QVERIFY(dg.allocate(g.size()));
    QVERIFY(dm.allocate(m.size()));
    QVERIFY(dout.allocate(g.size()));
    QCOMPARE(cudaMemcpy(dg.get(), g.data(), g.size(), cudaMemcpyHostToDevice), cudaSuccess);
    QCOMPARE(cudaMemcpy(dm.get(), m.data(), m.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    QVERIFY(set_convolution_constant_mask(m.data(), side));
    for (const KernelInfo& k : family_catalogue(KernelFamily::Convolution)) {
        const ConvolutionLaunch l = ConvolutionLaunch::of(ConvolutionVariant(k.variant), Dim3{24, 8, 1});
        std::vector<float> emu, gpu(g.size());
        QVERIFY(convolution_emulated(problem(g, m, side, emu, w, h), l));
        ConvolutionProblem dev;
        dev.gray = dg.get();
        dev.mask = dm.get();
        dev.out = dout.get();
        dev.width = w;
        dev.height = h;
        dev.mask_side = side;
        QVERIFY(launch_convolution_on_device(dev, l, nullptr));
        QCOMPARE(cudaMemcpy(gpu.data(), dout.get(), gpu.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
        QVERIFY2(differences(gpu, emu).isEmpty(), qPrintable(QString::fromStdString(k.name) + ": " + differences(gpu, emu)));
    }
#endif
}

void TestConvolutionCuda::recorded_schedule_gives_the_same_bytes() {
    REQUIRE_DEVICE();
    const std::uint32_t w = 257, h = 97, side = 7;
    const std::vector<std::uint8_t> g = picture(w, h, 5);
    const std::vector<float> m = mask_values(side);
    for (const KernelInfo& k : family_catalogue(KernelFamily::Convolution)) {
        const ConvolutionLaunch l = ConvolutionLaunch::of(ConvolutionVariant(k.variant), Dim3{16, 16, 1});
        std::vector<float> emu, gpu;
        QVERIFY(convolution_emulated(problem(g, m, side, emu, w, h), l));
        BlockSchedule schedule;
        const Status s = convolution_cuda_schedule(problem(g, m, side, gpu, w, h), l, &schedule);
        QVERIFY2(s.is_ok(), s.message().c_str());
        QCOMPARE(schedule.blocks.size(), std::size_t(17 * 7));
        QVERIFY2(differences(gpu, emu).isEmpty(), qPrintable(QString::fromStdString(k.name) + ": " + differences(gpu, emu)));
    }
}

void TestConvolutionCuda::no_device_is_unavailable() {
    if (has_device_) QSKIP("a CUDA device is present");
    const std::vector<std::uint8_t> g = picture(9, 9, 1);
    const std::vector<float> m = mask_values(3);
    std::vector<float> out;
    const Status s = convolution_cuda(problem(g, m, 3, out, 9, 9), ConvolutionLaunch{});
    QVERIFY(!s.is_ok());
    QVERIFY(s.kind() == ErrorKind::Unavailable || s.kind() == ErrorKind::Device);
}

QTEST_GUILESS_MAIN(TestConvolutionCuda)
#include "tst_convolution_cuda.moc"
