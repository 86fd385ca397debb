// The matmul kernels on the emulator: every kernel, tile and block shape against the float64
// reference on odd, non-square shapes; exact agreement among all exact variants; the missing-barrier
// race; the tensor-core rungs' TF32 rounding, fragment layout, MMA arithmetic and accuracy.
#include <QtTest>

#include "matmul_cases.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>
#include <random>
#include <vector>

#include "kernels/emulator/emulate.h"
#include "kernels/matmul/matmul_async_stages.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/matmul/mma_fragment.h"
#include "kernels/matmul/mma_shared_layout.h"
#include "kernels/matmul/mma_tf32.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::MatmulLaunch)
using Eight = std::array<float, 8>;  // one k8 step's factors
Q_DECLARE_METATYPE(Eight)

namespace {

using cvz::test::all_launches;
using cvz::test::random_matrix;
using cvz::test::Shape;
using cvz::test::shape_name;

const QList<Shape> kShapes = {{97, 33, 61}, {5, 784, 10}, {1, 1, 1}, {13, 47, 9}, {33, 17, 1}, {1, 65, 40}};

std::uint32_t bits_of(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float float_of(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// The product in double: each product of two floats is exact in
// double, and the sums' own rounding (2^-53) is far below the errors compared here.
std::vector<double> exact_product(const std::vector<float>& a, const std::vector<float>& b, const Shape& s) {
    std::vector<double> c(std::size_t(s.m) * s.n, 0.0);
    for (std::uint32_t r = 0; r < s.m; ++r)
        for (std::uint32_t i = 0; i < s.k; ++i)
            for (std::uint32_t j = 0; j < s.n; ++j) c[std::size_t(r) * s.n + j] += double(a[std::size_t(r) * s.k + i]) * b[std::size_t(i) * s.n + j];
    return c;
}

// ||got - exact||_F / ||exact||_F
double frobenius_error(const std::vector<float>& got, const std::vector<double>& exact) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        num += (double(got[i]) - exact[i]) * (double(got[i]) - exact[i]);
        den += exact[i] * exact[i];
    }
    return std::sqrt(num / std::max(den, 1e-300));
}

// The emulator's MMA arithmetic written out per output, without fragments (mma_tf32.h): K in steps
// of 8; each step's MMA truncates the accumulator and its 8 exact products toward zero to multiples of
// 2^(e - 25), e the largest of the accumulator's exponent and the products' nominal ones (the sum of
// the factors' exponents), sums them and truncates the sum toward zero to float. 3xTF32 makes three
// such MMAs per step (small x big, big x small, big x big) into a sum per `tile_k` of K (its part_k:
// each k-step of 8 for warp_mma_3xtf32, each K tile of 32 for the wgmma rung) started at zero, added to
// the output's in float; with `passes_outer` each pass goes over the tile's k-steps before the next.
float truncated_sum(float c, const std::vector<std::pair<float, float>>& factors) {
    int e = c != 0 ? std::ilogb(c) : -100000;
    double plain = c;
    for (const auto& [x, y] : factors) {
        plain += double(x) * y;
        if (x != 0 && y != 0) e = std::max(e, std::ilogb(x) + std::ilogb(y));
    }
    if (!std::isfinite(plain) || e == -100000) return float(plain);
    const double unit = std::ldexp(1.0, e - 25);
    double s = std::trunc(c / unit) * unit;
    for (const auto& [x, y] : factors) s += std::trunc(double(x) * y / unit) * unit;
    const float f = float(s);
    return std::fabs(double(f)) > std::fabs(s) ? std::nextafter(f, 0.0f) : f;
}

std::vector<float> mma_model(const std::vector<float>& a, const std::vector<float>& b, const Shape& s, unsigned passes,
                             unsigned tile_k, bool passes_outer = false) {
    const auto big = [](float x) { return round_to_tf32(x); };
    const auto small = [](float x) { return split_tf32(x).small; };
    const auto fin = [](float x) { const float v = round_to_tf32(x); return std::isfinite(v) ? v : 0.0f; };
    using Part = float (*)(float);
    std::vector<std::pair<Part, Part>> steps;
    if (passes == 1) steps = {{+big, +big}};
    else steps = {{+small, +fin}, {+fin, +small}, {+big, +big}};
    const auto mma = [&](float acc, std::uint32_t r, std::uint32_t j, std::uint32_t k0, Part pa, Part pb) {
        std::vector<std::pair<float, float>> f;
        for (std::uint32_t i = k0; i < std::min(s.k, k0 + 8); ++i)
            f.emplace_back(pa(a[std::size_t(r) * s.k + i]), pb(b[std::size_t(i) * s.n + j]));
        return truncated_sum(acc, f);
    };
    std::vector<float> c(std::size_t(s.m) * s.n);
    for (std::uint32_t r = 0; r < s.m; ++r)
        for (std::uint32_t j = 0; j < s.n; ++j) {
            float acc = 0.0f;
            for (std::uint32_t t0 = 0; t0 < s.k; t0 += tile_k) {
                float part = 0.0f;
                if (passes_outer)  // each pass over the tile's k-steps in turn (matmul_3xtf32_wgmma)
                    for (const auto& [pa, pb] : steps)
                        for (std::uint32_t k0 = t0; k0 < t0 + tile_k; k0 += 8) part = mma(part, r, j, k0, pa, pb);
                else
                    for (std::uint32_t k0 = t0; k0 < t0 + tile_k; k0 += 8)
                        for (const auto& [pa, pb] : steps) {
                            if (passes == 1) acc = mma(acc, r, j, k0, pa, pb);
                            else part = mma(part, r, j, k0, pa, pb);
                        }
                if (passes != 1) acc = acc + part;
            }
            c[std::size_t(r) * s.n + j] = acc;
        }
    return c;
}

}  // namespace

