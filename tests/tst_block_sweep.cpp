// The block-size sweep: its shape sets, CSV, throughput arithmetic, best-row marking, the modeled
// sweep without a GPU, and SweepRunner's progress, per-row updates, cancel and supersession driven by
// an injected fake timer (deterministic times). The GPU rows (the real timers on a device) QSKIP
// without one; the same program runs on the lent GPU.
#include <QtTest>

#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <set>

#include "app/grayscale/grayscale_resources.h"
#include "app/matmul/matmul_resources.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/matmul/matmul_prediction.h"
#include "app/jobs/backend_choice.h"
#include "app/tuning/block_sweep.h"
#include "app/models/kernel_resources.h"
#include "app/io/matrix_generator.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/launch_limits.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/matmul/matmul_app_problem.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/matmul/matmul_timing.h"

#include "support/event_waits.h"

using namespace cvz;

namespace {

DeviceProfile h200() { return *find_device_profile(QStringLiteral("H200")); }

int log2i(unsigned v) {
    int n = 0;
    while (v > 1) {
        v >>= 1;
        ++n;
    }
    return n;
}

// Deterministic fake times: 2-D 32x8 is the fastest shape (10 us), every step away costs 10 us more;
// 1-D blocks take 15 us and a little more per thread.
bool is(const SweepRow& r, GrayscaleVariant v) {
    return r.ref().family == KernelFamily::Grayscale && r.ref().variant == std::uint8_t(v);
}
bool is(const SweepRow& r, MatmulVariant v) {
    return r.ref().family == KernelFamily::Matmul && r.ref().variant == std::uint8_t(v);
}

double fake_ms(const SweepRow& r) {
    if (is(r, GrayscaleVariant::Gray1d)) return 0.015 + r.block().x * 1e-6;
    if (is(r, MatmulVariant::Tiled)) return 0.02 + r.block().x * 1e-4;
    return 0.010 * (1 + std::abs(log2i(r.block().x) - 5) + std::abs(log2i(r.block().y) - 3));
}

constexpr std::size_t kNoHold = SIZE_MAX;

// A timer that never touches a GPU: the shared loop (kernel_timing.h) with fake_ms, and shapes it
// refuses the way CUDA would. From shape `hold_at` on it waits until the sweep is cancelled, so that
// a test of cancel or supersession knows where the sweep stands, whatever the machine's load.
SweepTimer fake_timer(std::size_t hold_at = kNoHold, std::function<bool(const SweepRow&)> refuse = {}) {
    return [=](const SweepRequest&, const std::vector<SweepRow>& rows, const TimingOptions& options) {
        TimingSweep sweep = run_timing_loop(rows.size(), options, [&](std::size_t i, ShapeTiming* t) {
            if (i >= hold_at && options.cancel) options.cancel->wait();  // woken by the cancel itself
            if (refuse && refuse(rows[i])) {
                t->status = Status::error(ErrorKind::InvalidInput,
                                          "fake launch: cudaErrorInvalidConfiguration (invalid configuration argument)");
                t->median_ms = 0;  // an errored row must never win on its zero time
                return Status::ok();
            }
            // As the GPU timer does: each round adds its launches to the shape's samples.
            t->timed = true;
            t->samples_ms.insert(t->samples_ms.end(), std::size_t(options.repeats), fake_ms(rows[i]));
            t->median_ms = median_of(t->samples_ms);
            t->launches = int(t->samples_ms.size());
            return Status::ok();
        });
        sweep.device = "Fake GPU";
        return sweep;
    };
}

RgbBuffer test_image(std::uint32_t w, std::uint32_t h) {
    RgbBuffer image;
    image.width = w;
    image.height = h;
    image.bytes.assign(3 * std::size_t(w) * h, 0);
    std::mt19937 rng(7);
    for (auto& b : image.bytes) b = std::uint8_t(rng());
    return image;
}

const RgbBuffer& image_of(const SweepRequest& r) { return dynamic_cast<const GrayscaleProblem&>(*r.problem).image(); }
const MatmulAppProblem& matrices_of(const SweepRequest& r) { return dynamic_cast<const MatmulAppProblem&>(*r.problem); }

SweepRequest grayscale_request(std::uint32_t w = 64, std::uint32_t h = 48, PixelLayout layout = PixelLayout::Interleaved) {
    SweepRequest r;
    r.problem = make_grayscale_problem(test_image(w, h), layout);
    r.profile = h200();
    r.predict = false;  // the timing tests count timed rows only; predictions_* turn it on
    return r;
}

SweepRequest matmul_request(std::uint32_t m = 67, std::uint32_t k = 45, std::uint32_t n = 93) {
    SweepRequest r;
    r.problem = make_matmul_problem(random_matrix(m, k, 1), random_matrix(k, n, 2));
    r.profile = h200();
    r.predict = false;
    return r;
}

// How many rows a family's sweep has: the sum over its catalogue variants of their rule's blocks.
int catalogue_rows(KernelFamily family) {
    int n = 0;
    for (const KernelInfo& k : family_catalogue(family)) n += int(variant_configurations(k).size());  // split-K: a row per slices
    return n;
}

int count_state(const SweepResult& r, SweepRowState s) {
    int n = 0;
    for (const SweepRow& row : r.rows) n += row.state == s;
    return n;
}

}  // namespace

class TestBlockSweep : public QObject {
    Q_OBJECT
private slots:
    void two_d_shapes_are_the_66_powers_of_two();
    void one_d_shapes_and_tiles();
    void rows_carry_the_model();
    void throughput_arithmetic();
    void best_ignores_errored_and_untimed_rows();
    void csv_is_exact();
    void csv_file_errors_name_the_file();
    void modeled_sweep_without_gpu();
    void predictions_fill_every_row_without_a_gpu();
    void predictions_stand_beside_the_times();
    void fake_timer_fills_rows_and_marks_best();
    void timing_rounds_interleave_and_pool_samples();
    void refused_shape_is_recorded_and_sweep_goes_on();
    void missing_input_is_an_error();
    void cancel_between_shapes_is_exact();
    void runner_reports_progress_rows_and_result();
    void runner_cancel_stops_early();
    void runner_newer_sweep_supersedes();
    void runner_destroyed_while_running();
    void kernels_without_device_say_why();
    void gpu_grayscale_sweep();
    void gpu_matmul_sweep();
    void gpu_refused_shape_and_cancel();
};

