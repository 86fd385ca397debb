// The occupancy and wave models against values worked out by hand from NVIDIA's formula
// (CUDA Occupancy Calculator) for several profiles and shapes; the CUDA API where a device exists.
#include <QtTest>

#include "app/models/device_profile.h"
#include "app/models/occupancy_model.h"
#include "app/models/wave_model.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::OccupancyLimit)

class TestOccupancy : public QObject {
    Q_OBJECT
private slots:
    void profiles_exist();
    void hand_computed_data();
    void hand_computed();
    void impossible_blocks_are_explained();
    void waves();
    void matches_cuda_device_profile();
};

void TestOccupancy::profiles_exist() {
    for (const char* name : {"H100", "H200", "A100", "RTX 4090", "RTX 3090", "T4"}) {
        const auto p = find_device_profile(QString::fromLatin1(name));
        QVERIFY2(p.has_value(), name);
        QVERIFY(p->sm_count > 0 && p->max_threads_per_sm >= 1024 && p->shared_per_sm > 0);
    }
    QCOMPARE(find_device_profile("RTX 3090")->sm_count, 82);
    QCOMPARE(find_device_profile("RTX 3090")->max_warps_per_sm(), 48);
    QCOMPARE(find_device_profile("H100")->max_warps_per_sm(), 64);
    QVERIFY(!find_device_profile("GTX 480").has_value());
}

void TestOccupancy::hand_computed_data() {
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("regs");
    QTest::addColumn<int>("shared");
    QTest::addColumn<int>("blocks");
    QTest::addColumn<double>("occupancy");
    QTest::addColumn<OccupancyLimit>("limit");
    // 8 warps/block: 64/8 = 8 by warps; 32 regs -> 1024/warp -> 64 warps -> 8 blocks (tie: warps reported)
    QTest::newRow("H100 256 thr 32 regs") << "H100" << 256 << 32 << 0 << 8 << 1.0 << OccupancyLimit::Warps;
    // 32 warps: 2 by warps; 9216 B shared (8192 + 1 KiB reserved) -> 233472/9216 = 25
    QTest::newRow("H100 tiled 32x32") << "H100" << 1024 << 32 << 8192 << 2 << 1.0 << OccupancyLimit::Warps;
    // 48 warps/SM: 6 by warps; 20 regs -> 640 -> 768/warp -> 85 warps -> 10 blocks
    QTest::newRow("3090 16x16 20 regs") << "RTX 3090" << 256 << 20 << 0 << 6 << 1.0 << OccupancyLimit::Warps;
    // 1024 threads = 32 warps: only one fits in 48 -> 32/48
    QTest::newRow("3090 1-D 1024") << "RTX 3090" << 1024 << 16 << 0 << 1 << 32.0 / 48 << OccupancyLimit::Warps;
    // 32 threads: 1 warp; 16 block slots -> 16 warps of 32
    QTest::newRow("T4 32 threads") << "T4" << 32 << 32 << 0 << 16 << 0.5 << OccupancyLimit::Blocks;
    // 64 regs -> 2048/warp -> 32 warps -> 4 blocks of 8 warps -> 32 of 64
    QTest::newRow("A100 64 regs") << "A100" << 256 << 64 << 0 << 4 << 0.5 << OccupancyLimit::Registers;
    // 48 KiB + 1 KiB = 50176 B -> 102400 / 50176 = 2 blocks -> 16 of 48 warps
    QTest::newRow("4090 48 KiB shared") << "RTX 4090" << 256 << 16 << 49152 << 2 << 16.0 / 48 << OccupancyLimit::SharedMemory;
    // 96 threads = 3 warps: 48/3 = 16 by warps, 16 slots: tie -> warps
    QTest::newRow("3090 96 threads") << "RTX 3090" << 96 << 32 << 0 << 16 << 1.0 << OccupancyLimit::Warps;
    // 33 threads = 2 warps (one partial): 64/2 = 32, 32 slots -> 32 blocks, 64 warps
    QTest::newRow("H200 33 threads") << "H200" << 33 << 16 << 0 << 32 << 1.0 << OccupancyLimit::Warps;
    // 255 regs -> 8160 -> 8192/warp -> 8 warps -> 1 block of 8 warps -> 8 of 64
    QTest::newRow("H100 255 regs") << "H100" << 256 << 255 << 0 << 1 << 0.125 << OccupancyLimit::Registers;
}