class TestMatmul : public QObject {
    Q_OBJECT
private slots:
    void matches_reference_data();
    void matches_reference();
    void all_variants_agree_bit_for_bit_data();
    void all_variants_agree_bit_for_bit();
    void interior_tiles_give_the_naive_bytes_data();
    void interior_tiles_give_the_naive_bytes();
    void async_stages_give_the_naive_bytes_data();
    void async_stages_give_the_naive_bytes();
    void missing_barrier_gives_wrong_results();
    void missing_barrier_harmless_with_one_phase();
    void nan_and_inf_propagate();
    void rejects_invalid_launches_data();
    void rejects_invalid_launches();
    void tf32_rounding_is_cvt_rna_data();
    void tf32_rounding_is_cvt_rna();
    void tf32_split_is_exact_to_fp32();
    void mma_fragments_are_ptx_layout();
    void tensor_core_sum_reproduces_the_h200_data();
    void tensor_core_sum_reproduces_the_h200();
    void tensor_core_mma_arithmetic_data();
    void tensor_core_mma_arithmetic();
    void tensor_core_accuracy_data();
    void tensor_core_accuracy();
    void tensor_core_shared_layout_data();
    void tensor_core_shared_layout();
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
    // float accumulation of K products of magnitude <= 1: error well under K * eps relative to max(1,|ref|);
    // TF32 factors: about 2^-11 of each product (matmul_test_tolerance)
    const double err = matmul_max_relative_error(got.data(), ref.data(), got.size());
    const double tolerance = matmul_test_tolerance(launch.kernel, std::uint32_t(k));
    QVERIFY2(err < tolerance, qPrintable(QString("max relative error %1 (tolerance %2)").arg(err).arg(tolerance)));
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
        if (!matmul_variant_info(l.kernel)->exact) continue;  // the tensor-core rungs: their own tests below
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

// The double buffer and split-K read phases wholly inside A and B without bounds checks (INTERIOR,
// matmul_double_buffer.h): on shapes with whole interior blocks, ragged edges and a K tail, both
// paths, float4 (K and N multiples of 4) and element by element (odd K and N), give matmul_naive's bytes.
void TestMatmul::interior_tiles_give_the_naive_bytes_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::newRow("259x53 @ 53x517 (element by element)") << 259 << 53 << 517;
    QTest::newRow("260x52 @ 52x520 (float4)") << 260 << 52 << 520;
}

