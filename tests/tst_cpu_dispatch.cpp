// The CPU paths (kernels/core/cpu_features.h): every path this CPU can run gives the same bytes as the
// baseline path for the references, the emulator's plain runner and its fibers, on odd, non-square
// sizes; fused multiply-adds stay fused and nothing else is contracted.
#include <QtTest>

#include "matmul_cases.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "kernels/core/cpu_features.h"
#include "kernels/emulator/emulate.h"
#include "kernels/grayscale/grayscale_body.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_reference.h"

using namespace cvz;

namespace {

// Restores the path in use when a test ends, so that the order of the tests does not matter.
class PathGuard {
public:
    PathGuard() : saved_(cpu_path()) {}
    ~PathGuard() { set_cpu_path(saved_); }

private:
    CpuPath saved_;
};

// Runs `produce` once on every available path and checks each result against the baseline's, byte
// for byte. Returns the baseline's bytes for further checks.
template <class T>
std::vector<T> same_on_every_path(const std::function<std::vector<T>()>& produce) {
    PathGuard guard;
    const std::vector<CpuPath> paths = available_cpu_paths();
    [&] { QVERIFY(!paths.empty() && paths.front() == CpuPath::Baseline); }();
    set_cpu_path(CpuPath::Baseline);
    const std::vector<T> baseline = produce();
    for (CpuPath p : paths) {
        [&] { QVERIFY(set_cpu_path(p)); }();
        [&] { QCOMPARE(cpu_path(), p); }();
        const std::vector<T> got = produce();
        [&] {
            QCOMPARE(got.size(), baseline.size());
            QVERIFY2(std::memcmp(got.data(), baseline.data(), got.size() * sizeof(T)) == 0,
                     qPrintable(QString("path %1 differs from the baseline").arg(to_string(p))));
        }();
    }
    return baseline;
}

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (auto& b : v) b = std::uint8_t(rng());
    // The extremes, where truncation to uint8 is most delicate.
    if (n >= 6) {
        v[0] = v[1] = v[2] = 255;
        v[3] = v[4] = v[5] = 0;
    }
    return v;
}

}  // namespace

Q_DECLARE_METATYPE(cvz::PixelLayout)
Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::MatmulLaunch)

class TestCpuDispatch : public QObject {
    Q_OBJECT
private slots:
    void paths_are_listed_baseline_first();
    void path_names_round_trip();
    void grayscale_reference_same_on_every_path_data();
    void grayscale_reference_same_on_every_path();
    void grayscale_emulated_same_on_every_path_data();
    void grayscale_emulated_same_on_every_path();
    void matmul_same_on_every_path_data();
    void matmul_same_on_every_path();
    void missing_barrier_race_same_on_every_path();
    void fma_stays_fused_and_products_unfused();
};

void TestCpuDispatch::paths_are_listed_baseline_first() {
    const std::vector<CpuPath> paths = available_cpu_paths();
    QVERIFY(!paths.empty());
    QCOMPARE(paths.front(), CpuPath::Baseline);
    for (CpuPath p : paths) {
        PathGuard guard;
        QVERIFY(set_cpu_path(p));
        QCOMPARE(cpu_path(), p);
        QVERIFY(QString::fromStdString(cpu_path_description()).startsWith(to_string(p)));
    }
#if !defined(__x86_64__)
    QVERIFY(!set_cpu_path(CpuPath::Avx2Fma));  // other architectures have only their own baseline
#endif
}

void TestCpuDispatch::path_names_round_trip() {
    for (CpuPath p : {CpuPath::Baseline, CpuPath::Avx2Fma}) QVERIFY(parse_cpu_path(to_string(p)) == p);
    QVERIFY(!parse_cpu_path("avx512").has_value());
    QVERIFY(!parse_cpu_path("").has_value());
}

