// The matmul kernels on the emulator: every kernel, tile and block shape against the float64
// reference on odd, non-square shapes; exact agreement among all variants; the missing-barrier race.
#include <QtTest>

#include "matmul_cases.h"

#include <cmath>
#include <random>
#include <vector>

#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_reference.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::MatmulLaunch)

namespace {

using cvz::test::all_launches;
using cvz::test::random_matrix;
using cvz::test::Shape;
using cvz::test::shape_name;

const QList<Shape> kShapes = {{97, 33, 61}, {5, 784, 10}, {1, 1, 1}, {13, 47, 9}, {33, 17, 1}, {1, 65, 40}};


}  // namespace

class TestMatmul : public QObject {
    Q_OBJECT
private slots:
    void matches_reference_data();
    void matches_reference();
    void all_variants_agree_bit_for_bit_data();
    void all_variants_agree_bit_for_bit();
    void missing_barrier_gives_wrong_results();
    void missing_barrier_harmless_with_one_phase();
    void nan_and_inf_propagate();
    void rejects_invalid_launches_data();
    void rejects_invalid_launches();
};

void TestMatmul::matches_reference_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::addColumn<MatmulLaunch>("launch");
    for (const Shape& s : kShapes)
        for (const MatmulLaunch& l : all_launches())
            QTest::newRow(qPrintable(shape_name(s) + " " + QString::fromStdString(to_string(l))))
                << int(s.m) << int(s.k) << int(s.n) << l;
}

void TestMatmul::matches_reference() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    QFETCH(MatmulLaunch, launch);
    const auto a = random_matrix(std::uint64_t(m) * k, 1), b = random_matrix(std::uint64_t(k) * n, 2);
    std::vector<float> ref(std::uint64_t(m) * n, NAN), got(std::uint64_t(m) * n, NAN);
    matmul_reference({a.data(), b.data(), ref.data(), std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)});
    const Status s = matmul_emulated({a.data(), b.data(), got.data(), std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)}, launch);
    QVERIFY2(s.is_ok(), s.message().c_str());
    // float accumulation of K products of magnitude <= 1: error well under K * eps relative to max(1,|ref|)
    const double err = matmul_max_relative_error(got.data(), ref.data(), got.size());
    QVERIFY2(err < 1e-5 * std::max(1, k / 64), qPrintable(QString("max relative error %1").arg(err)));
}

void TestMatmul::all_variants_agree_bit_for_bit_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    for (const Shape& s : kShapes) QTest::newRow(qPrintable(shape_name(s))) << int(s.m) << int(s.k) << int(s.n);
}

void TestMatmul::all_variants_agree_bit_for_bit() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const auto a = random_matrix(std::uint64_t(m) * k, 3), b = random_matrix(std::uint64_t(k) * n, 4);
    std::vector<float> first;
    QString first_name;
    for (const MatmulLaunch& l : all_launches()) {
        std::vector<float> c(std::uint64_t(m) * n, NAN);
        QVERIFY(matmul_emulated({a.data(), b.data(), c.data(), std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)}, l).is_ok());
        const QString name = QString::fromStdString(to_string(l));
        if (first.empty()) {
            first = c;
            first_name = name;
            continue;
        }
        QVERIFY2(std::memcmp(first.data(), c.data(), c.size() * sizeof(float)) == 0,
                 qPrintable(name + " differs from " + first_name));
    }
}

// Without the second __syncthreads(), a fast thread overwrites the shared tiles of phase p with those
// of phase p+1 while its neighbours still multiply phase p: some outputs come out wrong.
void TestMatmul::missing_barrier_gives_wrong_results() {
    const std::uint32_t m = 37, k = 70, n = 29;  // several phases for every TILE
    const auto a = random_matrix(std::uint64_t(m) * k, 5), b = random_matrix(std::uint64_t(k) * n, 6);
    for (unsigned tile : {8u, 16u, 32u}) {
        std::vector<float> good(m * n), bad(m * n);
        MatmulLaunch l = MatmulLaunch::tiled(tile);
        QVERIFY(matmul_emulated({a.data(), b.data(), good.data(), m, k, n}, l).is_ok());
        l.second_barrier = false;
        QVERIFY(matmul_emulated({a.data(), b.data(), bad.data(), m, k, n}, l).is_ok());
        int wrong = 0;
        for (std::size_t i = 0; i < good.size(); ++i) wrong += good[i] != bad[i];
        QVERIFY2(wrong > 0, qPrintable(QString("TILE %1: no wrong output without the barrier").arg(tile)));
        QVERIFY2(wrong < int(good.size()), "the race should leave some outputs right (the last thread of a block)");
    }
}

// With K <= TILE there is one phase and nothing to overwrite: the race needs a next phase.
void TestMatmul::missing_barrier_harmless_with_one_phase() {
    const std::uint32_t m = 9, k = 8, n = 11;
    const auto a = random_matrix(m * k, 7), b = random_matrix(k * n, 8);
    std::vector<float> good(m * n), bad(m * n);
    MatmulLaunch l = MatmulLaunch::tiled(8);
    QVERIFY(matmul_emulated({a.data(), b.data(), good.data(), m, k, n}, l).is_ok());
    l.second_barrier = false;
    QVERIFY(matmul_emulated({a.data(), b.data(), bad.data(), m, k, n}, l).is_ok());
    QCOMPARE(bad, good);
}

void TestMatmul::nan_and_inf_propagate() {
    const std::uint32_t m = 3, k = 20, n = 4;
    auto a = random_matrix(m * k, 9), b = random_matrix(k * n, 10);
    a[1 * k + 17] = NAN;       // row 1 of C is NaN
    b[3 * n + 2] = INFINITY;   // column 2 of C is +-Inf (or NaN in row 1)
    for (const MatmulLaunch& l : all_launches()) {
        std::vector<float> c(m * n, 0);
        QVERIFY(matmul_emulated({a.data(), b.data(), c.data(), m, k, n}, l).is_ok());
        for (std::uint32_t col = 0; col < n; ++col) QVERIFY(std::isnan(c[1 * n + col]));
        QVERIFY(std::isinf(c[0 * n + 2]) && std::isinf(c[2 * n + 2]));
        QVERIFY(std::isfinite(c[0 * n + 0]) && std::isfinite(c[2 * n + 3]));
    }
}

void TestMatmul::rejects_invalid_launches_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<int>("m");
    QTest::addColumn<QString>("message");
    QTest::newRow("tile 12") << MatmulLaunch::tiled(12) << 4 << "TILE = 12";
    QTest::newRow("block 64x32") << MatmulLaunch::naive(64, 32) << 4 << "2048 threads";
    QTest::newRow("block 0x8") << MatmulLaunch::naive(0, 8) << 4 << "blockDim.x = 0";
    QTest::newRow("empty") << MatmulLaunch::naive(16, 16) << 0 << "empty";
}

void TestMatmul::rejects_invalid_launches() {
    QFETCH(MatmulLaunch, launch);
    QFETCH(int, m);
    QFETCH(QString, message);
    std::vector<float> a(64, 1), b(64, 1), c(64, 7);
    const Status s = matmul_emulated({a.data(), b.data(), c.data(), std::uint32_t(m), 4, 4}, launch);
    QVERIFY(!s.is_ok());
    QVERIFY2(QString::fromStdString(s.message()).contains(message), s.message().c_str());
    QCOMPARE(c, std::vector<float>(64, 7));
}

QTEST_APPLESS_MAIN(TestMatmul)
#include "tst_matmul.moc"
