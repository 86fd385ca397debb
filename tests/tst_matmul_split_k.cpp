// Split-K (issue 29): the slices of K summed in a fixed order, exact against a CPU model of that
// order on odd shapes for every split; its grid, workspace and labels; its traffic and prediction;
// and the best configuration per size (best_configuration.h) in the sweep and the ladder.
#include <QtTest>

#include "matmul_cases.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "app/family/family_problem.h"
#include "app/io/matrix.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/matmul/matmul_prediction.h"
#include "app/matmul/matmul_traffic.h"
#include "app/models/device_profile.h"
#include "app/tuning/best_configuration.h"
#include "app/tuning/block_sweep.h"
#include "app/tuning/ladder.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/kernel_timing.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"

using namespace cvz;
using cvz::test::random_matrix;
using cvz::test::Shape;
using cvz::test::shape_name;

namespace {

std::uint32_t bits_of(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

MatmulLaunch split(unsigned slices) {
    return MatmulLaunch::of(MatmulVariant::SplitK, matmul_variant_info(MatmulVariant::SplitK)->fixed_block, slices);
}

// The order split-K promises, written out per output: slice z sums its whole phases of BK in k order
// with fmaf from 0; then C = ((s0 + s1) + s2) + ...
std::vector<float> split_model(const std::vector<float>& a, const std::vector<float>& b, const Shape& s, unsigned slices) {
    const std::uint32_t bk = MatmulSplitKBody::k_slice;
    const std::uint32_t phases = (s.k + bk - 1) / bk, per = (phases + slices - 1) / slices;
    std::vector<float> c(std::size_t(s.m) * s.n);
    for (std::uint32_t r = 0; r < s.m; ++r)
        for (std::uint32_t col = 0; col < s.n; ++col) {
            float total = 0;
            for (unsigned z = 0; z < slices; ++z) {
                const std::uint64_t k0 = std::min<std::uint64_t>(std::uint64_t(z) * per * bk, s.k);
                const std::uint64_t k1 = std::min<std::uint64_t>(std::uint64_t(z + 1) * per * bk, s.k);
                float sum = 0;
                for (std::uint64_t i = k0; i < k1; ++i) sum = std::fmaf(a[r * std::uint64_t(s.k) + i], b[i * s.n + col], sum);
                total = z == 0 ? sum : total + sum;
            }
            c[std::size_t(r) * s.n + col] = total;
        }
    return c;
}

DeviceProfile h200() { return *find_device_profile(QStringLiteral("H200")); }

SweepRequest matmul_request(std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    SweepRequest r;
    r.problem = make_matmul_problem(Matrix{m, k, std::vector<float>(std::size_t(m) * k, 0.5f)},
                                    Matrix{k, n, std::vector<float>(std::size_t(k) * n, 0.5f)});
    r.profile = h200();
    return r;
}

SweepRequest sized_request(std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    SweepRequest r;
    r.problem = std::make_shared<const MatmulAppProblem>(m, k, n);
    r.profile = h200();
    return r;
}

const KernelInfo& variant_named(const char* name) {
    const KernelInfo* info = find_kernel(KernelFamily::Matmul, name);
    if (!info) qFatal("no variant %s", name);
    return *info;
}

}  // namespace

Q_DECLARE_METATYPE(cvz::MatmulLaunch)

class TestMatmulSplitK : public QObject {
    Q_OBJECT
private slots:
    void sums_the_slices_in_order_data();
    void sums_the_slices_in_order();
    void one_slice_is_the_naive_bytes();
    void grid_workspace_and_automatic_split();
    void labels_name_the_slices();
    void sweep_has_a_row_per_split();
    void traffic_counts_both_passes();
    void prediction_prices_the_second_pass();
    void the_model_splits_few_tiles_only();
    void best_of_a_sweep_says_its_source();
    void ladder_chooses_by_model_without_a_gpu();
    void ladder_chooses_by_timing_with_a_timer();
};

void TestMatmulSplitK::sums_the_slices_in_order_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("slices");
    // 1 x N, N x 1, K = 1, primes, K shorter than the slices, 1537 x 1023 @ 1023 x 769 scaled by 1/8;
    // whole interior tiles (read without bounds checks) beside ragged edges, element by element and float4
    const QList<Shape> shapes{{1, 257, 131}, {131, 257, 1}, {37, 1, 19}, {97, 333, 61}, {5, 784, 10}, {193, 129, 97},
                              {259, 101, 261}, {260, 100, 264}};
    for (const Shape& s : shapes)
        for (unsigned t : matmul_variant_info(MatmulVariant::SplitK)->tiles)
            QTest::newRow(qPrintable(shape_name(s) + QStringLiteral(" slices=%1").arg(t)))
                << int(s.m) << int(s.k) << int(s.n) << int(t);
}

