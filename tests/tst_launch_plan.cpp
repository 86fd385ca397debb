// The launch plan against the kernel itself: the emulator runs the grayscale body through a
// recording context, and every pixel's writer, the idle threads and the warp counts must match.
#include <QtTest>

#include <mutex>
#include <vector>

#include "app/models/launch_plan.h"
#include "kernels/core/index_math.h"
#include "kernels/emulator/emulate.h"
#include "kernels/grayscale/grayscale_body.h"
#include "kernels/grayscale/grayscale_launch.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)

namespace {

// Records which (block, thread) stored each grey pixel, and which threads stored at all.
struct RecordingContext {
    const EmuContext& base;
    const std::uint8_t* out;
    std::uint64_t* writer;      // per pixel: linear block * 2^20 + linear thread + 1
    std::uint8_t* thread_wrote; // per linear global thread
    Dim3 block_idx() const { return base.block_idx(); }
    Dim3 thread_idx() const { return base.thread_idx(); }
    Dim3 block_dim() const { return base.block_dim(); }
    Dim3 grid_dim() const { return base.grid_dim(); }
    template <class T> T load(const T* p) const { return *p; }
    template <class T> void store(T* p, T v) const {
        const std::uint64_t b = linear_block_id(block_idx(), grid_dim()), t = linear_thread_id(thread_idx(), block_dim());
        writer[p - out] = (b << 20) + t + 1;
        thread_wrote[b * block_dim().volume() + t] = 1;
        *p = v;
    }
};

}  // namespace

class TestLaunchPlan : public QObject {
    Q_OBJECT
private slots:
    void matches_kernel_data();
    void matches_kernel();
    void lecture_examples();
    void thread_of_pixel_uses_kernel_indices();
    void waves_grid_covers_the_image_in_passes();
};

void TestLaunchPlan::matches_kernel_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<LaunchShape>("shape");
    const QList<QPair<int, int>> sizes = {{1, 1}, {97, 33}, {33, 97}, {64, 64}, {451, 300}, {1, 100}, {100, 1}};
    const QList<LaunchShape> shapes = {LaunchShape::one_d(1),      LaunchShape::one_d(33),    LaunchShape::one_d(256),
                                       LaunchShape::one_d(1024),   LaunchShape::two_d(16, 16), LaunchShape::two_d(32, 8),
                                       LaunchShape::two_d(8, 32),  LaunchShape::two_d(7, 3),   LaunchShape::two_d(1, 1),
                                       LaunchShape::two_d(48, 1),  LaunchShape::two_d(5, 13),  LaunchShape::two_d(32, 32)};
    for (auto [w, h] : sizes)
        for (const LaunchShape& s : shapes)
            QTest::newRow(qPrintable(QString("%1x%2 %3 %4").arg(w).arg(h).arg(s.kind == GrayscaleVariant::OneD ? "1-D" : "2-D")
                                         .arg(QString::fromStdString(to_string(s)))))
                << w << h << s;
}

void TestLaunchPlan::matches_kernel() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(LaunchShape, shape);
    const std::uint32_t w = std::uint32_t(width), h = std::uint32_t(height);
    const LaunchPlan plan = plan_grayscale_launch(shape, w, h);
    const std::uint64_t n = std::uint64_t(w) * h;
    std::vector<std::uint8_t> rgb(3 * n, 100), gray(n);
    std::vector<std::uint64_t> writer(n, 0);
    std::vector<std::uint8_t> wrote(plan.total_threads, 0);
    const GrayscaleImage im{rgb.data(), gray.data(), w, h, PixelLayout::Interleaved};
    EmuOptions o;
    o.host_threads = 1;
    QVERIFY(emulate(plan.grid, shape.block, o, [&](const EmuContext& ctx) {
                const RecordingContext c{ctx, gray.data(), writer.data(), wrote.data()};
                if (shape.kind == GrayscaleVariant::OneD) grayscale_1d(c, im);
                else grayscale_2d(c, im);
            }).is_ok());

    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const ThreadOfPixel t = plan.thread_of_pixel(x, y);
            const std::uint64_t expected = (t.linear_block << 20) + t.linear_thread + 1;
            if (writer[std::uint64_t(y) * w + x] != expected)
                QFAIL(qPrintable(QString("pixel (%1, %2): plan says block %3 thread %4").arg(x).arg(y).arg(t.linear_block).arg(t.linear_thread)));
        }
    std::uint64_t active = 0, idle_warps = 0, divergent = 0;
    const std::uint64_t tpb = plan.threads_per_block;
    for (std::uint64_t b = 0; b < plan.blocks; ++b)
        for (std::uint64_t w0 = 0; w0 < tpb; w0 += 32) {
            std::uint64_t on = 0, all = 0;
            for (std::uint64_t t = w0; t < tpb && t < w0 + 32; ++t, ++all) on += wrote[b * tpb + t];
            active += on;
            idle_warps += on == 0;
            divergent += on != 0 && on != all;
        }
    QCOMPARE(plan.active_threads, active);
    QCOMPARE(plan.idle_threads, plan.total_threads - active);
    QCOMPARE(plan.idle_warps, idle_warps);
    QCOMPARE(plan.divergent_warps, divergent);
    QCOMPARE(plan.total_warps, plan.blocks * ((tpb + 31) / 32));
    QCOMPARE(plan.partial_warps, tpb % 32 ? plan.blocks : 0);
}