void TestMatmul::interior_tiles_give_the_naive_bytes() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const std::uint32_t um = std::uint32_t(m), uk = std::uint32_t(k), un = std::uint32_t(n);
    QVERIFY(MatmulDoubleBufferBody::Tiles::INTERIOR && MatmulSplitKBody::Tiles::INTERIOR);
    // at least one block wholly inside, and an edge on every side
    QVERIFY(um > 2 * MatmulDoubleBufferBody::Tiles::BM && un > 2 * MatmulDoubleBufferBody::Tiles::BN);
    QVERIFY(uk % MatmulDoubleBufferBody::Tiles::BK != 0 && uk > MatmulDoubleBufferBody::Tiles::BK);
    const auto a = random_matrix(std::uint64_t(m) * k, 11), b = random_matrix(std::uint64_t(k) * n, 12);
    std::vector<float> naive(std::uint64_t(m) * n, NAN);
    QVERIFY(matmul_emulated({a.data(), b.data(), naive.data(), um, uk, un}, MatmulLaunch::naive(16, 16)).is_ok());
    for (const MatmulLaunch& l : {MatmulLaunch::of(MatmulVariant::DoubleBuffer, matmul_variant_info(MatmulVariant::DoubleBuffer)->fixed_block, 0),
                                  MatmulLaunch::of(MatmulVariant::SplitK, matmul_variant_info(MatmulVariant::SplitK)->fixed_block, 1)}) {
        std::vector<float> c(naive.size(), NAN);
        QVERIFY(matmul_emulated({a.data(), b.data(), c.data(), um, uk, un}, l).is_ok());
        QVERIFY2(std::memcmp(naive.data(), c.data(), c.size() * sizeof(float)) == 0,
                 qPrintable(QString::fromStdString(to_string(l)) + " differs from naive"));
    }
}

namespace {

// matmul_async_stages<S> (a candidate of bench_matmul_gpu_fp32_configs, not in the catalogue) on the
// emulator: C, or empty when the launch failed.
template <class S>
std::vector<float> async_stages_on_emulator(const MatmulProblem& p) {
    EmuOptions o;
    o.barriers = true;
    o.shared_bytes = std::size_t(S::SHARED_FLOATS) * sizeof(float);
    const Dim3 grid{unsigned((p.n + S::BN - 1) / S::BN), unsigned((p.m + S::BM - 1) / S::BM), 1};
    if (!emulate(grid, Dim3{S::THREADS, 1, 1}, o, [&p](const EmuContext& ctx) { matmul_async_stages<S>(ctx, p); }).is_ok())
        return {};
    return std::vector<float>(p.c, p.c + std::size_t(p.m) * p.n);
}

}  // namespace

void TestMatmul::async_stages_give_the_naive_bytes_data() { interior_tiles_give_the_naive_bytes_data(); }

// The cp.async candidates of cuBLAS's shape (BK 8, 3 or 4 stages, 128 x 256 and 256 x 128 tiles of
// 8 x 16 a thread) in every fma order, with and without the interior path: matmul_naive's bytes, as
// on the H200 (docs/measurements/2026-12-03-fp32-4096-h200.md, session 15).
void TestMatmul::async_stages_give_the_naive_bytes() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const std::uint32_t um = std::uint32_t(m), uk = std::uint32_t(k), un = std::uint32_t(n);
    const auto a = random_matrix(std::uint64_t(m) * k, 11), b = random_matrix(std::uint64_t(k) * n, 12);
    std::vector<float> naive(std::uint64_t(m) * n, NAN);
    QVERIFY(matmul_emulated({a.data(), b.data(), naive.data(), um, uk, un}, MatmulLaunch::naive(16, 16)).is_ok());
    std::vector<float> c(naive.size(), NAN);
    const MatmulProblem p{a.data(), b.data(), c.data(), um, uk, un};
    const auto check = [&](const char* name, const std::vector<float>& got) {
        QVERIFY2(got.size() == naive.size() && std::memcmp(naive.data(), got.data(), got.size() * sizeof(float)) == 0,
                 qPrintable(QString(name) + " differs from naive"));
        std::fill(c.begin(), c.end(), NAN);
    };
    // BM, BN, BK, TM, TN, WX, STAGES, ORDER, INTERIOR
    check("128x256 BK8 3st wx16 o0", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3>>(p));
    check("128x256 BK8 3st wx16 o1", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 1>>(p));
    check("+interior 128x256 BK8 3st wx16 o0", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 0, true>>(p));
    check("+interior 128x256 BK8 3st wx16 o1", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 1, true>>(p));
    check("+interior 128x256 BK8 3st wx16 o2", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 2, true>>(p));
    check("+interior 128x256 BK8 3st wx16 o3", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 3, true>>(p));
    check("+interior 128x256 BK8 4st wx16 o2", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 16, 4, 2, true>>(p));
    check("+interior 128x256 BK8 3st wx4 o1", async_stages_on_emulator<AsyncStageTiles<128, 256, 8, 8, 16, 4, 3, 1, true>>(p));
    check("+interior 256x128 BK8 3st wx8 o1", async_stages_on_emulator<AsyncStageTiles<256, 128, 8, 8, 16, 8, 3, 1, true>>(p));
    check("+interior 128x256 BK16 3st wx16 o1", async_stages_on_emulator<AsyncStageTiles<128, 256, 16, 8, 16, 16, 3, 1, true>>(p));
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

