// Schedule recording (kernels/core/block_schedule.h and the families' recording launchers): on the
// emulator, every catalogue variant of both families records every block of odd grids exactly once,
// on a host worker in range, with end >= start and the earliest start at 0, and computes the same
// bytes as the plain launch (the recording wraps the same body). The GPU case records on the device
// and compares with the emulator's bytes; it QSKIPs without a device. The checker refuses what a
// recording must never hold.
#include <QtTest>

#include <cstring>
#include <vector>

#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/block_schedule.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_schedule.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_schedule.h"
#include "support/cuda_probe.h"
#include "support/random_data.h"

using namespace cvz;

namespace {

using ::test::random_bytes;
using ::test::random_floats;

// A block the variant accepts that does not divide the sizes below.
Dim3 block_for(const KernelInfo& k) {
    switch (k.block) {
        case BlockRule::OneD: return Dim3{96, 1, 1};
        case BlockRule::TwoD: return Dim3{16, 8, 1};
        case BlockRule::Tile: return Dim3{k.tiles.front(), k.tiles.front(), 1};
        case BlockRule::Fixed: return k.fixed_block;
    }
    return {};
}

// Every block of `grid` once, SMs in [0, sms), end >= start, earliest start 0, and the records in
// linear block order (as make_block_schedule lays them out).
QString schedule_problem(const BlockSchedule& s, Dim3 grid, int sms) {
    if (s.sms != sms) return QStringLiteral("sms %1, want %2").arg(s.sms).arg(sms);
    if (s.blocks.size() != grid.volume())
        return QStringLiteral("%1 blocks for a grid of %2").arg(qulonglong(s.blocks.size())).arg(qulonglong(grid.volume()));
    Dim3 spanned;
    if (const std::string e = check_block_schedule(s, &spanned); !e.empty()) return QString::fromStdString(e);
    if (!(spanned == grid)) return QStringLiteral("the blocks span another grid");
    for (std::size_t i = 0; i < s.blocks.size(); ++i)
        if (linear_block_id(s.blocks[i].block, grid) != i) return QStringLiteral("record %1 is out of order").arg(i);
    return {};
}

BlockSchedule valid_schedule() {
    BlockSchedule s;
    s.backend = "cpu";
    s.device = "test";
    s.sms = 2;
    s.blocks = {{Dim3{0, 0, 0}, 0, 0, 10}, {Dim3{1, 0, 0}, 1, 5, 5}, {Dim3{0, 1, 0}, 0, 10, 30}, {Dim3{1, 1, 0}, 1, 6, 9}};
    return s;
}

}  // namespace

class TestBlockSchedule : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void grayscale_emulator_records_every_block_data();
    void grayscale_emulator_records_every_block();
    void matmul_emulator_records_every_block_data();
    void matmul_emulator_records_every_block();
    void one_worker_runs_blocks_in_turn();
    void make_block_schedule_refuses_bad_records();
    void check_refuses_bad_schedules_data();
    void check_refuses_bad_schedules();
    void gpu_records_every_block();

private:
    cvz::test::CudaProbe cuda_;
};

void TestBlockSchedule::initTestCase() { cuda_ = cvz::test::probe_cuda_device(); }

void TestBlockSchedule::grayscale_emulator_records_every_block_data() {
    QTest::addColumn<int>("variant");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const auto& [w, h] : {std::pair{37, 23}, std::pair{131, 7}})
            QTest::addRow("%s %dx%d", k.name.c_str(), w, h) << int(k.variant) << w << h;
}

void TestBlockSchedule::grayscale_emulator_records_every_block() {
    QFETCH(int, variant);
    QFETCH(int, width);
    QFETCH(int, height);
    const KernelInfo& k = *kernel_info(KernelFamily::Grayscale, std::uint8_t(variant));
    const LaunchShape shape = LaunchShape::of(GrayscaleVariant(variant), block_for(k));
    const std::size_t n = std::size_t(width) * height;
    const std::vector<std::uint8_t> rgb = random_bytes(3 * n, unsigned(n));
    std::vector<std::uint8_t> plain(n, 0), recorded(n, 1);
    const GrayscaleImage a{rgb.data(), plain.data(), std::uint32_t(width), std::uint32_t(height), PixelLayout::Interleaved};
    GrayscaleImage b = a;
    b.gray = recorded.data();
    QVERIFY(grayscale_emulated(a, shape).is_ok());
    EmuOptions options;
    options.host_threads = 3;  // more workers than cores on CI: blocks spread over several "SMs"
    BlockSchedule s;
    const Status st = grayscale_emulated_schedule(b, shape, &s, options);
    QVERIFY2(st.is_ok(), st.message().c_str());
    QVERIFY(recorded == plain);
    const QString problem = schedule_problem(s, grayscale_grid(shape, width, height), 3);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(s.backend, std::string("cpu"));
    QCOMPARE(s.device, std::string("CPU emulator (3 host threads)"));
}

