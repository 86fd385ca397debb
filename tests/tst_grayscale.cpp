// The grayscale kernel on the emulator against the CPU reference (exact) and an independent float64
// reference (within one grey level), over sizes x block shapes x layouts.
#include <QtTest>

#include <atomic>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/emulator/emulate.h"
#include "kernels/grayscale/grayscale_body.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)

namespace {

std::vector<std::uint8_t> random_rgb(std::uint64_t pixels, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> v(3 * pixels);
    for (auto& b : v) b = std::uint8_t(byte(rng));
    return v;
}

// float64, the lecture's formula, truncated: independent of the kernel's float arithmetic.
std::uint8_t luma_f64(int r, int g, int b) { return std::uint8_t(std::floor(0.2989 * r + 0.5870 * g + 0.1140 * b)); }

const std::uint8_t kPoison = 0xA5;

}  // namespace

class TestGrayscale : public QObject {
    Q_OBJECT
private slots:
    void luma_matches_lecture();
    void emulator_matches_reference_data();
    void emulator_matches_reference();
    void planar_and_interleaved_agree();
    void every_pixel_written_once_data() { emulator_matches_reference_data(); }
    void every_pixel_written_once();
    void tall_image_needs_grid_stride();
    void rejects_impossible_launches_data();
    void rejects_impossible_launches();
};

void TestGrayscale::luma_matches_lecture() {
    QCOMPARE(int(luma_u8(255, 255, 255)), 254);  // 0.9999 * 255 truncated, as in the lecture
    QCOMPARE(int(luma_u8(0, 0, 0)), 0);
    QCOMPARE(int(luma_u8(255, 0, 0)), 76);  // 76.2195
    QCOMPARE(int(luma_u8(0, 255, 0)), 149);  // 149.685
    QCOMPARE(int(luma_u8(0, 0, 255)), 29);  // 29.07
    for (int r = 0; r < 256; r += 5)
        for (int g = 0; g < 256; g += 3)
            for (int b = 0; b < 256; b += 7) {
                const int d = int(luma_u8(r, g, b)) - int(luma_f64(r, g, b));
                QVERIFY2(std::abs(d) <= 1, qPrintable(QString("rgb %1 %2 %3 differs by %4").arg(r).arg(g).arg(b).arg(d)));
            }
}

void TestGrayscale::emulator_matches_reference_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("layout");
    const QList<QPair<int, int>> sizes = {{1, 1}, {1, 37}, {53, 1}, {97, 33}, {33, 97}, {451, 300}, {255, 257}};
    const QList<LaunchShape> shapes = {LaunchShape::one_d(1),     LaunchShape::one_d(32),    LaunchShape::one_d(33),
                                       LaunchShape::one_d(256),   LaunchShape::one_d(1024),  LaunchShape::two_d(16, 16),
                                       LaunchShape::two_d(32, 8), LaunchShape::two_d(7, 3),  LaunchShape::two_d(1, 1),
                                       LaunchShape::two_d(1024, 1), LaunchShape::two_d(1, 1024)};
    for (auto [w, h] : sizes)
        for (const LaunchShape& s : shapes)
            for (int layout : {0, 1}) {
                const QString name = QString("%1x%2 %3 %4 %5")
                                         .arg(w)
                                         .arg(h)
                                         .arg(s.kind == GrayscaleVariant::OneD ? "1d" : "2d")
                                         .arg(QString::fromStdString(to_string(s)))
                                         .arg(layout ? "planar" : "interleaved");
                QTest::newRow(qPrintable(name)) << w << h << s << layout;
            }
}

void TestGrayscale::emulator_matches_reference() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(LaunchShape, shape);
    QFETCH(int, layout);
    const std::uint64_t n = std::uint64_t(width) * height;
    const auto interleaved = random_rgb(n, unsigned(width * 131 + height));
    const auto input = layout ? interleaved_to_planar(interleaved.data(), n) : interleaved;
    const PixelLayout pl = layout ? PixelLayout::Planar : PixelLayout::Interleaved;

    std::vector<std::uint8_t> expected(n, kPoison), got(n, kPoison);
    grayscale_reference({input.data(), expected.data(), std::uint32_t(width), std::uint32_t(height), pl});
    const Status s = grayscale_emulated({input.data(), got.data(), std::uint32_t(width), std::uint32_t(height), pl}, shape);
    QVERIFY2(s.is_ok(), s.message().c_str());
    for (std::uint64_t i = 0; i < n; ++i) {
        if (got[i] != expected[i])
            QFAIL(qPrintable(QString("pixel %1 (x %2, y %3): emulator %4, reference %5")
                                 .arg(i).arg(i % width).arg(i / width).arg(got[i]).arg(expected[i])));
        const int d = int(got[i]) - int(luma_f64(interleaved[3 * i], interleaved[3 * i + 1], interleaved[3 * i + 2]));
        QVERIFY(std::abs(d) <= 1);
    }
}