void TestBlockSweep::two_d_shapes_are_the_66_powers_of_two() {
    std::vector<LaunchShape> shapes;
    for (const Dim3& b : power_of_two_2d_blocks()) shapes.push_back(LaunchShape::two_d(b.x, b.y));
    QCOMPARE(int(shapes.size()), 66);
    std::set<std::pair<unsigned, unsigned>> seen;
    for (const LaunchShape& s : shapes) {
        QVERIFY(s.block.volume() <= 1024);
        QCOMPARE(s.block.z, 1u);
        QVERIFY((s.block.x & (s.block.x - 1)) == 0 && (s.block.y & (s.block.y - 1)) == 0);
        QVERIFY2(validate_block(s.block).empty(), validate_block(s.block).c_str());
        QVERIFY(validate_grayscale_launch(s, 640, 480).empty());
        seen.insert({s.block.x, s.block.y});
    }
    QCOMPARE(int(seen.size()), 66);  // all distinct
    // Every power-of-two pair that fits is there: (1,1024), (1024,1), (32,32); (64,32) is not.
    QVERIFY(seen.count({1, 1024}) && seen.count({1024, 1}) && seen.count({32, 32}) && seen.count({16, 16}));
    QVERIFY(!seen.count({64, 32}) && !seen.count({2048, 1}));
    // y-major, x ascending: the heatmap's reading order.
    QCOMPARE(shapes.front().block, (Dim3{1, 1, 1}));
    QCOMPARE(shapes[1].block, (Dim3{2, 1, 1}));
    QCOMPARE(shapes.back().block, (Dim3{1, 1024, 1}));
}

void TestBlockSweep::one_d_shapes_and_tiles() {
    const std::vector<Dim3> blocks = one_d_sweep_blocks();
    QCOMPARE(int(blocks.size()), 32);
    std::set<unsigned> threads;
    for (const Dim3& b : blocks) {
        QCOMPARE(b.x % 32, 0u);
        QVERIFY(b.x >= 32 && b.x <= 1024);
        QCOMPARE(b.y, 1u);
        threads.insert(b.x);
    }
    for (unsigned p = 32; p <= 1024; p *= 2) QVERIFY2(threads.count(p), qPrintable(QString::number(p)));
    // A TILE variant sweeps its tiles: matmul_tiled's 8, 16, 32.
    const KernelInfo* tiled = find_kernel(KernelFamily::Matmul, "matmul_tiled");
    QVERIFY(tiled);
    QCOMPARE(sweep_blocks(*tiled), (std::vector<Dim3>{Dim3{8, 8, 1}, Dim3{16, 16, 1}, Dim3{32, 32, 1}}));
}

void TestBlockSweep::rows_carry_the_model() {
    const DeviceProfile p = h200();
    const std::vector<SweepRow> gray = sweep_rows(KernelFamily::Grayscale, p);
    QCOMPARE(int(gray.size()), catalogue_rows(KernelFamily::Grayscale));
    QVERIFY(int(gray.size()) >= 66 + 32);  // gray_1d and gray_2d at least
    const std::vector<SweepRow> mm = sweep_rows(KernelFamily::Matmul, p);
    QCOMPARE(int(mm.size()), catalogue_rows(KernelFamily::Matmul));
    QVERIFY(int(mm.size()) >= 66 + 3);
    int heat = 0, heat_variants = 0;
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) heat_variants += k.block == BlockRule::TwoD;
    for (const SweepRow& r : gray) {
        heat += r.in_heatmap();
        const Occupancy want = compute_occupancy(p, grayscale_block_resources(grayscale_shape(r.choice)));
        QCOMPARE(r.occupancy.blocks_per_sm, want.blocks_per_sm);
        QCOMPARE(r.occupancy.occupancy, want.occupancy);
        QVERIFY(r.occupancy.blocks_per_sm > 0);
        QCOMPARE(r.state, SweepRowState::NotTimed);
    }
    QCOMPARE(heat, 66 * heat_variants);
    for (const SweepRow& r : mm) QCOMPARE(r.occupancy.blocks_per_sm, compute_occupancy(p, matmul_block_resources(matmul_launch_of(r.choice))).blocks_per_sm);
    // Rows follow the catalogue: the 2-D variants, then the others, each in table order over its
    // rule's blocks.
    std::size_t i = 0;
    std::vector<KernelInfo> order;
    for (bool two_d : {true, false})
        for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
            if ((k.block == BlockRule::TwoD) == two_d) order.push_back(k);
    for (const KernelInfo& k : order)
        for (const Dim3& b : sweep_blocks(k)) {
            QVERIFY2(gray[i].ref() == k.ref(), qPrintable(gray[i].label()));
            QVERIFY2(gray[i].block() == b, qPrintable(gray[i].label()));
            ++i;
        }
    const int tiled8 = [&] {
        for (std::size_t j = 0; j < mm.size(); ++j)
            if (mm[j].label() == QStringLiteral("tiled TILE=8")) return int(j);
        return -1;
    }();
    QVERIFY(tiled8 >= 0);
    QCOMPARE(matmul_launch_of(mm[std::size_t(tiled8)].choice).shared_bytes(), std::size_t(2 * 8 * 8 * 4));
    QVERIFY(!mm[std::size_t(tiled8)].in_heatmap());
    SweepResult g;
    g.rows = gray;
    QCOMPARE(gray[0].label(), QStringLiteral("2-D 1x1"));
    QCOMPARE(gray[66].label(), QStringLiteral("1-D 32"));
    QCOMPARE(mm[5].label(), QStringLiteral("naive 32x1"));
    const SweepRow& one_by_one = gray[std::size_t(g.indexOf(grayscale_choice(LaunchShape::two_d(1, 1))))];
    // 1x1 blocks: one warp of one thread each, limited by the 32 block slots: 32/64 warps.
    QCOMPARE(one_by_one.occupancy.blocks_per_sm, 32);
    QCOMPARE(one_by_one.occupancy.occupancy, 0.5);
}

