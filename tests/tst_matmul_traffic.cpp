// Memory traffic counted by running the kernel bodies through the traced emulator, against the
// closed forms the matrix view shows (naive: K loads per operand per output; tiled: K/TILE per thread).
#include <QtTest>

#include "app/matmul_traffic.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::MatmulLaunch)

class TestMatmulTraffic : public QObject {
    Q_OBJECT
private slots:
    void counted_equals_predicted_data();
    void counted_equals_predicted();
    void tiling_divides_global_loads_by_tile();
};

void TestMatmulTraffic::counted_equals_predicted_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    for (const MatmulLaunch& l : {MatmulLaunch::naive(16, 16), MatmulLaunch::naive(7, 3), MatmulLaunch::tiled(8),
                                  MatmulLaunch::tiled(16), MatmulLaunch::tiled(32)})
        for (auto [m, k, n] : {std::tuple{97, 33, 61}, std::tuple{5, 784, 10}, std::tuple{1, 1, 1}, std::tuple{40, 17, 9}})
            QTest::newRow(qPrintable(QString("%1 %2x%3@%3x%4").arg(QString::fromStdString(to_string(l))).arg(m).arg(k).arg(n)))
                << l << m << k << n;
}

void TestMatmulTraffic::counted_equals_predicted() {
    QFETCH(MatmulLaunch, launch);
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const MatmulTraffic c = measured_matmul_traffic(launch, m, k, n);
    const MatmulTraffic p = predicted_matmul_traffic(launch, m, k, n);
    QCOMPARE(c.global_loads, p.global_loads);
    QCOMPARE(c.global_stores, p.global_stores);
    QCOMPARE(c.shared_loads, p.shared_loads);
    QCOMPARE(c.shared_stores, p.shared_stores);
    QCOMPARE(c.max_global_loads_per_thread, p.max_global_loads_per_thread);
    QCOMPARE(c.barriers, p.barriers);
}

void TestMatmulTraffic::tiling_divides_global_loads_by_tile() {
    const std::uint32_t s = 128;  // a multiple of every tile: no padding
    const auto naive = predicted_matmul_traffic(MatmulLaunch::naive(16, 16), s, s, s);
    for (unsigned t : {8u, 16u, 32u}) {
        const auto tiled = predicted_matmul_traffic(MatmulLaunch::tiled(t), s, s, s);
        QCOMPARE(naive.global_loads / tiled.global_loads, std::uint64_t(t));
        QCOMPARE(tiled.max_global_loads_per_thread, 2ull * s / t);
    }
}

QTEST_APPLESS_MAIN(TestMatmulTraffic)
#include "tst_matmul_traffic.moc"