// cvt.rna.tf32.f32 (PTX ISA): 10 mantissa bits, to nearest, ties away from zero.
void TestMatmul::tf32_rounding_is_cvt_rna_data() {
    QTest::addColumn<uint>("in");
    QTest::addColumn<uint>("out");
    QTest::newRow("1 stays") << 0x3f800000u << 0x3f800000u;
    QTest::newRow("below half drops") << 0x3f800fffu << 0x3f800000u;
    QTest::newRow("tie from an even mantissa goes up (not to even)") << 0x3f801000u << 0x3f802000u;
    QTest::newRow("negative tie goes away from zero") << 0xbf801000u << 0xbf802000u;
    QTest::newRow("above half goes up") << 0x3f801001u << 0x3f802000u;
    QTest::newRow("carry into the exponent") << 0x3fffffffu << 0x40000000u;
    QTest::newRow("largest float rounds to Inf") << 0x7f7fffffu << 0x7f800000u;
    QTest::newRow("just below the largest TF32 tie") << 0x7f7fefffu << 0x7f7fe000u;
    QTest::newRow("subnormal below half") << 0x00000fffu << 0x00000000u;
    QTest::newRow("subnormal tie") << 0x00001000u << 0x00002000u;
    QTest::newRow("-0 stays") << 0x80000000u << 0x80000000u;
    QTest::newRow("+Inf stays") << 0x7f800000u << 0x7f800000u;
    QTest::newRow("-Inf stays") << 0xff800000u << 0xff800000u;
}

void TestMatmul::tf32_rounding_is_cvt_rna() {
    QFETCH(uint, in);
    QFETCH(uint, out);
    QCOMPARE(bits_of(round_to_tf32(float_of(in))), std::uint32_t(out));
}

// big + small is x to about 2^-22 of x, both parts TF32 (13 low bits zero); Inf and NaN keep no small
// part. (From 2^-96 up: below that the small part is subnormal and keeps fewer bits.)
void TestMatmul::tf32_split_is_exact_to_fp32() {
    std::mt19937 rng(11);
    std::uniform_int_distribution<std::uint32_t> any(0x0f800000u, 0x7f000000u);
    for (int i = 0; i < 100000; ++i) {
        const float x = float_of(any(rng) | (i % 2 ? 0x80000000u : 0u));
        const Tf32Split s = split_tf32(x);
        QVERIFY((bits_of(s.big) & 0x1fffu) == 0 && (bits_of(s.small) & 0x1fffu) == 0);
        const double err = std::fabs(double(s.big) + double(s.small) - double(x));
        QVERIFY2(err <= std::ldexp(std::fabs(double(x)), -22) + 1e-44, qPrintable(QString::number(double(x), 'g', 9)));
    }
    QCOMPARE(split_tf32(INFINITY).small, 0.0f);
    QVERIFY(std::isinf(split_tf32(-INFINITY).big));
    QVERIFY(std::isnan(split_tf32(NAN).big) && split_tf32(NAN).small == 0.0f);
}