void TestBlockSweep::throughput_arithmetic() {
    // 1920x1080: 3n bytes read + n written = 8,294,400 bytes in 10 us = 829.44 GB/s.
    QCOMPARE(grayscale_gb_per_s(1920ull * 1080, 0.01), 829.44);
    QCOMPARE(grayscale_gb_per_s(1000, 0.001), 4.0);
    // 2*M*N*K: 1024^3 in 1 ms = 2147.483648 GFLOP/s.
    QCOMPARE(matmul_gflop_per_s(1024, 1024, 1024, 1.0), 2147.483648);
    QCOMPARE(matmul_gflop_per_s(100, 200, 300, 0.5), 2.0 * 100 * 200 * 300 / 0.5e6);
    QCOMPARE(grayscale_gb_per_s(100, 0), 0.0);
    QCOMPARE(matmul_gflop_per_s(1, 1, 1, -1), 0.0);

    // Through a sweep: the fastest row's throughput from the image and the fake time.
    const SweepResult g = run_sweep(grayscale_request(64, 48), fake_timer());
    const SweepRow& best = g.rows[std::size_t(g.best)];
    QCOMPARE(best.throughput, 4.0 * 64 * 48 / (0.010 * 1e6));
    const SweepResult m = run_sweep(matmul_request(67, 45, 93), fake_timer());
    const SweepRow& mb = m.rows[std::size_t(m.best)];
    QCOMPARE(mb.throughput, 2.0 * 67 * 93 * 45 / (mb.median_ms * 1e6));
    QCOMPARE(m.throughputUnit(), QStringLiteral("GFLOP/s"));
    QCOMPARE(g.throughputUnit(), QStringLiteral("GB/s"));
}

void TestBlockSweep::best_ignores_errored_and_untimed_rows() {
    std::vector<SweepRow> rows(5);
    rows[0].state = SweepRowState::Failed;  // zero time, but an error
    rows[1].state = SweepRowState::Timed;
    rows[1].median_ms = 0.5;
    rows[2].state = SweepRowState::NotTimed;  // zero time, never timed
    rows[3].state = SweepRowState::Timed;
    rows[3].median_ms = 0.25;
    rows[4].state = SweepRowState::Timed;
    rows[4].median_ms = 0.25;  // a tie: the first keeps it
    rows[2].best = true;      // stale marks are cleared
    QCOMPARE(mark_best(&rows), 3);
    for (int i = 0; i < 5; ++i) QCOMPARE(rows[std::size_t(i)].best, i == 3);

    std::vector<SweepRow> none(3);
    none[0].state = SweepRowState::Failed;
    QCOMPARE(mark_best(&none), -1);
    for (const SweepRow& r : none) QVERIFY(!r.best);
}

void TestBlockSweep::csv_is_exact() {
    SweepResult r;
    r.family_name = QStringLiteral("grayscale");
    r.unit_key = QStringLiteral("gb_per_s");
    SweepRow a;
    a.choice = grayscale_choice(LaunchShape::two_d(32, 8));
    a.state = SweepRowState::Timed;
    a.median_ms = 0.01234;
    a.throughput = 1234.5678;
    a.occupancy.occupancy = 1.0;
    a.occupancy.blocks_per_sm = 8;
    a.occupancy.limit = OccupancyLimit::Warps;
    a.best = true;
    SweepRow b;
    b.choice = grayscale_choice(LaunchShape::one_d(64));
    b.state = SweepRowState::Failed;
    b.error = QStringLiteral("launch: cudaErrorInvalidConfiguration (invalid configuration argument), \"x\"");
    b.occupancy.occupancy = 0.5;
    b.occupancy.blocks_per_sm = 16;
    b.occupancy.limit = OccupancyLimit::Blocks;
    SweepRow c;
    c.choice = grayscale_choice(LaunchShape::two_d(1, 1));
    c.occupancy.occupancy = 0.015625;
    c.occupancy.blocks_per_sm = 32;
    c.occupancy.limit = OccupancyLimit::Blocks;
    SweepRow d;  // a shape no SM can hold: no occupancy, no limit
    d.choice = grayscale_choice(LaunchShape::two_d(64, 32));
    a.prediction.total_us = 11;
    a.prediction.bound = QStringLiteral("DRAM");
    r.rows = {a, b, c, d};

    const QString want = QStringLiteral(
        "kernel,shape,block_x,block_y,threads,status,median_ms,gb_per_s,occupancy,blocks_per_sm,limit,best,error,"
        "predicted_ms,predicted_bound\n"
        "grayscale,2-D 32x8,32,8,256,timed,0.01234,1234.57,1.000,8,warps per SM,1,,0.01100,DRAM\n"
        "grayscale,1-D 64,64,1,64,error,,,0.500,16,blocks per SM,0,"
        "\"launch: cudaErrorInvalidConfiguration (invalid configuration argument), \"\"x\"\"\",,\n"
        "grayscale,2-D 1x1,1,1,1,not timed,,,0.016,32,blocks per SM,0,,,\n"
        "grayscale,2-D 64x32,64,32,2048,not timed,,,,0,,0,,,\n");
    QCOMPARE(sweep_csv(r), want);

    // '.' decimals whatever the locale.
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const QString german = sweep_csv(r);
    QLocale::setDefault(before);
    QCOMPARE(german, want);

    // Matmul: the throughput column is GFLOP/s and the shape says which kernel.
    SweepResult m;
    m.family_name = QStringLiteral("matmul");
    m.unit_key = QStringLiteral("gflop_per_s");
    SweepRow t;
    t.choice = matmul_choice(MatmulLaunch::tiled(16));
    t.state = SweepRowState::Timed;
    t.median_ms = 1.5;
    t.throughput = 2000;
    t.occupancy.occupancy = 1;
    t.occupancy.blocks_per_sm = 8;
    t.occupancy.limit = OccupancyLimit::Warps;
    m.rows = {t};
    QCOMPARE(sweep_csv(m),
             QStringLiteral("kernel,shape,block_x,block_y,threads,status,median_ms,gflop_per_s,occupancy,blocks_per_sm,limit,best,error,"
                            "predicted_ms,predicted_bound\n"
                            "matmul,tiled TILE=16,16,16,256,timed,1.50000,2000.00,1.000,8,warps per SM,0,,,\n"));
}

