// The matrices tab, headless under Xvfb: runs through the job runner give run_matmul's bytes; a newer
// launch supersedes an older one; a click on C inspects the right thread; the animation's counters
// follow the tiled and naive kernels and add up to the closed forms; the barrier-removed lesson marks
// the outputs that came out wrong; bad files keep what was open; and the highlights reach the screen.
#include <QtTest>

#include <QComboBox>
#include <QTabBar>
#include <QTabWidget>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cstring>
#include <memory>

#include "support/window_waits.h"
#include "app/jobs/job_runner.h"
#include "app/matmul/matmul_phase_model.h"
#include "app/matmul/matmul_runner.h"
#include "app/matmul/matmul_traffic.h"
#include "app/io/matrix_generator.h"
#include "app/io/matrix_io.h"
#include "kernels/core/index_math.h"
#include "app/matmul/matmul_session.h"
#include "ui/pages/matmul/fragment_view.h"
#include "ui/pages/matmul/matmul_page.h"
#include "kernels/matmul/matmul_variants.h"
#include "ui/pages/matmul/matrix_heatmap.h"

using namespace cvz;

namespace {

constexpr int kRunTimeoutMs = 60000;

bool same_bytes(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols && a.data.size() == b.data.size() &&
           std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

Matrix zeros(std::uint32_t rows, std::uint32_t cols) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data.assign(std::size_t(rows) * cols, 0.0f);
    return m;
}

// What QPainter gives for `over` (with alpha) filled over an opaque `under`.
QRgb blend(QColor over, QRgb under) {
    const double a = over.alphaF();
    auto mix = [a](int o, int u) { return int(std::lround(o * a + u * (1 - a))); };
    return qRgb(mix(over.red(), qRed(under)), mix(over.green(), qGreen(under)), mix(over.blue(), qBlue(under)));
}

bool near_color(QRgb a, QRgb b, int tolerance = 3) {
    return std::abs(qRed(a) - qRed(b)) <= tolerance && std::abs(qGreen(a) - qGreen(b)) <= tolerance &&
           std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

QString rgb_text(QRgb c) { return QStringLiteral("(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)); }

// The page position of the middle of element (row, col) of a heatmap.
QPoint page_point(const MatmulPage& page, const MatrixHeatmap* view, double row, double col) {
    return view->mapTo(&page, view->elementToWidget(QPointF(col, row)).toPoint());
}

Matrix expected_c(const Matrix& a, const Matrix& b, const MatmulLaunch& launch) {
    const MatmulResult r = run_matmul(MatmulRequest{a, b, launch, BackendChoice::Auto});
    return r.c;
}

bool wait_idle(const MatmulPage& page) {
    return QTest::qWaitFor([&] { return !page.running(); }, kRunTimeoutMs);
}

}  // namespace

class TestMatmulPage : public QObject {
    Q_OBJECT
private slots:
    void runs_match_run_matmul();
    void newer_launch_supersedes();
    void click_inspects_thread();
    void select_thread_of_guarded_off_block();
    void register_tiled_thread_comes_from_the_trace();
    void tiled_animation_counters();
    void counters_add_up_to_the_closed_forms();
    void naive_animation_counters();
    void animation_steps_follow_the_kernel();
    void barrier_removed_marks_wrong_outputs();
    void bad_file_keeps_matrices();
    void save_and_reload_c();
    void shape_mismatch_is_a_message();
    void invalid_launch_is_a_message();
    void highlights_reach_the_screen();
    void views_zoom_in_step();
    void lecture_preset_runs();
    void generate_keeps_loaded_matrices();
    void presets_box_and_timeline_follow_new_matrices();
    void fragments_tab_only_for_tensor_cores();
};

void TestMatmulPage::runs_match_run_matmul() {
    JobRunner runner;
    MatmulPage page(&runner);
    const Matrix a = random_matrix(37, 70, 11), b = random_matrix(70, 29, 12);
    page.setMatrices(a, b);
    QSignalSpy results(&page, &MatmulPage::resultReady);

    page.setLaunch(MatmulLaunch::naive(16, 8));
    QVERIFY(wait_idle(page));
    QVERIFY(page.matrixC());
    QVERIFY(page.lastResult().status.is_ok());
    QVERIFY(same_bytes(*page.matrixC(), expected_c(a, b, MatmulLaunch::naive(16, 8))));

    page.setLaunch(MatmulLaunch::tiled(16));
    QVERIFY(wait_idle(page));
    QCOMPARE(page.resultLaunch().kernel, MatmulVariant::Tiled);
    QVERIFY(same_bytes(*page.matrixC(), expected_c(a, b, MatmulLaunch::tiled(16))));
    // Invariant 2: every kernel and block shape gives the same bytes.
    QVERIFY(same_bytes(*page.matrixC(), expected_c(a, b, MatmulLaunch::naive(16, 8))));
    QVERIFY(results.count() >= 2);
    QCOMPARE(page.heatmapC()->matrix(), page.matrixC());
    // Small problems are also counted access by access, and agree with the closed forms.
    QVERIFY(page.measuredTraffic());
    QCOMPARE(page.measuredTraffic()->global_loads, page.predictedTraffic().global_loads);
    QCOMPARE(page.measuredTraffic()->shared_loads, page.predictedTraffic().shared_loads);
}

void TestMatmulPage::newer_launch_supersedes() {
    JobRunner runner;
    MatmulPage page(&runner);
    const Matrix a = random_matrix(40, 33, 1), b = random_matrix(33, 50, 2);
    page.setMatrices(a, b);
    page.setLaunch(MatmulLaunch::naive(8, 8));
    page.setLaunch(MatmulLaunch::tiled(8));
    page.setLaunch(MatmulLaunch::naive(32, 4));
    QVERIFY(wait_idle(page));
    QCOMPARE(page.resultLaunch().kernel, MatmulVariant::Naive);
    QCOMPARE(page.resultLaunch().block.x, 32u);
    QVERIFY(same_bytes(*page.matrixC(), expected_c(a, b, MatmulLaunch::naive(32, 4))));
}

void TestMatmulPage::click_inspects_thread() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    const Matrix a = random_matrix(37, 70, 11), b = random_matrix(70, 29, 12);
    page.setMatrices(a, b);
    page.setLaunch(MatmulLaunch::naive(16, 8));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    QVERIFY(wait_idle(page));

    const int r = 20, c = 21;  // blockIdx = (21/16, 20/8) = (1, 2), threadIdx = (21%16, 20%8) = (5, 4)
    MatrixHeatmap* view = page.heatmapC();
    QTest::mouseClick(view, Qt::LeftButton, {}, view->elementToWidget(QPointF(c + 0.5, r + 0.5)).toPoint());
    QCOMPARE(page.selectedRow(), r);
    QCOMPARE(page.selectedCol(), c);
    const QString text = page.inspectorText();
    QVERIFY2(text.contains(QStringLiteral("blockIdx = (1, 2)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("threadIdx = (5, 4)")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("K = 70 terms")));
    // The kernels' own index functions map that thread back onto the clicked element.
    const MatmulThread t = matmul_thread_of_element(page.launch(), r, c);
    QCOMPARE(global_row(t.block, t.thread, page.launch().block_shape()), std::uint64_t(r));
    QCOMPARE(global_col(t.block, t.thread, page.launch().block_shape()), std::uint64_t(c));
    // The float64 reference of that element and the kernel's float32 value.
    double ref = 0;
    for (std::uint32_t k = 0; k < 70; ++k) ref += double(a.at(r, k)) * double(b.at(k, c));
    QVERIFY2(text.contains(QString::number(ref, 'g', 15)), qPrintable(text));
    QVERIFY(text.contains(QString::number(double(page.matrixC()->at(r, c)), 'g', 9)));

    // The same element under the tiled kernel belongs to another block: blockIdx = (2, 2), threadIdx = (5, 4).
    page.setLaunch(MatmulLaunch::tiled(8));
    QVERIFY(page.inspectorText().contains(QStringLiteral("blockIdx = (2, 2)")));
    QCOMPARE(page.selectedBlock(), (Dim3{2, 2, 0}));

    // A click on A picks the row, on B the column.
    QTest::mouseClick(page.heatmapA(), Qt::LeftButton, {}, page.heatmapA()->elementToWidget(QPointF(3.5, 9.5)).toPoint());
    QCOMPARE(page.selectedRow(), 9);
    QCOMPARE(page.selectedCol(), c);
    QTest::mouseClick(page.heatmapB(), Qt::LeftButton, {}, page.heatmapB()->elementToWidget(QPointF(4.5, 3.5)).toPoint());
    QCOMPARE(page.selectedRow(), 9);
    QCOMPARE(page.selectedCol(), 4);
}

void TestMatmulPage::select_thread_of_guarded_off_block() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    page.setLaunch(MatmulLaunch::tiled(8));
    page.selectThread(Dim3{3, 1, 0}, Dim3{2, 6, 0});  // r = 8 + 6, c = 24 + 2
    QCOMPARE(page.selectedRow(), 14);
    QCOMPARE(page.selectedCol(), 26);
    page.selectThread(Dim3{3, 4, 0}, Dim3{7, 7, 0});  // c = 31 >= N = 29: guarded off
    QCOMPARE(page.selectedRow(), -1);
    QCOMPARE(page.selectedBlock(), (Dim3{3, 4, 0}));
    QVERIFY(wait_idle(page));
}

// blocktile_2d (16 x 16 threads, 8 x 8 outputs each, 128 x 128 block tiles): a clicked element's
// thread is read off the block's traced stores. C[150, 133] lies in block (1, 1) at (22, 5) of its
// tile: thread (tx, ty) = (5 / 8, 22 / 8) = (0, 2), t = 32, warp 1, whose 8 x 8 tile is rows 144..151,
// columns 128..135; the warp (threads 32..63: ty 2..3) covers rows 144..159 x columns 128..255.
void TestMatmulPage::register_tiled_thread_comes_from_the_trace() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    page.setMatrices(random_matrix(200, 9, 21), random_matrix(9, 190, 22));
    const KernelInfo* info = matmul_variant_info(MatmulVariant::Blocktile2d);
    QVERIFY(info);
    page.setLaunch(MatmulLaunch::of(MatmulVariant::Blocktile2d, info->fixed_block, 16));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    QVERIFY(wait_idle(page));
    page.selectElement(150, 133);
    QCOMPARE(page.selectedBlock(), (Dim3{1, 1, 0}));
    QTRY_VERIFY_WITH_TIMEOUT(page.selectedThreadId().has_value(), kRunTimeoutMs);
    QCOMPARE(*page.selectedThreadId(), 32u);
    const std::vector<MatrixRect> own = page.threadTiles().thread_tile(32);
    QCOMPARE(own.size(), std::size_t(1));
    QCOMPARE(own[0].row, 144u);
    QCOMPARE(own[0].col, 128u);
    QCOMPARE(own[0].rows, 8u);
    QCOMPARE(own[0].cols, 8u);
    const std::vector<MatrixRect> warp = page.threadTiles().warp_tile(1);
    QCOMPARE(warp.size(), std::size_t(1));
    QCOMPARE(warp[0].row, 144u);
    QCOMPARE(warp[0].rows, 16u);
    QCOMPARE(warp[0].col, 128u);
    QCOMPARE(warp[0].cols, 62u);  // N = 190: columns 128..189 of the block's 128..255
    const QString text = page.inspectorText();
    QVERIFY2(text.contains(QStringLiteral("threadIdx = (0, 2)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("warp 1, lane 0")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("64 outputs: rows 144–151 × columns 128–135")), qPrintable(text));
    // Counted off the trace: by the end every output of the block's tile is stored, 64 by this thread.
    page.setAnimationPosition(page.animationSteps());
    const MatmulStepCounters n = page.animationCounters();
    QCOMPARE(n.block_global_stores, std::uint64_t(72) * 62);  // rows 128..199 x columns 128..189
    QCOMPARE(n.thread_global_stores, std::uint64_t(64));
}

void TestMatmulPage::tiled_animation_counters() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    page.setLaunch(MatmulLaunch::tiled(8));
    page.selectElement(20, 21);  // block (2, 2), thread (5, 4); a full 8x8 tile
    QCOMPARE(page.animationSteps(), 9 * 3);  // ceil(70 / 8) phases

    page.setAnimationPosition(0);  // phase 0, load: one element of A and one of B per thread
    MatmulStepCounters n = page.animationCounters();
    QCOMPARE(n.block_global_loads, 128ull);  // (8 rows + 8 columns) x 8
    QCOMPARE(n.thread_global_loads, 2ull);
    QCOMPARE(n.thread_shared_loads, 0ull);
    QCOMPARE(page.animationStep().stage, MatmulStage::Load);
    QCOMPARE(page.animationStep().a_current.col, 0u);
    QCOMPARE(page.animationStep().a_current.cols, 8u);
    QCOMPARE(page.animationStep().a_current.row, 16u);
    // The caption is read from the memory trace of the finished run (traced on the worker).
    QTRY_VERIFY_WITH_TIMEOUT(page.animationCaption().contains(QStringLiteral("store shared memory")), kRunTimeoutMs);

    page.setAnimationPosition(1);  // __syncthreads(), multiply: 2*TILE shared loads per thread
    n = page.animationCounters();
    QCOMPARE(n.thread_shared_loads, 16ull);
    QCOMPARE(n.block_shared_loads, 16ull * 64);
    QCOMPARE(n.k_done, 8u);

    page.setAnimationPosition(5);  // phase 1, second barrier
    n = page.animationCounters();
    QCOMPARE(n.block_global_loads, 256ull);
    QCOMPARE(n.thread_global_loads, 4ull);
    QCOMPARE(n.thread_shared_loads, 32ull);
    QCOMPARE(page.animationStep().stage, MatmulStage::Barrier);
    QCOMPARE(page.animationStep().b_current.row, 8u);

    page.setAnimationPosition(27);  // done: K/TILE phases of loads per operand, one store
    n = page.animationCounters();
    QCOMPARE(n.block_global_loads, 16ull * 70);
    QCOMPARE(n.thread_global_loads, 18ull);  // 9 phases x (one of A + one of B)
    QCOMPARE(n.thread_shared_loads, 9ull * 16);
    QCOMPARE(n.block_global_stores, 64ull);
    QCOMPARE(n.thread_global_stores, 1ull);
    QCOMPARE(page.animationStep().stage, MatmulStage::Done);
    QVERIFY(wait_idle(page));
}

void TestMatmulPage::counters_add_up_to_the_closed_forms() {
    // Over all blocks the final counters are the whole kernel: predicted_matmul_traffic, and the
    // traced emulator's count.
    for (const MatmulLaunch& l : {MatmulLaunch::tiled(8), MatmulLaunch::tiled(16), MatmulLaunch::naive(16, 8)}) {
        const MatmulPhaseModel model(l, 37, 70, 29);
        std::uint64_t global = 0, shared = 0, stores = 0;
        for (unsigned by = 0; by < model.grid().y; ++by)
            for (unsigned bx = 0; bx < model.grid().x; ++bx) {
                const MatmulStepCounters n = model.step(model.steps(), Dim3{bx, by, 0}, Dim3{0, 0, 0}).counters;
                global += n.block_global_loads;
                shared += n.block_shared_loads;
                stores += n.block_global_stores;
            }
        const MatmulTraffic predicted = predicted_matmul_traffic(l, 37, 70, 29);
        const MatmulTraffic measured = measured_matmul_traffic(l, 37, 70, 29);
        QCOMPARE(global, predicted.global_loads);
        QCOMPARE(global, measured.global_loads);
        QCOMPARE(shared, measured.shared_loads);
        QCOMPARE(stores, measured.global_stores);
    }
}

void TestMatmulPage::naive_animation_counters() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    page.setLaunch(MatmulLaunch::naive(16, 8));
    page.selectElement(20, 21);  // block (1, 2): rows 16..23, columns 16..28 valid (13)
    QCOMPARE(page.animationSteps(), 35);  // chunks of max(1, 70/32) = 2
    page.setAnimationPosition(0);
    MatmulStepCounters n = page.animationCounters();
    QCOMPARE(n.k_done, 2u);
    QCOMPARE(n.thread_global_loads, 4ull);
    QCOMPARE(n.block_global_loads, 8ull * 13 * 4);
    QCOMPARE(n.block_shared_loads, 0ull);
    page.setAnimationPosition(10);
    n = page.animationCounters();
    QCOMPARE(n.k_done, 22u);
    QCOMPARE(n.thread_global_loads, 44ull);
    QCOMPARE(page.animationStep().a_current.col, 20u);
    QCOMPARE(page.animationStep().a_done.cols, 22u);
    page.setAnimationPosition(35);
    QCOMPARE(page.animationCounters().thread_global_loads, 140ull);  // K per operand
    QCOMPARE(page.animationCounters().block_global_stores, 8ull * 13);
    QVERIFY(wait_idle(page));
}

void TestMatmulPage::animation_steps_follow_the_kernel() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    QSignalSpy changed(&page, &MatmulPage::animationChanged);
    page.setLaunch(MatmulLaunch::tiled(16));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(page.animationSteps(), 5 * 3);
    QCOMPARE(page.animationUnit(), QStringLiteral("step"));
    page.setLaunch(MatmulLaunch::tiled(16));  // no change, no re-run, no signal
    QCOMPARE(changed.count(), 1);
    page.setLaunch(MatmulLaunch::naive(16, 16));
    QCOMPARE(changed.count(), 2);
    QCOMPARE(page.animationUnit(), QStringLiteral("chunk"));
    page.setAnimationPosition(1000);  // clamped to "done"
    QCOMPARE(page.animationPosition(), page.animationSteps());
    QVERIFY(wait_idle(page));
}

void TestMatmulPage::barrier_removed_marks_wrong_outputs() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    const Matrix a = random_matrix(37, 70, 11), b = random_matrix(70, 29, 12);
    page.setMatrices(a, b);
    MatmulLaunch l = MatmulLaunch::tiled(8);
    l.second_barrier = false;
    page.setLaunch(l);
    page.setBackend(BackendChoice::Cuda);  // the lesson still runs, on the emulator
    QVERIFY(wait_idle(page));
    QVERIFY2(page.lastResult().status.is_ok(), page.lastResult().status.message().c_str());
    QVERIFY2(page.wrongCount() > 0, qPrintable(QString::number(page.wrongCount())));
    QVERIFY(page.animationCaption().contains(QStringLiteral("%1 outputs wrong").arg(QLocale(QLocale::English).toString(page.wrongCount()))));
    // The marked elements are exactly those that differ from a run with both barriers.
    const Matrix normal = expected_c(a, b, MatmulLaunch::tiled(8));
    long long differ = 0;
    for (std::size_t i = 0; i < normal.data.size(); ++i)
        differ += std::memcmp(&normal.data[i], &page.matrixC()->data[i], sizeof(float)) != 0;
    QCOMPARE(page.wrongCount(), differ);

    // On screen: a wrong element of C is outlined in red.
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    int r = -1, c = -1;
    for (std::size_t i = 0; i < normal.data.size() && r < 0; ++i)
        if (std::memcmp(&normal.data[i], &page.matrixC()->data[i], sizeof(float)) != 0) {
            r = int(i / 29);
            c = int(i % 29);
        }
    const QImage shot = page.grab().toImage();
    // The outline's width depends on the cell size: look for it across the element's left edge.
    const QPoint edge = page_point(page, page.heatmapC(), r + 0.5, c);
    bool outlined = false;
    for (int dx = -1; dx <= 2; ++dx) outlined |= shot.pixel(edge + QPoint(dx, 0)) == MatrixHeatmap::wrongColor().rgb();
    QVERIFY2(outlined, qPrintable(rgb_text(shot.pixel(edge))));
    QVERIFY(shot.pixel(page_point(page, page.heatmapC(), r + 0.5, c + 0.5)) != MatrixHeatmap::wrongColor().rgb());

    // Both barriers again: nothing is marked.
    page.setLaunch(MatmulLaunch::tiled(8));
    QVERIFY(wait_idle(page));
    QCOMPARE(page.wrongCount(), -1);
}

void TestMatmulPage::bad_file_keeps_matrices() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(5, 6, 1), random_matrix(6, 7, 2));
    QVERIFY(wait_idle(page));
    const auto a = page.matrixA(), c = page.matrixC();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken_input.npy"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a numpy file");
    f.close();
    QSignalSpy status(&page, &MatmulPage::statusMessage);
    page.openMatrix(MatmulPage::Operand::A, path);
    QTRY_VERIFY_WITH_TIMEOUT(!page.lastError().isEmpty(), kRunTimeoutMs);
    QVERIFY2(page.lastError().contains(QStringLiteral("broken_input.npy")), qPrintable(page.lastError()));
    QCOMPARE(page.matrixA(), a);
    QCOMPARE(page.matrixC(), c);
}