// The PTX ISA's figures for mma.m16n8k8 .tf32: every element of A, B and C is held by exactly one
// (lane, register), the inverses agree, and the figures' corner lanes hold what they show.
void TestMatmul::mma_fragments_are_ptx_layout() {
    int a_seen[16][8] = {}, b_seen[8][8] = {}, c_seen[16][8] = {};
    for (unsigned lane = 0; lane < 32; ++lane) {
        for (unsigned r = 0; r < MmaShape::A_REGS; ++r) {
            const unsigned row = mma_a_row(lane, r), col = mma_a_col(lane, r);
            QVERIFY(row < 16 && col < 8);
            ++a_seen[row][col];
            QCOMPARE(mma_a_lane(row, col), lane);
            QCOMPARE(mma_a_reg(row, col), r);
        }
        for (unsigned r = 0; r < MmaShape::B_REGS; ++r) {
            const unsigned row = mma_b_row(lane, r), col = mma_b_col(lane, r);
            QVERIFY(row < 8 && col < 8);
            ++b_seen[row][col];
            QCOMPARE(mma_b_lane(row, col), lane);
            QCOMPARE(mma_b_reg(row, col), r);
        }
        for (unsigned r = 0; r < MmaShape::C_REGS; ++r) {
            const unsigned row = mma_c_row(lane, r), col = mma_c_col(lane, r);
            QVERIFY(row < 16 && col < 8);
            ++c_seen[row][col];
        }
    }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) QVERIFY(a_seen[i][j] == 1 && c_seen[i][j] == 1);
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) QCOMPARE(b_seen[i][j], 1);
    // lane 0: a0 (0,0) a1 (8,0) a2 (0,4) a3 (8,4); b0 (0,0) b1 (4,0); c0 (0,0) c1 (0,1) c2 (8,0) c3 (8,1)
    QCOMPARE(mma_a_row(0, 1), 8u);
    QCOMPARE(mma_a_col(0, 2), 4u);
    QCOMPARE(mma_b_row(0, 1), 4u);
    QCOMPARE(mma_c_col(0, 1), 1u);
    QCOMPARE(mma_c_row(0, 2), 8u);
    // lane 31 (groupID 7, threadID_in_group 3): a3 (15,7); b0 (3,7) b1 (7,7); c0 (7,6) c3 (15,7)
    QCOMPARE(mma_a_row(31, 3), 15u);
    QCOMPARE(mma_a_col(31, 3), 7u);
    QCOMPARE(mma_b_row(31, 0), 3u);
    QCOMPARE(mma_b_col(31, 0), 7u);
    QCOMPARE(mma_b_row(31, 1), 7u);
    QCOMPARE(mma_c_row(31, 0), 7u);
    QCOMPARE(mma_c_col(31, 0), 6u);
    QCOMPARE(mma_c_row(31, 3), 15u);
    QCOMPARE(mma_c_col(31, 3), 7u);
    // lane 6 (groupID 1, threadID_in_group 2): a0 (1,2), b1 (6,1), c1 (1,5)
    QCOMPARE(mma_a_row(6, 0), 1u);
    QCOMPARE(mma_a_col(6, 0), 2u);
    QCOMPARE(mma_b_row(6, 1), 6u);
    QCOMPARE(mma_b_col(6, 1), 1u);
    QCOMPARE(mma_c_col(6, 1), 5u);
}