void TestCpuDispatch::grayscale_reference_same_on_every_path_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<PixelLayout>("layout");
    for (PixelLayout l : {PixelLayout::Interleaved, PixelLayout::Planar}) {
        const char* name = l == PixelLayout::Planar ? "planar" : "interleaved";
        QTest::newRow(qPrintable(QString("1x1 %1").arg(name))) << 1 << 1 << l;
        QTest::newRow(qPrintable(QString("37x23 %1").arg(name))) << 37 << 23 << l;
        QTest::newRow(qPrintable(QString("257x3 %1").arg(name))) << 257 << 3 << l;  // vector loop + remainder
        QTest::newRow(qPrintable(QString("641x479 %1").arg(name))) << 641 << 479 << l;
    }
}

void TestCpuDispatch::grayscale_reference_same_on_every_path() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(PixelLayout, layout);
    const auto w = std::uint32_t(width), h = std::uint32_t(height);
    const std::uint64_t n = std::uint64_t(w) * h;
    const std::vector<std::uint8_t> rgb = random_bytes(3 * n, 7);
    const std::vector<std::uint8_t> gray = same_on_every_path<std::uint8_t>([&] {
        std::vector<std::uint8_t> out(n, 0xAB);
        grayscale_reference({rgb.data(), out.data(), w, h, layout});
        return out;
    });
    // And the same as luma_u8 called pixel by pixel from this (baseline-compiled) test.
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint8_t want = layout == PixelLayout::Planar ? luma_u8(rgb[i], rgb[i + n], rgb[i + 2 * n])
                                                                : luma_u8(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
        if (gray[i] != want) QFAIL(qPrintable(QString("pixel %1: %2, luma_u8 gives %3").arg(i).arg(gray[i]).arg(want)));
    }
}

void TestCpuDispatch::grayscale_emulated_same_on_every_path_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<PixelLayout>("layout");
    QTest::addColumn<unsigned>("host_threads");
    QTest::newRow("1-D 256 interleaved") << LaunchShape::one_d(256) << PixelLayout::Interleaved << 0u;
    QTest::newRow("1-D 33 planar") << LaunchShape::one_d(33) << PixelLayout::Planar << 1u;
    QTest::newRow("2-D 16x16 interleaved") << LaunchShape::two_d(16, 16) << PixelLayout::Interleaved << 2u;
    QTest::newRow("2-D 7x3 planar") << LaunchShape::two_d(7, 3) << PixelLayout::Planar << 0u;
}

void TestCpuDispatch::grayscale_emulated_same_on_every_path() {
    QFETCH(LaunchShape, shape);
    QFETCH(PixelLayout, layout);
    QFETCH(unsigned, host_threads);
    const std::uint32_t w = 301, h = 67;
    const std::uint64_t n = std::uint64_t(w) * h;
    const std::vector<std::uint8_t> rgb = random_bytes(3 * n, 11);
    EmuOptions o;
    o.host_threads = host_threads;
    const std::vector<std::uint8_t> gray = same_on_every_path<std::uint8_t>([&] {
        std::vector<std::uint8_t> out(n, 0xAB);
        const Status s = grayscale_emulated({rgb.data(), out.data(), w, h, layout}, shape, o);
        [&] { QVERIFY2(s.is_ok(), s.message().c_str()); }();
        return out;
    });
    PathGuard guard;
    set_cpu_path(CpuPath::Baseline);
    std::vector<std::uint8_t> ref(n);
    grayscale_reference({rgb.data(), ref.data(), w, h, layout});
    QVERIFY(gray == ref);
}

void TestCpuDispatch::matmul_same_on_every_path_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    for (const MatmulLaunch& l : cvz::test::all_launches())
        QTest::newRow(to_string(l).c_str()) << l;
}