void TestOccupancy::hand_computed() {
    QFETCH(QString, device);
    QFETCH(int, threads);
    QFETCH(int, regs);
    QFETCH(int, shared);
    QFETCH(int, blocks);
    QFETCH(double, occupancy);
    QFETCH(OccupancyLimit, limit);
    const Occupancy o = compute_occupancy(*find_device_profile(device), {threads, regs, shared});
    QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
    QCOMPARE(o.blocks_per_sm, blocks);
    QCOMPARE(o.occupancy, occupancy);
    QCOMPARE(o.limit, limit);
    QCOMPARE(o.active_warps, blocks * ((threads + 31) / 32));
}

void TestOccupancy::impossible_blocks_are_explained() {
    const DeviceProfile rtx = *find_device_profile("RTX 3090");
    QVERIFY(compute_occupancy(rtx, {256, 32, 100 * 1024}).error.contains("shared memory per block exceeds"));
    QVERIFY(compute_occupancy(rtx, {2048, 32, 0}).error.contains("2048 threads"));
    QVERIFY(compute_occupancy(rtx, {256, 300, 0}).error.contains("300 registers"));
    // 1024 threads x 128 regs = 4096/warp x 32 warps = 131072 > 65536: not one block fits
    const Occupancy o = compute_occupancy(rtx, {1024, 128, 0});
    QCOMPARE(o.blocks_per_sm, 0);
    QCOMPARE(o.limit, OccupancyLimit::Registers);
    QVERIFY(o.error.contains("not one block fits"));
}

void TestOccupancy::waves() {
    // 1920x1080 in 1-D blocks of 256: 8100 blocks; H200: 132 SMs x 8 = 1056 per wave
    const WavePlan p = plan_waves(8100, 132, 8);
    QCOMPARE(p.blocks_per_wave, 1056u);
    QCOMPARE(p.waves, 8u);
    QCOMPARE(p.tail_blocks, 8100u - 7 * 1056);  // 708
    QCOMPARE(p.tail_fill, 708.0 / 1056);
    QCOMPARE(p.slot_of(0).sm, 0);
    QCOMPARE(p.slot_of(133).sm, 1);
    QCOMPARE(p.slot_of(133).slot, 1);
    QCOMPARE(p.slot_of(1056).wave, 1u);
    QCOMPARE(p.slot_of(8099).wave, 7u);
    QCOMPARE(p.wave_first_block(7), 7392u);
    QCOMPARE(p.wave_end_block(7), 8100u);
    const WavePlan exact = plan_waves(264, 132, 2);
    QCOMPARE(exact.waves, 1u);
    QCOMPARE(exact.tail_fill, 1.0);
    const WavePlan one = plan_waves(1, 40, 16);
    QCOMPARE(one.waves, 1u);
    QCOMPARE(one.tail_blocks, 1u);
}

void TestOccupancy::matches_cuda_device_profile() {
    const auto dev = cuda_device_profile(0);
    if (!dev) QSKIP("no CUDA device here: the model is checked against the tables only");
    QVERIFY(dev->measured);
    QVERIFY(dev->sm_count > 0);
    const auto table = find_device_profile(dev->name.contains("H200") ? "H200" : dev->name.contains("H100") ? "H100" : dev->name);
    if (table) {
        QCOMPARE(dev->max_threads_per_sm, table->max_threads_per_sm);
        QCOMPARE(dev->max_blocks_per_sm, table->max_blocks_per_sm);
        QCOMPARE(dev->shared_per_sm, table->shared_per_sm);
    }
}

QTEST_APPLESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