void TestBlockSweep::csv_file_errors_name_the_file() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const SweepResult r = run_sweep(grayscale_request(), fake_timer());
    const QString path = dir.filePath(QStringLiteral("sweep.csv"));
    QCOMPARE(write_sweep_csv(r, path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QCOMPARE(text, sweep_csv(r));
    QCOMPARE(text.count(QLatin1Char('\n')), 1 + catalogue_rows(KernelFamily::Grayscale));

    const QString bad = dir.filePath(QStringLiteral("no/such/folder/sweep.csv"));
    const QString error = write_sweep_csv(r, bad);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(bad), qPrintable(error));
}

void TestBlockSweep::modeled_sweep_without_gpu() {
    if (!cuda_device_available()) QVERIFY(!default_sweep_timer());
    int progress_calls = 0;
    std::size_t last_done = 0, last_total = 0;
    TimingOptions options;
    options.progress = [&](std::size_t done, std::size_t total) {
        ++progress_calls;
        last_done = done;
        last_total = total;
    };
    SweepRequest request = grayscale_request();
    request.problem = make_grayscale_problem({}, PixelLayout::Interleaved);  // the model needs no input
    const SweepResult r = run_sweep(request, SweepTimer{}, options);
    QVERIFY(r.status.is_ok());
    QCOMPARE(r.note, QStringLiteral("no CUDA device: predicted GPU times and modeled occupancy for H200 SXM (sm_90), nothing measured"));
    QCOMPARE(r.note, modeled_only_note(h200().name));
    const int rows = catalogue_rows(KernelFamily::Grayscale);
    QCOMPARE(int(r.rows.size()), rows);
    QCOMPARE(r.best, -1);
    QVERIFY(!r.anyTimed());
    QVERIFY(r.device.isEmpty());
    for (const SweepRow& row : r.rows) {
        QCOMPARE(row.state, SweepRowState::NotTimed);
        QVERIFY2(row.occupancy.blocks_per_sm > 0 && row.occupancy.occupancy > 0, qPrintable(row.label()));
        QVERIFY(!row.best);
    }
    QCOMPARE(progress_calls, 1);
    QCOMPARE(last_done, std::size_t(rows));
    QCOMPARE(last_total, std::size_t(rows));

    // Another profile: the note names it and the model follows it (T4: 1024 threads per SM).
    request.profile = *find_device_profile(QStringLiteral("T4"));
    const SweepResult t4 = run_sweep(request, SweepTimer{});
    QCOMPARE(t4.note, QStringLiteral("no CUDA device: predicted GPU times and modeled occupancy for T4 (sm_75), nothing measured"));
    const int i = t4.indexOf(grayscale_choice(LaunchShape::two_d(32, 32)));
    QCOMPARE(t4.rows[std::size_t(i)].occupancy.blocks_per_sm, 1);
    QCOMPARE(t4.rows[std::size_t(i)].occupancy.occupancy, 1.0);
}

// Without a GPU, every row gets the model's prediction for its launch on the request's profile (the
// same as perf_model gives), and progress counts the predicted rows.
void TestBlockSweep::predictions_fill_every_row_without_a_gpu() {
    std::vector<std::size_t> seen;
    TimingOptions options;
    options.progress = [&](std::size_t done, std::size_t total) {
        seen.push_back(done);
        QCOMPARE(total, std::size_t(catalogue_rows(KernelFamily::Matmul)));
    };
    SweepRequest m = matmul_request(37, 29, 41);  // odd, non-square
    m.predict = true;
    int updates = 0;
    const SweepResult r = run_sweep(m, SweepTimer{}, options, [&](int, const SweepRow&) { ++updates; });
    QCOMPARE(updates, catalogue_rows(KernelFamily::Matmul));
    QCOMPARE(int(seen.size()), catalogue_rows(KernelFamily::Matmul));
    QCOMPARE(seen.back(), std::size_t(catalogue_rows(KernelFamily::Matmul)));
    for (const SweepRow& row : r.rows) {
        const GpuPrediction want = predict_matmul(h200(), matmul_launch_of(row.choice), 37, 29, 41);
        QVERIFY2(row.prediction.ok(), qPrintable(row.label() + row.prediction.error));
        QCOMPARE(row.prediction.total_us, want.total_us);
        QCOMPARE(row.prediction.bound, want.bound);
        QCOMPARE(row.state, SweepRowState::NotTimed);
    }
    QVERIFY(fastest_predicted(r.rows) >= 0);
    QVERIFY(sweep_csv(r).contains(QStringLiteral(",predicted_ms,predicted_bound\n")));

    SweepRequest g = grayscale_request(61, 37);
    g.predict = true;
    const SweepResult gr = run_sweep(g, SweepTimer{});
    const SweepRow& row = gr.rows[std::size_t(gr.indexOf(grayscale_choice(LaunchShape::two_d(16, 16))))];
    QCOMPARE(row.prediction.total_us, predict_grayscale(h200(), LaunchShape::two_d(16, 16), 61, 37).total_us);
}

// With a GPU (a fake timer), the rows are predicted first, then timed: both on each row, progress
// over twice the rows.
void TestBlockSweep::predictions_stand_beside_the_times() {
    std::vector<std::size_t> seen;
    TimingOptions options;
    options.progress = [&](std::size_t done, std::size_t total) {
        seen.push_back(done);
        QCOMPARE(total, std::size_t(2 * catalogue_rows(KernelFamily::Grayscale)));
    };
    SweepRequest g = grayscale_request(40, 30);
    g.predict = true;
    const SweepResult r = run_sweep(g, fake_timer(), options);
    QCOMPARE(seen.back(), std::size_t(2 * catalogue_rows(KernelFamily::Grayscale)));
    for (const SweepRow& row : r.rows) {
        QCOMPARE(row.state, SweepRowState::Timed);
        QVERIFY(row.prediction.ok() && row.prediction.total_us > 0);
    }
}