// The emulated tensor-core kernels give, bit for bit, the MMA arithmetic written out per output: so
// the staging, the fragments, the exchange between lanes and the stores lose or move nothing.
// One k8 step's sum against outputs the H200 gave (mma.sync and wgmma alike, bench_matmul_wgmma_sum_probe's
// second run, docs/measurements/2026-12-03-wgmma-summation-h200-2.json): one of each kind of trial
// where aligning on the product's own exponent, the emulator's rule before, was one unit off.
void TestMatmul::tensor_core_sum_reproduces_the_h200_data() {
    QTest::addColumn<float>("c");
    QTest::addColumn<float>("gpu");
    QTest::addColumn<Eight>("a");
    QTest::addColumn<Eight>("b");
    QTest::newRow("uniform") << 0x1.3b56ep-2f << -0x1.64b1d8p-3f << Eight{-0x1.344p-2, -0x1.33cp-7, 0x1.9e4p-2, 0x1.f64p-5, 0x1.b98p-1, -0x1.564p-2, -0x1.d44p-3, -0x1.934p-1} << Eight{0x1.858p-2, -0x1.c38p-1, -0x1.3ccp-2, 0x1.2bcp-2, 0x1.464p-2, -0x1.a6cp-1, 0x1.d4p-2, 0x1.d0cp-1};
    QTest::newRow("c = 0") << 0x0p+0f << -0x1.0e4162p-4f << Eight{-0x1.a3p-5, -0x1.dcp-3, 0x1.13cp-4, -0x1.5a4p-2, 0x1.80cp-1, 0x1.aecp-4, -0x1.e88p-1, -0x1.804p-1} << Eight{-0x1.19p-2, 0x1.9a4p-1, -0x1.a88p-1, -0x1.a14p-1, 0x1.a1p-1, -0x1.32cp-3, 0x1.744p-2, 0x1.ef4p-2};
    QTest::newRow("wide 2^+-12") << -0x1.2a0bep-7f << -0x1.369112p+3f << Eight{0x1.b84p-6, 0x1.9a4p+7, -0x1.354p-10, 0x1.58cp-2, 0x1.2fcp-6, -0x1.924p+1, 0x1.aap-5, 0x1.7b8p-4} << Eight{-0x1.01p-4, -0x1.b08p-5, -0x1.468p-13, 0x1.dap-8, 0x1.5dp+5, -0x1.6e4p-7, 0x1.c24p+2, -0x1.a94p-1};
    QTest::newRow("c cancels sum") << -0x1.56c51p-3f << 0x1.94ep-16f << Eight{-0x1.018p-1, -0x1.aa4p-1, 0x1.22cp-1, -0x1.424p-1, 0x1.02cp-1, -0x1.2a8p-5, 0x1.338p-3, -0x1.b84p-1} << Eight{0x1.0cp-2, -0x1.ccp-5, 0x1.22cp-3, 0x1.8a4p-2, -0x1.5p-1, 0x1.b2cp-2, -0x1.5d4p-5, -0x1.c9p-1};
    QTest::newRow("prod. cancel") << -0x1.6a124p-9f << -0x1.7eeedp-7f << Eight{-0x1.24cp-3, 0x1.784p-3, -0x1.558p-1, 0x1.03cp-2, 0x1.24cp-3, -0x1.784p-3, 0x1.558p-1, -0x1.03cp-2} << Eight{0x1.158p-1, 0x1.228p-2, -0x1.c08p-1, -0x1.538p-9, 0x1.134p-1, 0x1.1fcp-2, -0x1.c74p-1, -0x1.55cp-9};
    QTest::newRow("wide 2^+-30") << -0x1.c56d22p+0f << 0x1.0dfe62p+24f << Eight{0x1.2d4p+12, -0x1.864p-1, -0x1.0f8p+5, 0x1.b18p+3, -0x1.68p+2, -0x1.d4cp-26, -0x1.a04p-27, -0x1.84p+7} << Eight{0x1.9dcp+8, 0x1.1f8p-1, 0x1.334p+15, -0x1.50cp+0, 0x1.1dp-6, 0x1.ba4p-21, 0x1.d8p+28, -0x1.57p+16};
    QTest::newRow("c 64x") << 0x1.f608p-2f << 0x1.c0ee82p-3f << Eight{0x1.6a4p-1, -0x1.fd8p-1, 0x1.f88p-7, -0x1.ad4p-3, -0x1.e44p-7, -0x1.7c8p-1, 0x1.4b8p-3, -0x1.7dcp-1} << Eight{0x1.f28p-1, -0x1.e8cp-5, 0x1.344p-2, -0x1.a1cp-2, 0x1.58p-6, 0x1.48p-1, -0x1.5fp-1, 0x1.668p-1};
}

void TestMatmul::tensor_core_sum_reproduces_the_h200() {
    QFETCH(float, c);
    QFETCH(float, gpu);
    QFETCH(Eight, a);
    QFETCH(Eight, b);
    float fa[8], fb[8];
    std::vector<std::pair<float, float>> factors;
    for (unsigned k = 0; k < 8; ++k) {
        QCOMPARE(round_to_tf32(a[k]), a[k]);  // TF32 values, as the GPU took them
        fa[k] = a[k], fb[k] = b[k];
        factors.emplace_back(a[k], b[k]);
    }
    QCOMPARE(bits_of(detail::tensor_core_sum(c, fa, fb)), bits_of(gpu));
    QCOMPARE(bits_of(truncated_sum(c, factors)), bits_of(gpu));
}