void TestMatmulPage::save_and_reload_c() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(9, 13, 1), random_matrix(13, 11, 2));
    page.setLaunch(MatmulLaunch::tiled(8));
    QVERIFY(wait_idle(page));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("c.npy"));
    QSignalSpy status(&page, &MatmulPage::statusMessage);
    page.saveResult(path);
    QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty(), kRunTimeoutMs);
    const LoadedMatrix back = load_matrix(path);
    QVERIFY2(back.ok(), qPrintable(back.error));
    QVERIFY(same_bytes(back.matrix, *page.matrixC()));

    // A and B from files: the page runs on what it opened.
    const QString a_path = dir.filePath(QStringLiteral("a.csv"));
    QVERIFY(save_matrix(a_path, random_matrix(4, 13, 5)).isEmpty());
    page.openMatrix(MatmulPage::Operand::A, a_path);
    QTRY_VERIFY_WITH_TIMEOUT(page.matrixA()->rows == 4, kRunTimeoutMs);
    QVERIFY(wait_idle(page));
    QCOMPARE(page.matrixC()->rows, 4u);
}

void TestMatmulPage::shape_mismatch_is_a_message() {
    JobRunner runner;
    MatmulPage page(&runner);
    QSignalSpy status(&page, &MatmulPage::statusMessage);
    page.setMatrices(random_matrix(5, 784, 1), random_matrix(783, 10, 2));
    QVERIFY(!page.running());
    QVERIFY(!page.matrixC());
    QCOMPARE(page.animationSteps(), 0);
    QVERIFY(!status.isEmpty());
    QVERIFY2(status.last()[0].toString().contains(QStringLiteral("783")), qPrintable(status.last()[0].toString()));
}