void TestBlockSweep::fake_timer_fills_rows_and_marks_best() {
    const SweepResult r = run_sweep(grayscale_request(), fake_timer());
    QVERIFY(r.status.is_ok());
    QCOMPARE(count_state(r, SweepRowState::Timed), catalogue_rows(KernelFamily::Grayscale));
    QCOMPARE(r.device, QStringLiteral("Fake GPU"));
    QVERIFY(r.best >= 0);
    QCOMPARE(r.rows[std::size_t(r.best)].label(), QStringLiteral("2-D 32x8"));
    QVERIFY(r.rows[std::size_t(r.best)].best);
    int marked = 0;
    for (const SweepRow& row : r.rows) marked += row.best;
    QCOMPARE(marked, 1);
    QVERIFY2(r.note.contains(QStringLiteral("median of 3 rounds \u00d7 20 launches after 3 warm-ups on Fake GPU")),
             qPrintable(r.note));
    QVERIFY(r.note.contains(QStringLiteral("H200 SXM (sm_90)")));
    const SweepRow& one_d = r.rows[std::size_t(r.indexOf(grayscale_choice(LaunchShape::one_d(256))))];
    QCOMPARE(one_d.median_ms, 0.015 + 256e-6);
    QCOMPARE(one_d.launches, 60);  // 3 rounds of 20

    SweepRequest once = grayscale_request();
    once.rounds = 1;
    const SweepResult o = run_sweep(once, fake_timer());
    QVERIFY2(o.note.contains(QStringLiteral("median of 20 launches after 3 warm-ups on Fake GPU")), qPrintable(o.note));
    QCOMPARE(o.rows[std::size_t(o.indexOf(grayscale_choice(LaunchShape::one_d(256))))].launches, 20);

    const SweepResult m = run_sweep(matmul_request(), fake_timer());
    QCOMPARE(count_state(m, SweepRowState::Timed), catalogue_rows(KernelFamily::Matmul));
    QCOMPARE(m.rows[std::size_t(m.best)].label(), QStringLiteral("naive 32x8"));
}

// Rounds (kernels/core/kernel_timing.h): the loop passes over all the shapes once per round, in order;
// a refused shape is tried in the first round only; a shape's median is over every round's samples,
// so a drift that slows one round falls on all shapes alike; a cancel in a later round keeps what the
// earlier rounds measured.
void TestBlockSweep::timing_rounds_interleave_and_pool_samples() {
    TimingOptions options;
    options.rounds = 3;
    options.repeats = 2;
    std::vector<std::size_t> order, updates;
    std::vector<std::pair<std::size_t, std::size_t>> progress;
    options.progress = [&](std::size_t done, std::size_t total) { progress.push_back({done, total}); };
    options.shape_done = [&](std::size_t i, const ShapeTiming&) { updates.push_back(i); };
    // Shape i's launches take (i + 1) ms times a drift that grows by round: 1, 2, 3.
    const auto time_one = [&](std::size_t i, ShapeTiming* t) {
        order.push_back(i);
        if (i == 1) {
            t->status = Status::error(ErrorKind::InvalidInput, "refused");
            return Status::ok();
        }
        const double drift = double(std::count(order.begin(), order.end(), i));
        for (int k = 0; k < options.repeats; ++k) t->samples_ms.push_back(drift * double(i + 1));
        t->timed = true;
        t->median_ms = median_of(t->samples_ms);
        t->launches = int(t->samples_ms.size());
        return Status::ok();
    };
    const TimingSweep s = run_timing_loop(3, options, time_one);
    QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 0, 2, 0, 2}));
    QCOMPARE(updates, (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
    QCOMPARE(progress.size(), std::size_t(9));
    QCOMPARE(progress.back(), (std::pair<std::size_t, std::size_t>{9, 9}));
    QCOMPARE(s.completed, std::size_t(3));
    QCOMPARE(s.rounds, 3);
    QVERIFY(!s.cancelled);
    QCOMPARE(s.shapes[0].launches, 6);
    QCOMPARE(s.shapes[0].median_ms, 2.0);  // 1 1 2 2 3 3
    QCOMPARE(s.shapes[2].median_ms, 6.0);  // 3 3 6 6 9 9: the same drift, the same ratio to shape 0
    QVERIFY(!s.shapes[1].timed);
    QCOMPARE(s.shapes[1].status.message(), std::string("refused"));

    // Cancelled in the second round, after its first shape: the first round's times stay.
    CancelToken cancel;
    options.cancel = &cancel;
    order.clear();
    updates.clear();
    progress.clear();
    options.progress = [&](std::size_t done, std::size_t total) {
        progress.push_back({done, total});
        if (done == 4) cancel.request();
    };
    const TimingSweep c = run_timing_loop(3, options, time_one);
    QVERIFY(c.cancelled);
    QVERIFY(c.status.is_ok());
    QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 0}));
    QCOMPARE(c.completed, std::size_t(3));
    QCOMPARE(c.rounds, 1);
    QCOMPARE(c.shapes[0].launches, 4);
    QCOMPARE(c.shapes[0].median_ms, 1.5);  // 1 1 2 2
    QCOMPARE(c.shapes[2].launches, 2);
    QVERIFY(c.shapes[2].timed);
}