void TestMatmulSplitK::sums_the_slices_in_order() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    QFETCH(int, slices);
    const Shape s{std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)};
    const auto a = random_matrix(std::uint64_t(m) * k, 41 + m), b = random_matrix(std::uint64_t(k) * n, 43 + n);
    std::vector<float> got(std::size_t(m) * n, NAN), ref(got.size());
    const MatmulLaunch l = split(unsigned(slices));
    EmuOptions o;
    o.host_threads = 2;
    const Status st = matmul_emulated({a.data(), b.data(), got.data(), s.m, s.k, s.n}, l, o);
    QVERIFY2(st.is_ok(), st.message().c_str());
    const unsigned z = matmul_grid(l, s.m, s.n).z;
    QCOMPARE(z, matmul_split_slices(l, s.m, s.n));
    const std::vector<float> want = split_model(a, b, s, z);
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(bits_of(got[i]) == bits_of(want[i]), qPrintable(QString("row %1 col %2: %3 vs %4 (%5 slices)")
                                                                   .arg(i / n).arg(i % n)
                                                                   .arg(double(got[i]), 0, 'g', 9)
                                                                   .arg(double(want[i]), 0, 'g', 9)
                                                                   .arg(z)));
    matmul_reference({a.data(), b.data(), ref.data(), s.m, s.k, s.n});
    const double err = matmul_max_relative_error(got.data(), ref.data(), ref.size());
    QVERIFY2(err < matmul_test_tolerance(MatmulVariant::SplitK, s.k), qPrintable(QString::number(err)));
}

// One slice is the double buffer's loop: matmul_naive's bytes.
void TestMatmulSplitK::one_slice_is_the_naive_bytes() {
    const Shape s{67, 131, 45};
    const auto a = random_matrix(std::uint64_t(s.m) * s.k, 5), b = random_matrix(std::uint64_t(s.k) * s.n, 6);
    std::vector<float> naive(std::size_t(s.m) * s.n), one(naive.size(), NAN);
    QVERIFY(matmul_emulated({a.data(), b.data(), naive.data(), s.m, s.k, s.n}, MatmulLaunch::naive(16, 16)).is_ok());
    QVERIFY(matmul_emulated({a.data(), b.data(), one.data(), s.m, s.k, s.n}, split(1)).is_ok());
    QVERIFY(std::memcmp(naive.data(), one.data(), naive.size() * sizeof(float)) == 0);
}

void TestMatmulSplitK::grid_workspace_and_automatic_split() {
    QCOMPARE(matmul_grid(split(4), 256, 256), (Dim3{2, 2, 4}));
    QCOMPARE(matmul_workspace_floats(split(4), 256, 256), std::size_t(3) * 256 * 256);
    QCOMPARE(matmul_workspace_floats(split(1), 256, 256), std::size_t(0));
    // automatic: 132 blocks' worth of slices over the output tiles (one block an SM), at most 32
    QCOMPARE(matmul_split_slices(split(0), 256, 256), 32u);        // 4 tiles
    QCOMPARE(matmul_split_slices(split(0), 1537, 769), 1u);        // 13 x 7 = 91 tiles
    QCOMPARE(matmul_split_slices(split(0), 1537, 383), 3u);        // 13 x 3 = 39 tiles
    QCOMPARE(matmul_split_slices(split(0), 1024, 1024), 2u);       // 64 tiles
    QCOMPARE(matmul_split_slices(split(0), 4096, 4096), 1u);       // 1024 tiles
    QCOMPARE(matmul_grid(split(0), 4096, 4096), (Dim3{32, 32, 1}));
    // every other variant: one slice, no workspace
    for (const MatmulLaunch& l : test::all_launches()) {
        if (l.kernel == MatmulVariant::SplitK) continue;
        QCOMPARE(matmul_grid(l, 300, 200).z, 1u);
        QCOMPARE(matmul_workspace_floats(l, 300, 200), std::size_t(0));
    }
    QVERIFY(validate_matmul_launch(split(64), 1, 1, 1).empty());
    const QString refused = QString::fromStdString(validate_matmul_launch(split(5), 10, 10, 10));  // 5 is not in its list
    QVERIFY2(refused.startsWith(QStringLiteral("split-K slices = 5 is not one of 0, 1, 2")), qPrintable(refused));
}