void TestMatmulPage::invalid_launch_is_a_message() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setMatrices(random_matrix(9, 13, 1), random_matrix(13, 11, 2));
    QVERIFY(wait_idle(page));
    QSignalSpy status(&page, &MatmulPage::statusMessage);
    page.setLaunch(MatmulLaunch::naive(64, 64));  // 4096 threads per block
    QCOMPARE(page.animationSteps(), 0);
    QVERIFY(wait_idle(page));
    QVERIFY(!page.lastResult().status.is_ok());
    QVERIFY(!page.matrixC());
    QVERIFY(status.last()[0].toString().contains(QStringLiteral("1024")) ||
            status.last()[0].toString().contains(QStringLiteral("4096")));
    QVERIFY(page.matrixA());  // the matrices stay
    page.setLaunch(MatmulLaunch::tiled(8));
    QVERIFY(wait_idle(page));
    QVERIFY(page.matrixC());
}

void TestMatmulPage::highlights_reach_the_screen() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    // A of zeros is drawn in the centre colour everywhere, so each highlight's blend is known exactly.
    page.setMatrices(zeros(12, 40), random_matrix(40, 10, 2));
    page.setLaunch(MatmulLaunch::tiled(8));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    QVERIFY(wait_idle(page));
    page.selectElement(9, 5);  // block (0, 1): rows 8..11 of A
    page.setAnimationPosition(0);  // phase 0: the A tile is rows 8..11 x k 0..7
    const QImage shot = page.grab().toImage();
    const QRgb white = MatrixHeatmap::colorFor(0, 1);
    const MatrixHeatmap* a = page.heatmapA();

    const QRgb band = shot.pixel(page_point(page, a, 9.5, 30.5));  // the selected row, past the tile
    QVERIFY2(near_color(band, blend(MatmulPage::selectionBandColor(), white)), qPrintable(rgb_text(band)));
    const QRgb tile = shot.pixel(page_point(page, a, 10.5, 3.5));  // in the staged tile, another row
    QVERIFY2(near_color(tile, blend(MatmulPage::sharedTileColor(), white)), qPrintable(rgb_text(tile)));
    const QRgb plain = shot.pixel(page_point(page, a, 2.5, 30.5));  // outside every highlight
    QVERIFY2(near_color(plain, white, 0), qPrintable(rgb_text(plain)));

    // A's rows line up with C's, B's columns with C's.
    const MatrixHeatmap* c = page.heatmapC();
    const MatrixHeatmap* b = page.heatmapB();
    QCOMPARE(page_point(page, a, 7, 0).y(), page_point(page, c, 7, 0).y());
    QCOMPARE(page_point(page, b, 0, 6).x(), page_point(page, c, 0, 6).x());
}