void TestMatmul::tensor_core_mma_arithmetic_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("variant");
    for (const Shape& s : QList<Shape>{{97, 33, 61}, {1, 65, 40}, {33, 17, 1}, {16, 8, 8}, {131, 40, 137}, {5, 3, 2}})
        for (MatmulVariant v : {MatmulVariant::Tf32, MatmulVariant::Tf32x3, MatmulVariant::Tf32Wgmma, MatmulVariant::Tf32x3Wgmma})
            QTest::newRow(qPrintable(shape_name(s) + " " + QString::fromStdString(matmul_variant_info(v)->name)))
                << int(s.m) << int(s.k) << int(s.n) << int(v);
}

void TestMatmul::tensor_core_mma_arithmetic() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    QFETCH(int, variant);
    const Shape s{std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)};
    const auto a = random_matrix(std::uint64_t(m) * k, 21), b = random_matrix(std::uint64_t(k) * n, 22);
    std::vector<float> got(std::size_t(m) * n, NAN);
    const MatmulLaunch l = MatmulLaunch::of(MatmulVariant(variant), matmul_variant_info(MatmulVariant(variant))->fixed_block, 0);
    const Status st = matmul_emulated({a.data(), b.data(), got.data(), s.m, s.k, s.n}, l);
    QVERIFY2(st.is_ok(), st.message().c_str());
    // The body's passes and the K of its sums apart (part_k; 0: one sum through all of K).
    unsigned passes = 0, part_k = 0;
    bool outer = false;
    QVERIFY(with_matmul_variant(l, [&](auto body) {
                using Body = decltype(body);
                if constexpr (has_passes<Body>::value) passes = Body::passes, part_k = Body::part_k, outer = Body::passes_outer;
            }).is_ok());
    QVERIFY(passes == 1 || passes == 3);
    const std::vector<float> want = mma_model(a, b, s, passes, part_k == 0 ? MmaShape::K : part_k, outer);
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(bits_of(got[i]) == bits_of(want[i]),
                 qPrintable(QString("row %1 col %2: %3 vs %4").arg(i / n).arg(i % n).arg(double(got[i]), 0, 'g', 9).arg(double(want[i]), 0, 'g', 9)));
}

// Against the exact product: 3xTF32 at most 2x fp32's error (fp32: every exact variant's bytes),
// and far better than one TF32 pass, which stays within its tolerance.
void TestMatmul::tensor_core_accuracy_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    // 1 x N, N x 1, primes, and 1537 x 1023 @ 1023 x 769 scaled down by 8 (odd)
    for (const Shape& s : QList<Shape>{{1, 257, 131}, {131, 257, 1}, {97, 33, 61}, {193, 129, 97}, {61, 509, 37}})
        QTest::newRow(qPrintable(shape_name(s))) << int(s.m) << int(s.k) << int(s.n);
}

void TestMatmul::tensor_core_accuracy() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const Shape s{std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)};
    const auto a = random_matrix(std::uint64_t(m) * k, 31), b = random_matrix(std::uint64_t(k) * n, 32);
    const std::vector<double> exact = exact_product(a, b, s);
    const auto run = [&](MatmulVariant v) {
        std::vector<float> c(std::size_t(m) * n, NAN);
        const Status st = matmul_emulated({a.data(), b.data(), c.data(), s.m, s.k, s.n},
                                          MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, 0));
        if (!st) qFatal("%s", st.message().c_str());
        return c;
    };
    std::vector<float> fp32(std::size_t(m) * n);
    matmul_fma_loop({a.data(), b.data(), fp32.data(), s.m, s.k, s.n});
    const double e32 = frobenius_error(fp32, exact);
    // The mma.sync rungs and the wgmma ones (3xTF32 summed per K tile of 32 there, per k-step here).
    const std::pair<MatmulVariant, MatmulVariant> rungs[] = {{MatmulVariant::Tf32x3, MatmulVariant::Tf32},
                                                             {MatmulVariant::Tf32x3Wgmma, MatmulVariant::Tf32Wgmma}};
    for (const auto& [three, one] : rungs) {
        const double e3x = frobenius_error(run(three), exact);
        const double e1x = frobenius_error(run(one), exact);
        qInfo("relative error (Frobenius) against the exact product: fp32 %.3g, %s %.3g, %s %.3g", e32,
              matmul_variant_info(three)->name.c_str(), e3x, matmul_variant_info(one)->name.c_str(), e1x);
        QVERIFY2(e3x <= 2 * e32, qPrintable(QString("3xTF32 %1 vs fp32 %2").arg(e3x).arg(e32)));
        QVERIFY2(e1x > 10 * e3x, qPrintable(QString("TF32 %1 vs 3xTF32 %2").arg(e1x).arg(e3x)));
        QVERIFY2(e1x < std::ldexp(1.0, -9), qPrintable(QString("TF32 %1").arg(e1x)));
    }
}