void TestBlockSweep::refused_shape_is_recorded_and_sweep_goes_on() {
    // The fake refuses 32x8 (the fastest, 10 us) and 1-D 1024: they are errors; the next best is
    // 1-D 32 (15.032 us), ahead of the 2-D neighbours of 32x8 (20 us).
    const auto refuse = [](const SweepRow& r) {
        return (is(r, GrayscaleVariant::Gray2d) && r.block() == Dim3{32, 8, 1}) ||
               (is(r, GrayscaleVariant::Gray1d) && r.block().x == 1024);
    };
    const SweepResult r = run_sweep(grayscale_request(), fake_timer(kNoHold, refuse));
    QVERIFY(r.status.is_ok());
    QCOMPARE(count_state(r, SweepRowState::Failed), 2);
    QCOMPARE(count_state(r, SweepRowState::Timed), catalogue_rows(KernelFamily::Grayscale) - 2);
    const SweepRow& refused = r.rows[std::size_t(r.indexOf(grayscale_choice(LaunchShape::two_d(32, 8))))];
    QCOMPARE(refused.state, SweepRowState::Failed);
    QVERIFY(refused.error.contains(QStringLiteral("cudaErrorInvalidConfiguration")));
    QVERIFY(!refused.best);
    QCOMPARE(r.rows[std::size_t(r.best)].label(), QStringLiteral("1-D 32"));
    QVERIFY(sweep_csv(r).contains(QStringLiteral("2-D 32x8,32,8,256,error,,,")));
}

void TestBlockSweep::missing_input_is_an_error() {
    SweepRequest g = grayscale_request();
    g.problem = make_grayscale_problem({}, PixelLayout::Interleaved);
    const SweepResult r = run_sweep(g, fake_timer());
    QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
    QVERIFY(r.note.contains(QStringLiteral("no image")));
    QCOMPARE(int(r.rows.size()), catalogue_rows(KernelFamily::Grayscale));  // the model stays
    QVERIFY(r.rows[0].occupancy.blocks_per_sm > 0);
    QCOMPARE(count_state(r, SweepRowState::Timed), 0);

    SweepRequest m = matmul_request();
    m.problem = make_matmul_problem(matrices_of(m).a(), random_matrix(44, 10, 3));  // 67x45 @ 44x10
    const SweepResult mr = run_sweep(m, fake_timer());
    QCOMPARE(mr.status.kind(), ErrorKind::InvalidInput);
    QVERIFY2(mr.note.contains(QStringLiteral("45")) && mr.note.contains(QStringLiteral("44")), qPrintable(mr.note));
}

void TestBlockSweep::cancel_between_shapes_is_exact() {
    CancelToken cancel;
    TimingOptions options;
    options.cancel = &cancel;
    std::vector<std::size_t> seen;
    options.progress = [&](std::size_t done, std::size_t total) {
        seen.push_back(done);
        QCOMPARE(total, std::size_t(3 * catalogue_rows(KernelFamily::Grayscale)));  // 3 rounds
        if (done == 10) cancel.request();
    };
    int rows_done = 0;
    const SweepResult r = run_sweep(grayscale_request(), fake_timer(), options,
                                    [&](int index, const SweepRow& row) {
                                        QCOMPARE(index, rows_done);
                                        QCOMPARE(row.state, SweepRowState::Timed);
                                        ++rows_done;
                                    });
    QVERIFY(r.cancelled);
    QVERIFY(r.status.is_ok());
    QCOMPARE(count_state(r, SweepRowState::Timed), 10);
    QCOMPARE(rows_done, 10);
    QCOMPARE(int(seen.size()), 10);
    for (int i = 0; i < 10; ++i) QCOMPARE(seen[std::size_t(i)], std::size_t(i + 1));
    QVERIFY2(r.note.startsWith(QStringLiteral("cancelled after 10 of %1 shapes").arg(catalogue_rows(KernelFamily::Grayscale))),
             qPrintable(r.note));
    QVERIFY(r.best >= 0 && r.best < 10);  // the best of what was timed

    // Cancelled in the second round: every row keeps its first round's time, and the note says so.
    CancelToken later;
    options.cancel = &later;
    const std::size_t rows = std::size_t(catalogue_rows(KernelFamily::Grayscale));
    options.progress = [&](std::size_t done, std::size_t) {
        if (done == rows + 5) later.request();
    };
    const SweepResult second = run_sweep(grayscale_request(), fake_timer(), options);
    QVERIFY(second.cancelled);
    QCOMPARE(count_state(second, SweepRowState::Timed), catalogue_rows(KernelFamily::Grayscale));
    QVERIFY2(second.note.startsWith(QStringLiteral("cancelled in round 2 of 3")), qPrintable(second.note));
    QCOMPARE(second.rows[0].launches, 40);  // two rounds of 20
    QCOMPARE(second.rows[6].launches, 20);
}