void TestMatmulPage::views_zoom_in_step() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    page.setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    QVERIFY(wait_idle(page));
    MatrixHeatmap* a = page.heatmapA();
    MatrixHeatmap* b = page.heatmapB();
    MatrixHeatmap* c = page.heatmapC();
    c->zoomAbout(QPointF(40, 30), 3);
    c->panBy(QPointF(-25, 10));
    QCOMPARE(a->rowAxis(), c->rowAxis());
    QCOMPARE(b->colAxis(), c->colAxis());
    QVERIFY(!a->rowAxis().fitting);
    QVERIFY(a->colAxis().fitting);  // A's K axis is its own
    QCOMPARE(page_point(page, a, 12, 0).y(), page_point(page, c, 12, 0).y());
    QCOMPARE(page_point(page, b, 0, 17).x(), page_point(page, c, 0, 17).x());
    a->zoomAbout(QPointF(10, 10), 0.5);  // and the other way round
    QCOMPARE(c->rowAxis(), a->rowAxis());
    QTest::mouseDClick(c, Qt::LeftButton, {}, QPoint(5, 5));
    QVERIFY(c->rowAxis().fitting && a->rowAxis().fitting && b->colAxis().fitting);
}

void TestMatmulPage::lecture_preset_runs() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.setLaunch(MatmulLaunch::tiled(16));
    page.applyPreset(0);  // 5x784 @ 784x10
    QTRY_VERIFY_WITH_TIMEOUT(page.matrixA()->cols == 784, kRunTimeoutMs);
    QVERIFY(wait_idle(page));
    QCOMPARE(page.matrixC()->rows, 5u);
    QCOMPARE(page.matrixC()->cols, 10u);
    QCOMPARE(page.animationSteps(), 49 * 3);
    QVERIFY(same_bytes(*page.matrixC(), expected_c(*page.matrixA(), *page.matrixB(), MatmulLaunch::tiled(16))));
}