// The lecture's numbers: 1-D 256 over a 1920x1080 image, 2-D 16x16 over the same.
void TestLaunchPlan::lecture_examples() {
    const LaunchPlan a = plan_grayscale_launch(LaunchShape::one_d(256), 1920, 1080);
    QCOMPARE(a.blocks, 8100u);  // 2073600 / 256 exactly
    QCOMPARE(a.idle_threads, 0u);
    const LaunchPlan b = plan_grayscale_launch(LaunchShape::two_d(16, 16), 451, 300);
    QCOMPARE(b.grid.x, 29u);  // cdiv(451, 16)
    QCOMPARE(b.grid.y, 19u);  // cdiv(300, 16)
    QCOMPARE(b.total_threads, 29u * 19 * 256);
    QCOMPARE(b.active_threads, 451u * 300);
    QCOMPARE(b.idle_threads, 29u * 19 * 256 - 451 * 300);  // 5756 threads, 4.1%
    QVERIFY(qAbs(b.idle_fraction() - 5756.0 / 141056.0) < 1e-12);
    const LaunchPlan c = plan_grayscale_launch(LaunchShape::two_d(7, 3), 20, 10);  // 21-thread blocks
    QCOMPARE(c.partial_warps, c.blocks);
    const LaunchPlan tall = plan_grayscale_launch(LaunchShape::two_d(1, 1), 2, 70000);
    QCOMPARE(tall.grid.y, 65535u);
    QCOMPARE(tall.passes, 2u);
    QCOMPARE(tall.thread_of_pixel(1, 65536).pass, 1u);
    QCOMPARE(tall.thread_of_pixel(1, 65536).block.y, 1u);
}

void TestLaunchPlan::thread_of_pixel_uses_kernel_indices() {
    const LaunchShape s = LaunchShape::two_d(7, 3);
    const LaunchPlan p = plan_grayscale_launch(s, 50, 40);
    const ThreadOfPixel t = p.thread_of_pixel(22, 17);
    QCOMPARE(global_col(t.block, t.thread, s.block), 22u);
    QCOMPARE(global_row(t.block, t.thread, s.block), 17u);
    QCOMPARE(t.global_index, 17u * 50 + 22);
    QCOMPARE(t.linear_thread, 2u * 7 + 1);  // thread (1, 2) of a 7x3 block
    QCOMPARE(t.warp, 0u);
    QCOMPARE(t.lane, 15u);
    const LaunchPlan q = plan_grayscale_launch(LaunchShape::one_d(256), 50, 40);
    const ThreadOfPixel u = q.thread_of_pixel(22, 17);  // i = 872 = 3 * 256 + 104
    QCOMPARE(u.block.x, 3u);
    QCOMPARE(u.thread.x, 104u);
    QCOMPARE(u.warp, 3u);
    QCOMPARE(u.lane, 8u);
}

// gray_vec16_waves at 8K: a grid of 4 waves of the H200 (4 x 132 x 2048 threads = 4224 blocks of 256),
// 16 pixels a thread, so its grid-stride loop takes two passes over the 2,073,600 chunks; the plan
// names the pass and the thread of the grid-stride loop that writes each pixel.
void TestLaunchPlan::waves_grid_covers_the_image_in_passes() {
    const LaunchShape waves = LaunchShape::of(GrayscaleVariant::GrayVec16Waves, Dim3{256, 1, 1});
    const LaunchPlan p = plan_grayscale_launch(waves, 7680, 4320);
    QCOMPARE(p.grid, (Dim3{4224, 1, 1}));
    QCOMPARE(p.passes, 2u);
    QCOMPARE(p.idle_threads, 0ull);
    const std::uint64_t grid_pixels = 4224ull * 256 * 16;  // one pass
    const ThreadOfPixel last = p.thread_of_pixel(std::uint32_t((grid_pixels - 1) % 7680), std::uint32_t((grid_pixels - 1) / 7680));
    QCOMPARE(last.pass, 0u);
    QCOMPARE(last.block, (Dim3{4223, 0, 0}));
    QCOMPARE(last.thread, (Dim3{255, 0, 0}));
    const ThreadOfPixel next = p.thread_of_pixel(std::uint32_t(grid_pixels % 7680), std::uint32_t(grid_pixels / 7680));
    QCOMPARE(next.pass, 1u);
    QCOMPARE(next.block, (Dim3{0, 0, 0}));
    QCOMPARE(next.thread, (Dim3{0, 0, 0}));
    // A small image needs fewer threads than the cap: the grid covers it in one pass, as gray_vec16's.
    const LaunchPlan small = plan_grayscale_launch(waves, 451, 300);
    QCOMPARE(small.grid, plan_grayscale_launch(LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{256, 1, 1}), 451, 300).grid);
    QCOMPARE(small.passes, 1u);
}

QTEST_APPLESS_MAIN(TestLaunchPlan)
#include "tst_launch_plan.moc"