void TestBlockSweep::runner_reports_progress_rows_and_result() {
    SweepRunner runner;
    runner.setTimer(fake_timer());
    QVERIFY(runner.hasTimer());
    std::vector<int> progress;
    std::vector<int> rows;
    std::vector<SweepResult> started;
    bool done = false;
    SweepResult result;
    connect(&runner, &SweepRunner::started, this, [&](const SweepResult& m) { started.push_back(m); });
    std::vector<int> totals;
    std::vector<SweepRowState> states;
    connect(&runner, &SweepRunner::progress, this, [&](int d, int total) {
        totals.push_back(total);
        progress.push_back(d);
    });
    connect(&runner, &SweepRunner::rowUpdated, this, [&](int i, const SweepRow& row) {
        states.push_back(row.state);
        rows.push_back(i);
    });
    connect(&runner, &SweepRunner::finished, this, [&](const SweepResult& r) {
        result = r;
        done = true;
    });
    runner.start(matmul_request());
    QCOMPARE(int(started.size()), 1);  // at once, on the calling thread, with the model
    QCOMPARE(int(started[0].rows.size()), catalogue_rows(KernelFamily::Matmul));
    QVERIFY(!started[0].anyTimed());
    QVERIFY(started[0].rows[0].occupancy.blocks_per_sm > 0);
    QVERIFY(runner.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QVERIFY(!runner.isRunning());
    // Three rounds (SweepRequest::rounds): every row is updated once per round, in order.
    const int n = catalogue_rows(KernelFamily::Matmul);
    QCOMPARE(int(progress.size()), 3 * n);
    for (int i = 0; i < 3 * n; ++i) QCOMPARE(progress[std::size_t(i)], i + 1);
    QCOMPARE(int(rows.size()), 3 * n);
    for (int i = 0; i < 3 * n; ++i) QCOMPARE(rows[std::size_t(i)], i % n);
    for (int t : totals) QCOMPARE(t, 3 * n);
    for (SweepRowState s : states) QCOMPARE(s, SweepRowState::Timed);
    QVERIFY(!result.cancelled);
    QCOMPARE(count_state(result, SweepRowState::Timed), catalogue_rows(KernelFamily::Matmul));
    QCOMPARE(result.rows[std::size_t(result.best)].label(), QStringLiteral("naive 32x8"));

    // With no timer (no GPU): the model, the note, and progress to the end.
    runner.setTimer({});
    done = false;
    progress.clear();
    SweepRequest g = grayscale_request();
    runner.start(g);
    QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
    QCOMPARE(result.note, modeled_only_note(g.profile.name));
    QCOMPARE(progress, std::vector<int>{catalogue_rows(KernelFamily::Grayscale)});
    QCOMPARE(count_state(result, SweepRowState::NotTimed), catalogue_rows(KernelFamily::Grayscale));
}

void TestBlockSweep::runner_cancel_stops_early() {
    SweepRunner runner;
    runner.setTimer(fake_timer(3));  // holds in the fourth shape until cancelled
    bool done = false;
    int last_progress = 0;
    SweepResult result;
    connect(&runner, &SweepRunner::progress, this, [&](int d, int) {
        last_progress = d;
        if (d == 3) runner.cancel();
    });
    connect(&runner, &SweepRunner::finished, this, [&](const SweepResult& r) {
        result = r;
        done = true;
    });
    runner.start(grayscale_request());
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QVERIFY(result.cancelled);
    const int timed = count_state(result, SweepRowState::Timed);
    // Cancel is seen between shapes: the shape running when it was asked still finishes.
    QCOMPARE(timed, 4);
    QCOMPARE(last_progress, timed);
    QVERIFY(result.note.startsWith(QStringLiteral("cancelled after")));
}

void TestBlockSweep::runner_newer_sweep_supersedes() {
    JobRunner jobs;
    SweepRunner runner(&jobs);
    runner.setTimer(fake_timer(3));  // the first sweep holds in its fourth shape until superseded
    int finished = 0, progressed = 0;
    SweepResult result;
    connect(&runner, &SweepRunner::finished, this, [&](const SweepResult& r) {
        result = r;
        ++finished;
    });
    connect(&runner, &SweepRunner::progress, this, [&] { ++progressed; });
    runner.start(grayscale_request());
    QTRY_VERIFY_WITH_TIMEOUT(progressed > 0, 20000);  // the grayscale sweep is under way
    runner.setTimer(fake_timer());
    runner.start(matmul_request());  // cancels the grayscale sweep; only this one reports
    QTRY_VERIFY_WITH_TIMEOUT(finished == 1, 20000);
    QVERIFY(test::drain(jobs));  // whatever the first sweep posted has arrived by now
    QCOMPARE(finished, 1);
    QCOMPARE(result.family, KernelFamily::Matmul);
    QVERIFY(!result.cancelled);
    QCOMPARE(count_state(result, SweepRowState::Timed), catalogue_rows(KernelFamily::Matmul));
}

void TestBlockSweep::runner_destroyed_while_running() {
    std::atomic<int> shapes{0};
    bool finished = false;
    {
        auto runner = std::make_unique<SweepRunner>();
        runner->setTimer([&](const SweepRequest& req, const std::vector<SweepRow>& rows, const TimingOptions& o) {
            TimingOptions counted = o;
            counted.progress = [&, inner = o.progress](std::size_t d, std::size_t t) {
                ++shapes;
                if (inner) inner(d, t);
            };
            return fake_timer(2)(req, rows, counted);  // holds in the third shape until cancelled
        });
        connect(runner.get(), &SweepRunner::finished, this, [&] { finished = true; });
        runner->start(grayscale_request());
        QTRY_VERIFY_WITH_TIMEOUT(shapes >= 2, 10000);
        runner.reset();  // cancels, waits for the worker, drops what it had posted
        QVERIFY(!finished);
    }
    const int after = shapes;
    QCOMPARE(after, 3);  // the two before the hold, and the one running when the runner went
    // Its worker was joined with it: whatever it had posted is delivered now and finds nothing.
    test::deliver_posted_events();
    QCOMPARE(int(shapes), after);
    QVERIFY(!finished);
}

void TestBlockSweep::kernels_without_device_say_why() {
    if (cuda_device_available()) QSKIP("a CUDA device is present: the GPU cases cover the kernels");
    const SweepRequest g = grayscale_request();
    const GrayscaleImage image{image_of(g).bytes.data(), nullptr, image_of(g).width, image_of(g).height, PixelLayout::Interleaved};
    const std::vector<LaunchShape> shapes = {LaunchShape::two_d(16, 16), LaunchShape::one_d(256)};
    const TimingSweep t = time_grayscale_shapes(image, shapes);
    QVERIFY(!t.status.is_ok());
    QCOMPARE(t.status.kind(), ErrorKind::Unavailable);
#if !CUDAVIZ_HAVE_CUDA
    QVERIFY2(QString::fromStdString(t.status.message()).contains(QStringLiteral("built without the CUDA toolkit")),
             t.status.message().c_str());
#endif
    QCOMPARE(int(t.shapes.size()), 2);
    for (const ShapeTiming& s : t.shapes) QVERIFY(!s.timed);

    const SweepRequest m = matmul_request();
    const Matrix& a = matrices_of(m).a();
    const Matrix& b = matrices_of(m).b();
    const MatmulProblem p{a.data.data(), b.data.data(), nullptr, a.rows, a.cols, b.cols};
    const TimingSweep tm = time_matmul_launches(p, {MatmulLaunch::tiled(16)});
    QCOMPARE(tm.status.kind(), ErrorKind::Unavailable);
    QCOMPARE(int(tm.shapes.size()), 1);
    QVERIFY(!tm.shapes[0].timed);

    // Through the app, the real timer's failure is the sweep's note; the model stays.
    const SweepResult r = run_sweep(g, cuda_sweep_timer());
    QCOMPARE(r.status.kind(), ErrorKind::Unavailable);
    QVERIFY(!r.note.isEmpty());
    QVERIFY(r.rows[0].occupancy.blocks_per_sm > 0);
}

void TestBlockSweep::gpu_grayscale_sweep() {
    if (!cuda_device_available()) QSKIP("no CUDA device");
    for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
        SweepRequest req = grayscale_request(257, 131, layout);  // odd, non-square
        req.repeats = 5;
        req.warmup = 1;
        const SweepResult r = run_sweep(req, cuda_sweep_timer());
        QVERIFY2(r.status.is_ok(), r.status.message().c_str());
        QVERIFY(!r.device.isEmpty());
        QCOMPARE(count_state(r, SweepRowState::Timed), catalogue_rows(KernelFamily::Grayscale));
        for (const SweepRow& row : r.rows) {
            QVERIFY2(row.median_ms > 0 && row.throughput > 0, qPrintable(row.label()));
            QCOMPARE(row.throughput, grayscale_gb_per_s(257ull * 131, row.median_ms));
            QVERIFY(row.launches >= 3 * req.rounds && row.launches <= 5 * req.rounds);
        }
        QVERIFY(r.best >= 0);
        qInfo("%s: fastest %s %.4f ms (%.1f GB/s) on %s", layout == PixelLayout::Planar ? "planar" : "interleaved",
              qPrintable(r.rows[std::size_t(r.best)].label()), r.rows[std::size_t(r.best)].median_ms,
              r.rows[std::size_t(r.best)].throughput, qPrintable(r.device));
    }
}