void TestCpuDispatch::matmul_same_on_every_path() {
    QFETCH(MatmulLaunch, launch);
    const std::uint32_t m = 45, k = 67, n = 29;
    const std::vector<float> a = cvz::test::random_matrix(std::uint64_t(m) * k, 3);
    const std::vector<float> b = cvz::test::random_matrix(std::uint64_t(k) * n, 4);
    const auto run = [&](auto&& compute) {
        return same_on_every_path<float>([&] {
            std::vector<float> c(std::uint64_t(m) * n, -1.0f);
            compute(MatmulProblem{a.data(), b.data(), c.data(), m, k, n});
            return c;
        });
    };
    const std::vector<float> emulated = run([&](const MatmulProblem& p) {
        const Status s = matmul_emulated(p, launch);
        [&] { QVERIFY2(s.is_ok(), s.message().c_str()); }();
    });
    const std::vector<float> loop = run([](const MatmulProblem& p) { matmul_fma_loop(p); });
    const std::vector<float> reference = run([](const MatmulProblem& p) { matmul_reference(p); });
    // The fma loop is the kernels' arithmetic: exact. The float64 reference agrees to rounding only.
    if (matmul_variant_info(launch.kernel)->exact)  // the tensor-core rungs: TF32 and their own sums
        QVERIFY(std::memcmp(emulated.data(), loop.data(), loop.size() * sizeof(float)) == 0);
    QVERIFY(matmul_max_relative_error(emulated.data(), reference.data(), reference.size()) <
            matmul_test_tolerance(launch.kernel, k));
    QVERIFY(emulated != reference);  // float accumulation rounds differently from float64: the check is not vacuous
}

void TestCpuDispatch::missing_barrier_race_same_on_every_path() {
    // The lesson's wrong answers come from the emulator's schedule, not from the instruction set.
    const std::uint32_t m = 16, k = 64, n = 16;
    const std::vector<float> a = cvz::test::random_matrix(std::uint64_t(m) * k, 5);
    const std::vector<float> b = cvz::test::random_matrix(std::uint64_t(k) * n, 6);
    MatmulLaunch racy = MatmulLaunch::tiled(16);
    racy.second_barrier = false;
    const std::vector<float> bad = same_on_every_path<float>([&] {
        std::vector<float> c(std::uint64_t(m) * n);
        [&] { QVERIFY(matmul_emulated({a.data(), b.data(), c.data(), m, k, n}, racy).is_ok()); }();
        return c;
    });
    std::vector<float> good(std::uint64_t(m) * n);
    matmul_fma_loop({a.data(), b.data(), good.data(), m, k, n});
    QVERIFY(bad != good);
}

void TestCpuDispatch::fma_stays_fused_and_products_unfused() {
    // 1 x 2 @ 2 x 1: c = fma(a1, b1, a0*b0). With a0*b0 rounded and a1*b1 kept exact by the fma, the
    // result differs from round(round(a1*b1) + round(a0*b0)) for these operands: a contracted or an
    // unfused computation would give other bytes.
    const float e = std::ldexp(1.0f, -13);
    const std::vector<float> a = {1.0f, 1.0f + e};
    const std::vector<float> b = {-1.0f, 1.0f - e};  // (1+e)(1-e) = 1 - 2^-26: rounds to 1
    const float fused = std::fmaf(a[1], b[1], a[0] * b[0]);
    volatile float p1 = a[1] * b[1];  // rounded to 1.0f
    const float unfused = p1 + a[0] * b[0];
    QVERIFY(fused != unfused);
    QCOMPARE(fused, -e * e);
    const std::vector<float> got = same_on_every_path<float>([&] {
        std::vector<float> c(1);
        [&] { QVERIFY(matmul_emulated({a.data(), b.data(), c.data(), 1, 2, 1}, MatmulLaunch::naive(1, 1)).is_ok()); }();
        return c;
    });
    QCOMPARE(got[0], fused);
    const std::vector<float> loop = same_on_every_path<float>([&] {
        std::vector<float> c(1);
        matmul_fma_loop({a.data(), b.data(), c.data(), 1, 2, 1});
        return c;
    });
    QCOMPARE(loop[0], fused);
}

QTEST_APPLESS_MAIN(TestCpuDispatch)
#include "tst_cpu_dispatch.moc"