// The shared layout the views show (mma_shared_layout.h) is the rungs': every element of a stage's
// A and B tiles has its own place inside the stage; ldmatrix.x4 hands each lane its A fragment
// (mma_fragment.h); and every fragment load of every warp and k-step is free of bank conflicts (each
// ldmatrix matrix's 8 rows on 8 different 16-byte bank groups, each B register's 32 lanes on 32 banks).
void TestMatmul::tensor_core_shared_layout_data() {
    QTest::addColumn<int>("variant");
    for (MatmulVariant v : {MatmulVariant::Tf32, MatmulVariant::Tf32x3})
        QTest::newRow(matmul_variant_info(v)->name.c_str()) << int(v);
}

void TestMatmul::tensor_core_shared_layout() {
    QFETCH(int, variant);
    const MatmulVariant v = MatmulVariant(variant);
    MmaSharedLayout l;
    QVERIFY(matmul_mma_shared_layout(MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, 0), &l));
    MmaSharedLayout none;
    QVERIFY(!matmul_mma_shared_layout(MatmulLaunch::tiled(16), &none));
    QCOMPARE(std::size_t(l.stages) * l.stage_floats * sizeof(float), MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, 0).shared_bytes());
    std::vector<int> used(l.stage_floats, 0);
    for (unsigned r = 0; r < l.bm; ++r)
        for (unsigned k = 0; k < l.bk; ++k) ++used.at(mma_shared_a_offset(l, r, k));
    for (unsigned k = 0; k < l.bk; ++k)
        for (unsigned c = 0; c < l.bn; ++c) ++used.at(mma_shared_b_offset(l, k, c));
    QCOMPARE(*std::max_element(used.begin(), used.end()), 1);
    for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned j = 0; j < 4; ++j) {  // register j of lane: element (lane / 4, lane % 4) of matrix j
            const unsigned src = (lane / 4) + 8 * mma_ldmatrix_matrix(8 * j);  // the lane that points at that row
            QCOMPARE(mma_ldmatrix_a_row(src), mma_a_row(lane, j));
            QCOMPARE(mma_ldmatrix_a_col(src) + lane % 4, mma_a_col(lane, j));
        }
    for (unsigned w = 0; w < l.warps_m * l.warps_n; ++w) {
        const unsigned wm0 = (w / l.warps_n) * l.wm, wn0 = (w % l.warps_n) * l.wn;
        for (unsigned ks = 0; ks < l.bk; ks += MmaShape::K) {
            for (unsigned mi = 0; mi < l.wm / MmaShape::M; ++mi)
                for (unsigned matrix = 0; matrix < 4; ++matrix) {
                    unsigned groups = 0;
                    for (unsigned lane = 8 * matrix; lane < 8 * matrix + 8; ++lane) {
                        const unsigned o = mma_shared_a_offset(l, wm0 + mi * MmaShape::M + mma_ldmatrix_a_row(lane), ks + mma_ldmatrix_a_col(lane));
                        QCOMPARE(o % 4, 0u);  // 16-byte rows
                        groups |= 1u << (mma_shared_bank(o) / 4);
                    }
                    QCOMPARE(groups, 0xffu);
                }
            for (unsigned ni = 0; ni < l.wn / MmaShape::N; ++ni)
                for (unsigned reg = 0; reg < MmaShape::B_REGS; ++reg) {
                    std::uint64_t banks = 0;
                    for (unsigned lane = 0; lane < 32; ++lane)
                        banks |= std::uint64_t(1) << mma_shared_bank(mma_shared_b_offset(
                                     l, ks + mma_b_row(lane, reg), wn0 + ni * MmaShape::N + mma_b_col(lane, reg)));
                    QCOMPARE(banks, 0xffffffffull);
                }
        }
    }
}

QTEST_APPLESS_MAIN(TestMatmul)
#include "tst_matmul.moc"