void TestBlockSchedule::matmul_emulator_records_every_block_data() {
    QTest::addColumn<int>("variant");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    for (const KernelInfo& info : family_catalogue(KernelFamily::Matmul))
        QTest::addRow("%s 37x19 @ 19x53", info.name.c_str()) << int(info.variant) << 37 << 19 << 53;
}

void TestBlockSchedule::matmul_emulator_records_every_block() {
    QFETCH(int, variant);
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const KernelInfo& info = *kernel_info(KernelFamily::Matmul, std::uint8_t(variant));
    const Dim3 block = block_for(info);
    const MatmulLaunch launch = MatmulLaunch::of(MatmulVariant(variant), block, info.tiles.empty() ? 0 : info.tiles.front());
    const std::vector<float> a = random_floats(std::size_t(m) * k, 11), b = random_floats(std::size_t(k) * n, 12);
    std::vector<float> plain(std::size_t(m) * n, 0), recorded(std::size_t(m) * n, 1);
    const MatmulProblem p{a.data(), b.data(), plain.data(), std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)};
    MatmulProblem q = p;
    q.c = recorded.data();
    QVERIFY(matmul_emulated(p, launch).is_ok());
    EmuOptions options;
    options.host_threads = 3;
    BlockSchedule s;
    const Status st = matmul_emulated_schedule(q, launch, &s, options);
    QVERIFY2(st.is_ok(), st.message().c_str());
    QVERIFY(std::memcmp(plain.data(), recorded.data(), plain.size() * sizeof(float)) == 0);
    const QString problem = schedule_problem(s, matmul_grid(launch, m, n), 3);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestBlockSchedule::one_worker_runs_blocks_in_turn() {
    // One host worker runs its blocks one after another: no two of them overlap in time.
    const std::uint32_t w = 45, h = 29;
    const std::vector<std::uint8_t> rgb = random_bytes(3 * w * h, 5);
    std::vector<std::uint8_t> gray(w * h);
    EmuOptions options;
    options.host_threads = 1;
    BlockSchedule s;
    const LaunchShape shape = LaunchShape::of(GrayscaleVariant::Gray2d, Dim3{8, 8, 1});
    QVERIFY(grayscale_emulated_schedule(GrayscaleImage{rgb.data(), gray.data(), w, h, PixelLayout::Interleaved}, shape,
                                        &s, options)
                .is_ok());
    QCOMPARE(s.sms, 1);
    QCOMPARE(s.blocks.size(), std::size_t(6 * 4));
    for (std::size_t i = 1; i < s.blocks.size(); ++i) {
        QCOMPARE(s.blocks[i].sm, 0);
        QVERIFY(s.blocks[i].start_ns >= s.blocks[i - 1].end_ns);
    }
}

void TestBlockSchedule::make_block_schedule_refuses_bad_records() {
    BlockSchedule s;
    std::vector<BlockTiming> raw = {{0, 100, 200}, {1, 150, 160}, {-1, 0, 0}};
    QVERIFY(QString::fromStdString(make_block_schedule(Dim3{3, 1, 1}, raw, &s)).contains("[2, 0, 0] was never recorded"));
    raw[2] = {0, 300, 250};
    QVERIFY(QString::fromStdString(make_block_schedule(Dim3{3, 1, 1}, raw, &s)).contains("ends before it starts"));
    QVERIFY(QString::fromStdString(make_block_schedule(Dim3{2, 2, 1}, raw, &s)).contains("holds 3 blocks"));
    raw[2] = {1, 300, 350};
    s.sms = 2;
    QCOMPARE(make_block_schedule(Dim3{3, 1, 1}, raw, &s), std::string());
    QCOMPARE(s.blocks[0].start_ns, 0u);
    QCOMPARE(s.blocks[1].start_ns, 50u);
    QCOMPARE(s.blocks[2].end_ns, 250u);
    QCOMPARE(s.blocks[2].block.x, 2u);
}