void TestBlockSweep::gpu_matmul_sweep() {
    if (!cuda_device_available()) QSKIP("no CUDA device");
    SweepRequest req = matmul_request(67, 45, 93);
    req.repeats = 5;
    req.warmup = 1;
    const SweepResult r = run_sweep(req, cuda_sweep_timer());
    QVERIFY2(r.status.is_ok(), r.status.message().c_str());
    QCOMPARE(count_state(r, SweepRowState::Timed), catalogue_rows(KernelFamily::Matmul));
    for (const SweepRow& row : r.rows) QCOMPARE(row.throughput, matmul_gflop_per_s(67, 93, 45, row.median_ms));
    QVERIFY(r.best >= 0);
    qInfo("matmul 67x45 @ 45x93: fastest %s %.4f ms (%.2f GFLOP/s)", qPrintable(r.rows[std::size_t(r.best)].label()),
          r.rows[std::size_t(r.best)].median_ms, r.rows[std::size_t(r.best)].throughput);
}

void TestBlockSweep::gpu_refused_shape_and_cancel() {
    if (!cuda_device_available()) QSKIP("no CUDA device");
    const SweepRequest g = grayscale_request(257, 131);
    const GrayscaleImage image{image_of(g).bytes.data(), nullptr, image_of(g).width, image_of(g).height, PixelLayout::Interleaved};
    // 64x32 = 2048 threads: CUDA itself refuses it; the rows around it are timed.
    const std::vector<LaunchShape> shapes = {LaunchShape::two_d(16, 16), LaunchShape::two_d(64, 32),
                                             LaunchShape::one_d(256), LaunchShape::one_d(0)};
    TimingOptions options;
    options.repeats = 3;
    const TimingSweep t = time_grayscale_shapes(image, shapes, options);
    QVERIFY2(t.status.is_ok(), t.status.message().c_str());
    QCOMPARE(t.completed, std::size_t(4));
    QVERIFY(t.shapes[0].timed && t.shapes[2].timed);
    QVERIFY(!t.shapes[1].timed);
    // CUDA 13 with driver 580 says cudaErrorInvalidValue where older releases said
    // cudaErrorInvalidConfiguration (seen on the H200): either is CUDA's own refusal.
    const QString refused = QString::fromStdString(t.shapes[1].status.message());
    QVERIFY2(refused.contains(QStringLiteral("cudaErrorInvalidConfiguration")) ||
                 refused.contains(QStringLiteral("cudaErrorInvalidValue")),
             qPrintable(refused));
    QCOMPARE(t.shapes[1].status.kind(), ErrorKind::InvalidInput);
    QVERIFY(!t.shapes[3].timed && !t.shapes[3].status.is_ok());

    // Matmul: a naive block of 2048 threads is refused by our validator; the sweep goes on.
    const SweepRequest m = matmul_request();
    const Matrix& a = matrices_of(m).a();
    const Matrix& b = matrices_of(m).b();
    const MatmulProblem p{a.data.data(), b.data.data(), nullptr, a.rows, a.cols, b.cols};
    const TimingSweep tm = time_matmul_launches(p, {MatmulLaunch::naive(64, 32), MatmulLaunch::tiled(32)}, options);
    QVERIFY(tm.status.is_ok());
    QVERIFY(!tm.shapes[0].timed && !tm.shapes[0].status.is_ok());
    QVERIFY(tm.shapes[1].timed);

    // Cancel from the progress callback: exactly the shapes done by then are timed.
    CancelToken cancel;
    options.cancel = &cancel;
    options.progress = [&](std::size_t done, std::size_t) {
        if (done == 3) cancel.request();
    };
    std::vector<LaunchShape> many;
    for (const Dim3& b : power_of_two_2d_blocks()) many.push_back(LaunchShape::two_d(b.x, b.y));
    const TimingSweep c = time_grayscale_shapes(image, many, options);
    QVERIFY(c.cancelled);
    QCOMPARE(c.completed, std::size_t(3));
    int timed = 0;
    for (const ShapeTiming& s : c.shapes) timed += s.timed;
    QCOMPARE(timed, 3);
}

QTEST_GUILESS_MAIN(TestBlockSweep)
#include "tst_block_sweep.moc"