void TestGrayscale::planar_and_interleaved_agree() {
    const std::uint32_t w = 61, h = 29;
    const auto interleaved = random_rgb(std::uint64_t(w) * h, 7);
    const auto planar = interleaved_to_planar(interleaved.data(), std::uint64_t(w) * h);
    std::vector<std::uint8_t> a(w * h, kPoison), b(w * h, kPoison);
    QVERIFY(grayscale_emulated({interleaved.data(), a.data(), w, h, PixelLayout::Interleaved}, LaunchShape::two_d(7, 3)).is_ok());
    QVERIFY(grayscale_emulated({planar.data(), b.data(), w, h, PixelLayout::Planar}, LaunchShape::one_d(33)).is_ok());
    QCOMPARE(a, b);
}

// More rows than 65535 blocks of height 1 cover: gridDim.y is capped and the grid-stride loop covers
// the rest; a 1-D launch over the same pixels needs more than 65535 blocks in x.
void TestGrayscale::tall_image_needs_grid_stride() {
    const std::uint32_t w = 3, h = 70001;
    const std::uint64_t n = std::uint64_t(w) * h;
    const auto rgb = random_rgb(n, 11);
    QCOMPARE(grayscale_grid(LaunchShape::two_d(1, 1), w, h).y, 65535u);
    QVERIFY(grayscale_grid(LaunchShape::one_d(1), w, h).x > 65535u);
    std::vector<std::uint8_t> expected(n, kPoison);
    grayscale_reference({rgb.data(), expected.data(), w, h, PixelLayout::Interleaved});
    for (const LaunchShape& s : {LaunchShape::two_d(1, 1), LaunchShape::two_d(7, 3), LaunchShape::one_d(1), LaunchShape::one_d(33)}) {
        std::vector<std::uint8_t> got(n, kPoison);
        const Status st = grayscale_emulated({rgb.data(), got.data(), w, h, PixelLayout::Interleaved}, s);
        QVERIFY2(st.is_ok(), st.message().c_str());
        QVERIFY2(got == expected, to_string(s).c_str());
    }
}

void TestGrayscale::rejects_impossible_launches_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<QString>("message");
    QTest::newRow("1-D 0 threads") << LaunchShape::one_d(0) << 8 << 8 << "blockDim.x = 0";
    QTest::newRow("1-D 1025 threads") << LaunchShape::one_d(1025) << 8 << 8 << "blockDim.x = 1025";
    QTest::newRow("2-D 64x32 = 2048") << LaunchShape::two_d(64, 32) << 8 << 8 << "2048 threads exceeds";
    QTest::newRow("2-D 0x4") << LaunchShape::two_d(0, 4) << 8 << 8 << "blockDim.x = 0";
    QTest::newRow("2-D 4x0") << LaunchShape::two_d(4, 0) << 8 << 8 << "blockDim.y = 0";
    QTest::newRow("empty image") << LaunchShape::one_d(256) << 0 << 8 << "empty";
}

void TestGrayscale::rejects_impossible_launches() {
    QFETCH(LaunchShape, shape);
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(QString, message);
    std::vector<std::uint8_t> rgb(3 * 64, 1), gray(64, kPoison);
    const Status s = grayscale_emulated({rgb.data(), gray.data(), std::uint32_t(width), std::uint32_t(height), PixelLayout::Interleaved}, shape);
    QVERIFY(!s.is_ok());
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(s.message()).contains(message), s.message().c_str());
    QVERIFY(std::all_of(gray.begin(), gray.end(), [](std::uint8_t g) { return g == kPoison; }));
}

// A context that forwards to the emulator's and counts the stores into the output, the way the
// traced emulator will: each pixel of the output must be stored exactly once, by one thread.
struct CountingContext {
    const EmuContext& base;
    const std::uint8_t* out;
    std::atomic<int>* writes;
    Dim3 block_idx() const { return base.block_idx(); }
    Dim3 thread_idx() const { return base.thread_idx(); }
    Dim3 block_dim() const { return base.block_dim(); }
    Dim3 grid_dim() const { return base.grid_dim(); }
    template <class T> T load(const T* p) const { return *p; }
    template <class T> void store(T* p, T v) const {
        writes[p - out].fetch_add(1, std::memory_order_relaxed);
        *p = v;
    }
};

void TestGrayscale::every_pixel_written_once() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(LaunchShape, shape);
    QFETCH(int, layout);
    const std::uint64_t n = std::uint64_t(width) * height;
    const auto rgb = random_rgb(n, 5);
    std::vector<std::uint8_t> gray(n, kPoison);
    std::vector<std::atomic<int>> writes(n);
    const GrayscaleImage im{rgb.data(), gray.data(), std::uint32_t(width), std::uint32_t(height),
                            layout ? PixelLayout::Planar : PixelLayout::Interleaved};
    const Dim3 grid = grayscale_grid(shape, im.width, im.height);
    const Status s = emulate(grid, shape.block, EmuOptions{}, [&](const EmuContext& ctx) {
        const CountingContext c{ctx, gray.data(), writes.data()};
        if (shape.kind == GrayscaleVariant::OneD)
            grayscale_1d(c, im);
        else
            grayscale_2d(c, im);
    });
    QVERIFY2(s.is_ok(), s.message().c_str());
    for (std::uint64_t i = 0; i < n; ++i)
        if (writes[i].load() != 1) QFAIL(qPrintable(QString("pixel %1 written %2 times").arg(i).arg(writes[i].load())));
}

QTEST_APPLESS_MAIN(TestGrayscale)
#include "tst_grayscale.moc"
