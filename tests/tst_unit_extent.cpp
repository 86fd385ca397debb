// block_extent / warp_extent (app/unit_extent.h), what View > Zoom to Block and Zoom to Warp frame,
// against LaunchPlan::thread_of_pixel pixel by pixel: the rectangle is exactly the bounding box of
// the pixels whose thread is in the block (warp), over an odd, non-square image and every variant.
#include <QtTest>

#include <QRect>

#include "app/models/launch_plan.h"
#include "app/models/unit_extent.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)

class TestUnitExtent : public QObject {
    Q_OBJECT
private slots:
    void extents_bound_their_pixels_data();
    void extents_bound_their_pixels();
    void outside_the_launch_is_empty();
};

void TestUnitExtent::extents_bound_their_pixels_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::newRow("1-D 256") << LaunchShape::one_d(256);
    QTest::newRow("1-D 64") << LaunchShape::one_d(64);
    QTest::newRow("1-D 96 (partial warps)") << LaunchShape::one_d(96);
    QTest::newRow("2-D 16x16") << LaunchShape::two_d(16, 16);
    QTest::newRow("2-D 7x3") << LaunchShape::two_d(7, 3);
    QTest::newRow("2-D 8x8 (warp of 4 rows)") << LaunchShape::two_d(8, 8);
    QTest::newRow("2-D 32x4 (warp of one row)") << LaunchShape::two_d(32, 4);
    QTest::newRow("2-D 48x2 (warp across a row end)") << LaunchShape::two_d(48, 2);
    QTest::newRow("gray_1d_x4 128") << LaunchShape::of(GrayscaleVariant::Gray1dX4, Dim3{128, 1, 1});
}

void TestUnitExtent::extents_bound_their_pixels() {
    QFETCH(LaunchShape, shape);
    const std::uint32_t w = 97, h = 33;  // odd, non-square
    const LaunchPlan plan = plan_grayscale_launch(shape, w, h);
    // The bounding boxes by brute force, over the grid's whole extent in the first pass.
    const std::uint32_t ext_w = plan.one_d ? w : plan.grid.x * plan.shape.block.x * std::max(1u, plan.items_per_thread);
    const std::uint32_t ext_h =
        plan.one_d ? std::uint32_t((plan.total_threads * std::max(1u, plan.items_per_thread) + w - 1) / w)
                   : std::min<std::uint32_t>(plan.grid.y * plan.shape.block.y, plan.grid.y * plan.shape.block.y);
    QHash<std::uint64_t, QRect> blocks, warps;
    for (std::uint32_t y = 0; y < ext_h; ++y)
        for (std::uint32_t x = 0; x < ext_w; ++x) {
            const ThreadOfPixel t = plan.thread_of_pixel(x, y);
            if (t.linear_block >= plan.blocks || t.pass > 0) continue;
            const QRect px(int(x), int(y), 1, 1);
            blocks[t.linear_block] = blocks.value(t.linear_block).united(px);
            const std::uint64_t key = t.linear_block * plan.warps_per_block + t.warp;
            warps[key] = warps.value(key).united(px);
        }
    QCOMPARE(std::uint64_t(blocks.size()), plan.blocks);
    for (auto it = blocks.cbegin(); it != blocks.cend(); ++it)
        QVERIFY2(block_extent(plan, it.key()) == it.value(),
                 qPrintable(QStringLiteral("block %1: got %2,%3 %4x%5").arg(it.key()).arg(block_extent(plan, it.key()).x())
                                .arg(block_extent(plan, it.key()).y()).arg(block_extent(plan, it.key()).width())
                                .arg(block_extent(plan, it.key()).height())));
    for (auto it = warps.cbegin(); it != warps.cend(); ++it) {
        const std::uint64_t b = it.key() / plan.warps_per_block, warp = it.key() % plan.warps_per_block;
        QVERIFY2(warp_extent(plan, b, warp) == it.value(), qPrintable(QStringLiteral("block %1 warp %2").arg(b).arg(warp)));
    }
}

void TestUnitExtent::outside_the_launch_is_empty() {
    const LaunchPlan plan = plan_grayscale_launch(LaunchShape::two_d(16, 16), 97, 33);
    QVERIFY(block_extent(plan, plan.blocks).isEmpty());
    QVERIFY(warp_extent(plan, 0, plan.warps_per_block).isEmpty());
    QVERIFY(!block_extent(plan, plan.blocks - 1).isEmpty());
}

QTEST_GUILESS_MAIN(TestUnitExtent)
#include "tst_unit_extent.moc"