void TestBlockSchedule::check_refuses_bad_schedules_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("expected");
    QTest::newRow("valid") << 0 << QString();
    QTest::newRow("duplicate") << 1 << "[0, 0, 0] is listed twice";
    QTest::newRow("missing") << 2 << "span a grid of 2x2x1 = 4 blocks but 3 are listed";
    QTest::newRow("sm out of range") << 3 << "ran on SM 2, outside 0..1";
    QTest::newRow("end before start") << 4 << "ends before it starts";
    QTest::newRow("not relative") << 5 << "earliest start is 5 ns";
    QTest::newRow("huge index") << 6 << "but 4 are listed";
    QTest::newRow("no sms") << 7 << "SM count must be at least 1";
}

void TestBlockSchedule::check_refuses_bad_schedules() {
    QFETCH(int, which);
    QFETCH(QString, expected);
    BlockSchedule s = valid_schedule();
    switch (which) {
        case 1: s.blocks[3].block = Dim3{0, 0, 0}; break;
        case 2: s.blocks.pop_back(); break;
        case 3: s.blocks[1].sm = 2; break;
        case 4: s.blocks[2].end_ns = 9; break;
        case 5:
            for (BlockRecord& b : s.blocks) b.start_ns += 5, b.end_ns += 5;
            break;
        case 6: s.blocks[3].block = Dim3{2000000000, 2000000000, 65535}; break;
        case 7: s.sms = 0; break;
        default: break;
    }
    const QString got = QString::fromStdString(check_block_schedule(s));
    if (expected.isEmpty())
        QCOMPARE(got, QString());
    else
        QVERIFY2(got.contains(expected), qPrintable(got));
}

void TestBlockSchedule::gpu_records_every_block() {
    if (!cuda_.has_device) QSKIP(qPrintable(cuda_.no_device));
    const std::uint32_t w = 1001, h = 333;
    const std::vector<std::uint8_t> rgb = random_bytes(3 * w * h, 9);
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), block_for(k));
        std::vector<std::uint8_t> emulated(w * h), recorded(w * h, 1);
        QVERIFY(grayscale_emulated(GrayscaleImage{rgb.data(), emulated.data(), w, h, PixelLayout::Interleaved}, shape).is_ok());
        BlockSchedule s;
        const Status st = grayscale_cuda_schedule(GrayscaleImage{rgb.data(), recorded.data(), w, h, PixelLayout::Interleaved},
                                                  shape, &s);
        QVERIFY2(st.is_ok(), st.message().c_str());
        QVERIFY2(recorded == emulated, k.name.c_str());
        QCOMPARE(s.backend, std::string("cuda"));
        const QString problem = schedule_problem(s, grayscale_grid(shape, w, h), s.sms);
        QVERIFY2(problem.isEmpty(), qPrintable(QString::fromStdString(k.name) + ": " + problem));
    }
    for (const KernelInfo& info : family_catalogue(KernelFamily::Matmul)) {
        const std::uint32_t m = 301, kk = 77, n = 203;
        const MatmulLaunch launch =
            MatmulLaunch::of(MatmulVariant(info.variant), block_for(info), info.tiles.empty() ? 0 : info.tiles.front());
        const std::vector<float> a = random_floats(std::size_t(m) * kk, 1), b = random_floats(std::size_t(kk) * n, 2);
        std::vector<float> emulated(std::size_t(m) * n), recorded(std::size_t(m) * n, 1);
        QVERIFY(matmul_emulated(MatmulProblem{a.data(), b.data(), emulated.data(), m, kk, n}, launch).is_ok());
        BlockSchedule s;
        const Status st = matmul_cuda_schedule(MatmulProblem{a.data(), b.data(), recorded.data(), m, kk, n}, launch, &s);
        QVERIFY2(st.is_ok(), st.message().c_str());
        QVERIFY2(std::memcmp(emulated.data(), recorded.data(), emulated.size() * 4) == 0, info.name.c_str());
        const QString problem = schedule_problem(s, matmul_grid(launch, m, n), s.sms);
        QVERIFY2(problem.isEmpty(), qPrintable(QString::fromStdString(info.name) + ": " + problem));
    }
}

QTEST_GUILESS_MAIN(TestBlockSchedule)
#include "tst_block_schedule.moc"