QTEST_MAIN(TestMatmulPage)
// Generate replaces only what is not a loaded file of the asked size, and says what it did.
void TestMatmulPage::generate_keeps_loaded_matrices() {
    QTemporaryDir dir;
    const Matrix loaded = random_matrix(45, 38, 99);
    const QString a_csv = dir.filePath(QStringLiteral("A.csv"));
    QCOMPARE(save_matrix(a_csv, loaded), QString());
    JobRunner runner;
    MatmulPage page(&runner);
    MatmulSession* session = page.session();
    QSignalSpy loads(session, &MatmulSession::operandLoaded);
    page.openMatrix(MatmulSession::Operand::A, a_csv);
    QVERIFY(loads.wait(kRunTimeoutMs) || !loads.isEmpty());
    QVERIFY(session->loadedFromFile(MatmulSession::Operand::A));
    const auto file_a = session->a();
    QCOMPARE(file_a->rows, 45u);

    // Only B's size changed: A stays the file's numbers.
    QSignalSpy generated(session, &MatmulSession::generated);
    page.generate(45, 38, 38, 52, 7);
    QVERIFY(generated.wait(kRunTimeoutMs) || !generated.isEmpty());
    const QString said = generated.takeFirst()[0].toString();
    QVERIFY2(said.contains(QStringLiteral("Kept A (A.csv, 45 × 38)")) && said.contains(QStringLiteral("generated B 38 × 52")),
             qPrintable(said));
    QCOMPARE(session->a(), file_a);
    QVERIFY(same_bytes(*session->a(), loaded));
    QVERIFY(same_bytes(*session->b(), random_matrix(38, 52, 8)));
    QCOMPARE(session->aSource(), QStringLiteral("A.csv"));
    QVERIFY2(page.statusText().contains(QStringLiteral("Kept A")), qPrintable(page.statusText()));
    QVERIFY(wait_idle(page));

    // Both sizes as they are and A from a file: A kept, B (generated, not a file) made again.
    page.generate(45, 38, 38, 52, 3);
    QVERIFY(generated.wait(kRunTimeoutMs) || !generated.isEmpty());
    QVERIFY(same_bytes(*session->a(), loaded));
    QVERIFY(same_bytes(*session->b(), random_matrix(38, 52, 4)));

    // A's size changed by the user: A is generated.
    page.generate(40, 38, 38, 52, 7);
    QVERIFY(generated.wait(kRunTimeoutMs) || !generated.isEmpty());
    const QString second = generated.takeLast()[0].toString();
    QVERIFY2(!second.contains(QStringLiteral("Kept")) && second.contains(QStringLiteral("generated A 40 × 38 and B 38 × 52")),
             qPrintable(second));
    QVERIFY(same_bytes(*session->a(), random_matrix(40, 38, 7)));
    QVERIFY(!session->loadedFromFile(MatmulSession::Operand::A));
    QVERIFY(wait_idle(page));
}