void TestMatmulSplitK::labels_name_the_slices() {
    QCOMPARE(QString::fromStdString(to_string(split(4))), QStringLiteral("split-K slices=4 256x1"));
    QCOMPARE(QString::fromStdString(to_string(split(0))), QStringLiteral("split-K slices=auto 256x1"));
    SweepRow row;
    row.choice = LaunchChoice{split(8).ref(), split(8).block_shape()};
    QCOMPARE(row.label(), QStringLiteral("split-K slices=8 256x1"));
    QCOMPARE(matmul_launch_of(row.choice).tile, 8u);
}

void TestMatmulSplitK::sweep_has_a_row_per_split() {
    SweepResult r;
    r.rows = sweep_rows(KernelFamily::Matmul, h200());
    const KernelInfo& info = variant_named("matmul_split_k");
    QStringList labels;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const SweepRow& row = r.rows[i];
        if (row.ref().variant != info.variant) continue;
        labels << row.label();
        QCOMPARE(r.indexOf(row.choice), int(i));
        QVERIFY(row.occupancy.blocks_per_sm > 0);
    }
    QCOMPARE(labels.size(), int(info.tiles.size()));
    QCOMPARE(labels.removeDuplicates(), 0);
}

// The first pass writes each slice's outputs (C and the workspace); the second loads every slice and
// stores C once.
void TestMatmulSplitK::traffic_counts_both_passes() {
    const std::uint32_t m = 21, k = 70, n = 13;
    for (unsigned t : {2u, 3u, 8u}) {
        const MatmulTraffic traffic = measured_matmul_traffic(split(t), m, k, n);
        QCOMPARE(traffic.global_stores, std::uint64_t(t + 1) * m * n);
        QVERIFY(traffic.barriers > 0);
    }
    const MatmulTraffic one = measured_matmul_traffic(split(1), m, k, n);
    QCOMPARE(one.global_stores, std::uint64_t(m) * n);
}

void TestMatmulSplitK::prediction_prices_the_second_pass() {
    const GpuPrediction one = predict_matmul(h200(), split(1), 256, 4096, 256);
    const GpuPrediction eight = predict_matmul(h200(), split(8), 256, 4096, 256);
    QVERIFY2(one.ok() && eight.ok(), qPrintable(one.error + eight.error));
    QCOMPARE(one.term(QStringLiteral("epilogue"))->us, 0.0);
    const PredictionTerm* e = eight.term(QStringLiteral("epilogue"));
    QVERIFY(e && e->us > h200().perf.launch_us);
    QVERIFY2(e->detail.contains(QStringLiteral("8 slices")), qPrintable(e->detail));
    QCOMPARE(eight.blocks, std::uint64_t(2 * 2 * 8));
    // the second pass is part of the total
    double sum = 0;
    for (const PredictionTerm& t : eight.terms)
        if (t.name == QLatin1String("launch") || t.name == QLatin1String("epilogue")) sum += t.us;
    QVERIFY(eight.total_us > sum);
}

// The model's choice per size, as cuBLAS's heuristics would: many slices where there are few output
// tiles, none where the grid already fills the GPU.
void TestMatmulSplitK::the_model_splits_few_tiles_only() {
    const KernelInfo& info = variant_named("matmul_split_k");
    const ConfigurationChoice skinny = choose_by_model(sized_request(256, 4096, 256), info);
    QVERIFY2(skinny.row.prediction.ok(), qPrintable(skinny.row.prediction.error));
    const unsigned skinny_slices = matmul_split_slices(matmul_launch_of(skinny.row.choice), 256, 256);
    qInfo("256x4096x256: %s, %.1f us (%s)", qPrintable(skinny.row.label()), skinny.row.prediction.total_us, qPrintable(skinny.how()));
    QVERIFY2(skinny_slices >= 4, qPrintable(skinny.row.label()));
    QCOMPARE(skinny.configurations, int(info.tiles.size()));
    QVERIFY(!skinny.by_timing);
    QVERIFY2(skinny.how().contains(QStringLiteral("model")), qPrintable(skinny.how()));
    const ConfigurationChoice square = choose_by_model(sized_request(4096, 4096, 4096), info);
    const unsigned square_slices = matmul_split_slices(matmul_launch_of(square.row.choice), 4096, 4096);
    qInfo("4096^3: %s, %.1f us", qPrintable(square.row.label()), square.row.prediction.total_us);
    QCOMPARE(square_slices, 1u);
}