// The presets box stops naming a preset once other sizes are generated; a new problem starts its
// animation at the first step.
void TestMatmulPage::presets_box_and_timeline_follow_new_matrices() {
    JobRunner runner;
    MatmulPage page(&runner);
    QComboBox* presets = nullptr;
    for (QComboBox* box : page.findChildren<QComboBox*>())
        if (box->count() > 0 && box->itemText(0).startsWith(QStringLiteral("Lecture presets"))) presets = box;
    QVERIFY(presets);
    MatmulSession* session = page.session();
    QSignalSpy changed(session, &MatmulSession::operandsChanged);
    const MatmulPreset preset = lecture_matmul_presets().first();
    presets->setCurrentIndex(1);
    emit presets->activated(1);
    QVERIFY(changed.wait(kRunTimeoutMs) || !changed.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(session->a()->rows, preset.m, kRunTimeoutMs);
    QCOMPARE(presets->currentIndex(), 1);  // still the preset's sizes
    QVERIFY(wait_idle(page));
    page.setLaunch(MatmulLaunch::tiled(8));
    QVERIFY(wait_idle(page));
    QVERIFY(page.animationSteps() > 3);
    session->setAnimationPosition(3);
    QCOMPARE(session->animationPosition(), 3);

    changed.clear();
    page.generate(preset.m + 3, preset.k, preset.k, preset.n, 5);
    QVERIFY(changed.wait(kRunTimeoutMs) || !changed.isEmpty());
    QCOMPARE(presets->currentIndex(), 0);  // "Lecture presets…": no longer the preset
    QCOMPARE(session->animationPosition(), 0);
    QVERIFY(wait_idle(page));
}

#include "tst_matmul_page.moc"

// The matrices are the page's only view (no tab bar) until a tensor-core rung is chosen: then a
// Fragments tab joins them (tst_fragment_view tests what it shows), and goes with the rung.
void TestMatmulPage::fragments_tab_only_for_tensor_cores() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    page.setMatrices(random_matrix(37, 20, 5), random_matrix(20, 29, 6));
    page.setLaunch(MatmulLaunch::tiled(8));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    QCOMPARE(page.viewTabs()->count(), 1);
    QVERIFY(!page.viewTabs()->tabBar()->isVisible());
    const KernelInfo* tf32 = matmul_variant_info(MatmulVariant::Tf32);
    QVERIFY(tf32);
    page.setLaunch(MatmulLaunch::of(MatmulVariant::Tf32, tf32->fixed_block, 16));
    QCOMPARE(page.viewTabs()->count(), 2);
    QVERIFY(page.viewTabs()->tabBar()->isVisible());
    QVERIFY(page.showView(QStringLiteral("fragments")));
    QCOMPARE(page.viewTabs()->currentWidget(), page.fragmentView()->parentWidget());
    page.setLaunch(MatmulLaunch::naive(16, 16));  // the tab goes, the matrices come back to the front
    QCOMPARE(page.viewTabs()->count(), 1);
    QVERIFY(page.heatmapC()->isVisible());
    QVERIFY(wait_idle(page));
}