void TestMatmulSplitK::best_of_a_sweep_says_its_source() {
    std::vector<SweepRow> rows(3);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].prediction.total_us = 30.0 - 10.0 * double(i);  // 30, 20, 10
    SweepBest b = best_of_sweep(rows);
    QCOMPARE(b.index, 2);
    QVERIFY(!b.by_timing);
    QCOMPARE(b.source(), QStringLiteral("model"));
    rows[0].state = SweepRowState::Timed;
    rows[0].median_ms = 0.5;
    rows[1].state = SweepRowState::Timed;
    rows[1].median_ms = 0.25;
    b = best_of_sweep(rows);
    QCOMPARE(b.index, 1);
    QVERIFY(b.by_timing);
    QCOMPARE(b.source(), QStringLiteral("measured"));
    QCOMPARE(best_of_sweep({}).index, -1);
}

void TestMatmulSplitK::ladder_chooses_by_model_without_a_gpu() {
    const SweepRequest request = matmul_request(37, 45, 29);
    const LadderResult result = run_ladder(request, {});
    QVERIFY2(result.choice_note.contains(QStringLiteral("model")), qPrintable(result.choice_note));
    for (const LadderRow& row : result.rows) {
        const KernelInfo* info = kernel_info(row.launch.ref());
        QVERIFY(info);
        const std::vector<SweepRow> ranked = ranked_configurations(request, *info);
        QVERIFY(!ranked.empty());
        QVERIFY2(row.launch.choice == ranked.front().choice, qPrintable(row.name + ": " + row.launch.label()));
        QVERIFY(!row.chosen_by_timing);
        QVERIFY2(row.chosen.contains(QStringLiteral("model")), qPrintable(row.chosen));
        QVERIFY2(row.figures.traced, qPrintable(row.figures.error));
        QCOMPARE(row.launch.prediction.total_us, ranked.front().prediction.total_us);
        if (ranked.size() > 1) QVERIFY(ranked[0].prediction.total_us <= ranked[1].prediction.total_us);
    }
}

// A fake GPU whose later launches of a call are faster: of each variant's candidates (the model's
// best three) the last is measured fastest and is chosen; the ladder then times the chosen rows.
void TestMatmulSplitK::ladder_chooses_by_timing_with_a_timer() {
    const SweepRequest request = matmul_request(37, 45, 29);
    LadderTimers timers;
    int calls = 0;
    timers.rows = [&calls](const SweepRequest&, const std::vector<SweepRow>& rows, const TimingOptions& options) {
        ++calls;
        return run_timing_loop(rows.size(), options, [&](std::size_t i, ShapeTiming* out) {
            out->timed = true;
            out->median_ms = (100.0 - double(i)) * 1e-3;
            out->launches = 5;
            return Status::ok();
        });
    };
    timers.choose_by_timing = true;
    const LadderResult result = run_ladder(request, timers);
    QCOMPARE(calls, 2);  // the candidates, then the ladder's rows
    QVERIFY2(result.choice_note.contains(QStringLiteral("timing")), qPrintable(result.choice_note));
    for (std::size_t i = 0; i < result.rows.size(); ++i) {
        const LadderRow& row = result.rows[i];
        const std::vector<SweepRow> ranked = ranked_configurations(request, *kernel_info(row.launch.ref()));
        QCOMPARE(row.launch.state, SweepRowState::Timed);
        QCOMPARE(row.launch.median_ms, (100.0 - double(i)) * 1e-3);  // the second call's index
        if (ranked.size() < 2) {
            QVERIFY(!row.chosen_by_timing);
            continue;
        }
        const std::vector<SweepRow> candidates = timing_candidates(ranked);
        QVERIFY2(row.launch.choice == candidates.back().choice, qPrintable(row.name + ": " + row.launch.label()));
        QVERIFY(row.chosen_by_timing);
        QVERIFY2(row.chosen.contains(QStringLiteral("timed")), qPrintable(row.chosen));
        QVERIFY2(row.figures.traced, qPrintable(row.figures.error));
    }
}

QTEST_GUILESS_MAIN(TestMatmulSplitK)
#include "tst_matmul_split_k.moc"
