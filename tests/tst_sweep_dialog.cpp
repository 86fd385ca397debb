// The block-size sweep dialog under Xvfb: a sweep with an injected fake timer (deterministic times),
// the heatmap's colours, grey invalid cells and the outline of the fastest cell read back from
// grab(); the progress bar, Cancel, CSV export, and the shapes a click chooses.
//
// CVZ_SWEEP_SHOW_MS=N keeps the timed dialog on screen N ms after its test (for screenshots).
#include <QtTest>

#include <QComboBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>

#include "support/window_waits.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/matmul/matmul_prediction.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/jobs/backend_choice.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/tuning/block_sweep.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "ui/windows/sweep_dialog.h"
#include "ui/views/sweep_heatmap.h"

using namespace cvz;

namespace {

int log2i(unsigned v) {
    int n = 0;
    while (v > 1) {
        v >>= 1;
        ++n;
    }
    return n;
}

// 2-D 32x8 is the fastest (10 us), each power-of-two step away costs 10 us; 1-D blocks 15 us and up.
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

// The fake refuses 2-D 4x4, as CUDA would refuse a shape it cannot run. From shape `hold_at` on it
// waits until the sweep is cancelled, so that a cancel test knows where the sweep stands whatever
// the machine's load.
SweepTimer fake_timer(std::size_t hold_at = SIZE_MAX) {
    return [=](const SweepRequest&, const std::vector<SweepRow>& rows, const TimingOptions& options) {
        TimingSweep sweep = run_timing_loop(rows.size(), options, [&](std::size_t i, ShapeTiming* t) {
            if (i >= hold_at && options.cancel) options.cancel->wait();  // woken by the cancel itself
            if (is(rows[i], GrayscaleVariant::Gray2d) && rows[i].block() == Dim3{4, 4, 1}) {
                t->status = Status::error(ErrorKind::InvalidInput, "fake: cudaErrorInvalidConfiguration");
                return Status::ok();
            }
            t->timed = true;
            t->median_ms = fake_ms(rows[i]);
            t->launches = options.repeats;
            return Status::ok();
        });
        sweep.device = "Fake GPU";
        return sweep;
    };
}

RgbBuffer test_image(std::uint32_t w, std::uint32_t h) {
    RgbBuffer b;
    b.width = w;
    b.height = h;
    b.bytes.assign(3 * std::size_t(w) * h, 128);
    return b;
}

// The inputs as the pages offer them (ImagePage, MatmulPage).
void set_image(SweepDialog& d, const RgbBuffer& image, PixelLayout layout = PixelLayout::Interleaved,
               const QString& name = {}) {
    d.setProblem(make_grayscale_problem(image, layout), name);
}

void set_matrices(SweepDialog& d, const Matrix& a, const Matrix& b) { d.setProblem(make_matmul_problem(a, b)); }

Matrix matrix(std::uint32_t rows, std::uint32_t cols) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data.assign(m.size(), 1.0f);
    return m;
}

// Colours compared as the 8-bit pixels they paint.
#define QCOMPARE_RGB(actual, expected) QCOMPARE(QColor(actual).name(), QColor(expected).name())

// A pixel of the cell's fill, left of the centred text and right of the outline.
QColor fill_at(const QImage& img, const SweepHeatmap* map, unsigned x, unsigned y) {
    const QRect c = map->cellRect(x, y);
    return img.pixelColor(c.left() + 5, c.center().y());
}

QColor outline_at(const QImage& img, const SweepHeatmap* map, unsigned x, unsigned y) {
    const QRect c = map->cellRect(x, y);
    return img.pixelColor(c.left() + 1, c.center().y());
}

void hold_for_screenshot(QWidget* w) {
    const int ms = qEnvironmentVariableIntValue("CVZ_SWEEP_SHOW_MS");
    if (ms <= 0) return;
    w->raise();
    w->activateWindow();
    QTest::qWait(ms);
}

}  // namespace

class TestSweepDialog : public QObject {
    Q_OBJECT
private slots:
    void opens_non_modal_with_the_model();
    void modeled_sweep_without_gpu();
    void predict_without_gpu_fills_every_shape();
    void any_one_variant_can_be_swept();
    void timed_sweep_colours_and_outline();
    void cancel_stops_the_sweep();
    void export_csv_writes_the_file();
    void clicks_choose_shapes();
    void profile_change_remodels();
};

void TestSweepDialog::opens_non_modal_with_the_model() {
    SweepDialog d;
    d.setTimer({});
    QVERIFY(!d.isModal());
    QCOMPARE(d.family(), KernelFamily::Grayscale);
    // One row per block of every variant of the catalogue (98 for gray_1d and gray_2d).
    const int gray_rows = int(sweep_rows(KernelFamily::Grayscale, DeviceProfile{}).size());
    QVERIFY(gray_rows >= 98);
    QCOMPARE(int(d.result().rows.size()), gray_rows);
    QCOMPARE(d.table()->rowCount(), gray_rows);
    // The 1-D rows (not in the heatmap) head the table.
    QCOMPARE(d.table()->item(0, 0)->text(), QStringLiteral("1-D 32"));
    QCOMPARE(d.heatmap()->colorMode(), SweepHeatmap::ColorMode::Occupancy);
    QVERIFY(d.kernelBox()->itemText(0).contains(QStringLiteral("no image")));
    set_image(d, test_image(64, 48), PixelLayout::Interleaved, QStringLiteral("test.png"));
    QVERIFY(d.kernelBox()->itemText(0).contains(QStringLiteral("test.png, 64 × 48")));
    set_matrices(d, matrix(3, 5), matrix(5, 7));
    QVERIFY(d.kernelBox()->itemText(1).contains(QStringLiteral("A 3×5 @ B 5×7")));
    d.setFamily(KernelFamily::Matmul);
    QCOMPARE(int(d.result().rows.size()), int(sweep_rows(KernelFamily::Matmul, d.profile()).size()));
    QVERIFY(d.result().rows.size() >= 69);
    QCOMPARE(d.table()->item(0, 0)->text(), QStringLiteral("tiled TILE=8"));
    QCOMPARE(d.table()->horizontalHeaderItem(3)->text(), QStringLiteral("GFLOP/s"));
}

void TestSweepDialog::modeled_sweep_without_gpu() {
    SweepDialog d;
    d.setTimer({});  // as on a machine without a CUDA device
    d.resize(1200, 700);
    d.show();
    QVERIFY(cvz::test::wait_exposed(&d));
    QVERIFY(d.selectProfile(QStringLiteral("H200")));
    // Nothing to time (issue 14, item 9; issue 15, item 2): the button predicts instead and says so,
    // the time columns are not shown empty, and the note says plainly what is predicted and modeled.
    QVERIFY(d.startButton()->isEnabled());
    QCOMPARE(d.startButton()->text(), QStringLiteral("Predict"));
    QVERIFY(d.startButton()->toolTip().contains(QStringLiteral("measured times need a GPU")));
    QCOMPARE(d.progressBar()->value(), 0);
    QCOMPARE(d.progressBar()->format(), QStringLiteral("no GPU: predictions only"));
    QVERIFY(d.table()->isColumnHidden(2) && d.table()->isColumnHidden(3));  // Median ms, GB/s
    QVERIFY(!d.table()->isColumnHidden(1) && !d.table()->isColumnHidden(6));  // Predicted ms, Limited by
    QVERIFY2(d.noteText().contains(QStringLiteral("nothing is timed")) &&
                 d.noteText().contains(QStringLiteral("predicted on H200 SXM (sm_90)")),
             qPrintable(d.noteText()));
    // With a timer (a GPU) Start is back, and the time columns.
    d.setTimer(fake_timer());
    QVERIFY(d.startButton()->isEnabled() && !d.table()->isColumnHidden(2));
    QCOMPARE(d.startButton()->text(), QStringLiteral("Start"));
    d.setTimer({});
    QCOMPARE(d.heatmap()->colorMode(), SweepHeatmap::ColorMode::Occupancy);
    QCOMPARE(d.heatmap()->outlinedRow(), -1);

    const QImage img = d.heatmap()->grab().toImage();
    const SweepResult& r = d.result();
    // Occupancy colours: 32x8 (256 threads) reaches 100% on the H200; 1x1 blocks 50% (block slots).
    QCOMPARE_RGB(fill_at(img, d.heatmap(), 32, 8), SweepHeatmap::rampColor(0.0));
    QCOMPARE(r.rows[std::size_t(r.indexOf(grayscale_choice(LaunchShape::two_d(1, 1))))].occupancy.occupancy, 0.5);
    QCOMPARE_RGB(fill_at(img, d.heatmap(), 1, 1), SweepHeatmap::rampColor(0.5));
    QCOMPARE_RGB(fill_at(img, d.heatmap(), 64, 32), SweepHeatmap::invalidColor());
    QCOMPARE_RGB(fill_at(img, d.heatmap(), 1024, 1024), SweepHeatmap::invalidColor());
    hold_for_screenshot(&d);
}

// Without a GPU, Predict fills every shape's predicted GPU time: the model's figure for that launch
// on the chosen profile, its terms in the tooltip, the fastest named.
void TestSweepDialog::predict_without_gpu_fills_every_shape() {
    SweepDialog d;
    d.setTimer({});
    set_matrices(d, matrix(37, 29), matrix(29, 41));
    d.setFamily(KernelFamily::Matmul);
    QVERIFY(d.selectProfile(QStringLiteral("H200")));
    QSignalSpy finished(&d, &SweepDialog::sweepFinished);
    QTest::mouseClick(d.startButton(), Qt::LeftButton);
    QVERIFY(finished.wait(120000));
    QCOMPARE(d.progressBar()->value(), 100);
    const SweepResult& r = d.result();
    QVERIFY(!r.anyTimed());
    for (int t = 0; t < d.table()->rowCount(); ++t) {
        const int index = d.table()->item(t, 0)->data(Qt::UserRole).toInt();
        const SweepRow& row = r.rows[std::size_t(index)];
        const GpuPrediction want = predict_matmul(d.profile(), matmul_launch_of(row.choice), 37, 29, 41);
        QVERIFY2(want.ok(), qPrintable(want.error));
        const double ms = want.total_us / 1e3;
        QCOMPARE(d.table()->item(t, 1)->text(), QString::number(ms, 'f', ms < 0.1 ? 4 : 3));
        QVERIFY(d.table()->item(t, 1)->toolTip().contains(want.bound));
    }
    QVERIFY2(d.bestText().contains(QStringLiteral("Fastest predicted on H200")), qPrintable(d.bestText()));
    // The heatmap colours the naive kernel's 2-D blocks by predicted time, the fastest outlined and green.
    QCOMPARE(d.heatmap()->colorMode(), SweepHeatmap::ColorMode::Predicted);
    const int fastest = d.heatmap()->outlinedRow();
    QVERIFY(fastest >= 0);
    const SweepRow& f = r.rows[std::size_t(fastest)];
    for (const SweepRow& row : r.rows)
        if (row.in_heatmap()) QVERIFY(row.prediction.total_us >= f.prediction.total_us);
    const QImage img = d.heatmap()->grab().toImage();
    QCOMPARE_RGB(fill_at(img, d.heatmap(), f.block().x, f.block().y), SweepHeatmap::rampColor(0.0));
    QCOMPARE_RGB(outline_at(img, d.heatmap(), f.block().x, f.block().y), SweepHeatmap::bestOutlineColor());
}

// Issue 11, item 4: the sweep runs any variant of the catalogue, alone or with the others.
void TestSweepDialog::any_one_variant_can_be_swept() {
    SweepDialog d;
    d.setTimer(fake_timer());
    set_image(d, test_image(64, 48));
    set_matrices(d, matrix(40, 24), matrix(24, 36));
    for (KernelFamily family : {KernelFamily::Grayscale, KernelFamily::Matmul}) {
        d.setFamily(family);
        QCOMPARE(d.variantBox()->count(), 1 + int(family_catalogue(family).size()));
        for (const KernelInfo& info : family_catalogue(family)) {
            QVERIFY(d.selectVariant(QString::fromStdString(info.name)));
            QCOMPARE(d.table()->rowCount(), int(variant_configurations(info).size()));  // split-K: one per slices
            QSignalSpy finished(&d, &SweepDialog::sweepFinished);
            d.startSweep();
            QVERIFY(finished.wait(120000));
            for (const SweepRow& row : d.result().rows) {
                QCOMPARE(row.ref().variant, info.variant);
                QVERIFY2(row.state != SweepRowState::NotTimed, qPrintable(row.label()));
            }
        }
        QVERIFY(d.selectVariant(QString()));
        int all = 0;
        for (const KernelInfo& info : family_catalogue(family)) all += int(variant_configurations(info).size());
        QCOMPARE(d.table()->rowCount(), all);
    }
    QVERIFY(!d.selectVariant(QStringLiteral("no_such_kernel")));
}

void TestSweepDialog::timed_sweep_colours_and_outline() {
    SweepDialog d;
    d.setTimer(fake_timer());
    set_image(d, test_image(64, 48));
    d.show();
    QVERIFY(cvz::test::wait_exposed(&d));
    bool finished = false;
    connect(&d, &SweepDialog::sweepFinished, this, [&] { finished = true; });
    int max_progress = 0;
    connect(d.progressBar(), &QProgressBar::valueChanged, this, [&](int v) { max_progress = std::max(max_progress, v); });
    QTest::mouseClick(d.startButton(), Qt::LeftButton);
    QVERIFY(!d.startButton()->isEnabled());
    QVERIFY(d.cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(finished, 20000);
    QCOMPARE(d.progressBar()->value(), 100);
    QCOMPARE(max_progress, 100);
    QVERIFY(d.startButton()->isEnabled());
    QVERIFY(!d.cancelButton()->isEnabled());

    const SweepResult& r = d.result();
    QCOMPARE(r.rows[std::size_t(r.best)].label(), QStringLiteral("2-D 32x8"));
    QVERIFY(d.bestText().contains(QStringLiteral("2-D 32x8")));
    QCOMPARE(d.heatmap()->colorMode(), SweepHeatmap::ColorMode::Time);
    QCOMPARE(d.heatmap()->outlinedRow(), r.best);

    const QImage img = d.heatmap()->grab().toImage();
    SweepHeatmap* map = d.heatmap();
    // Fastest green, slowest (1x1024, 12 steps away) red, the refused 4x4 in the error colour,
    // more than 1024 threads grey; the fastest cell outlined, its neighbours not.
    QCOMPARE_RGB(fill_at(img, map, 32, 8), SweepHeatmap::rampColor(0.0));
    QCOMPARE_RGB(fill_at(img, map, 1, 1024), SweepHeatmap::rampColor(1.0));
    QCOMPARE_RGB(fill_at(img, map, 4, 4), SweepHeatmap::failedColor());
    QCOMPARE_RGB(fill_at(img, map, 1024, 2), SweepHeatmap::invalidColor());
    QCOMPARE_RGB(fill_at(img, map, 64, 64), SweepHeatmap::invalidColor());
    QCOMPARE_RGB(outline_at(img, map, 32, 8), SweepHeatmap::bestOutlineColor());
    QVERIFY(outline_at(img, map, 16, 8).name() != SweepHeatmap::bestOutlineColor().name());
    QVERIFY(outline_at(img, map, 32, 16).name() != SweepHeatmap::bestOutlineColor().name());
    // A middle time lies between on the log scale: 16x16 is 2 steps (30 us) from 10 us to 130 us.
    const double t = std::log(3.0) / std::log(13.0);
    QCOMPARE_RGB(fill_at(img, map, 16, 16), SweepHeatmap::rampColor(t));

    // The table: every row, the fastest marked, sortable by time.
    QCOMPARE(d.table()->rowCount(), int(d.result().rows.size()));
    QVERIFY(d.result().rows.size() >= 98);
    d.table()->sortItems(2);
    QCOMPARE(d.table()->item(0, 0)->text(), QStringLiteral("2-D 32x8"));
    QCOMPARE(d.table()->item(0, 7)->text(), QStringLiteral("fastest"));
    // Every row has its prediction beside its time, the model's terms in the tooltip.
    for (int t = 0; t < d.table()->rowCount(); ++t) {
        QVERIFY2(!d.table()->item(t, 1)->text().isEmpty(), qPrintable(d.table()->item(t, 0)->text()));
        QVERIFY(d.table()->item(t, 1)->toolTip().contains(QStringLiteral("bound by")));
    }
    hold_for_screenshot(&d);
}

void TestSweepDialog::cancel_stops_the_sweep() {
    SweepDialog d;
    d.setTimer(fake_timer(5));  // holds in the sixth shape until cancelled
    set_image(d, test_image(64, 48));
    d.show();
    QVERIFY(cvz::test::wait_exposed(&d));
    bool finished = false;
    connect(&d, &SweepDialog::sweepFinished, this, [&] { finished = true; });
    d.startSweep();
    QVERIFY(d.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(d.result().anyTimed(), 60000);  // timing under way (it holds in its sixth shape)
    // Rows come in while the sweep runs: the heatmap is already in time colours.
    QCOMPARE(d.heatmap()->colorMode(), SweepHeatmap::ColorMode::Time);
    QTest::mouseClick(d.cancelButton(), Qt::LeftButton);
    QVERIFY(!d.cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    QVERIFY(d.result().cancelled);
    QVERIFY(d.progressBar()->value() < 100);
    QVERIFY(d.progressBar()->text().contains(QStringLiteral("cancelled")));
    int timed = 0;
    for (const SweepRow& row : d.result().rows) timed += row.state == SweepRowState::Timed;
    int reached = 0;  // timed, or refused as the fake refuses 4x4
    for (const SweepRow& row : d.result().rows) reached += row.state != SweepRowState::NotTimed;
    QCOMPARE(reached, 6);  // the five before the hold, and the one running when the cancel came
    QVERIFY2(timed > 0 && timed <= 6, qPrintable(QString::number(timed)));
    QVERIFY(d.startButton()->isEnabled());
    QVERIFY(d.kernelBox()->isEnabled());
}

void TestSweepDialog::export_csv_writes_the_file() {
    SweepDialog d;
    d.setTimer(fake_timer());
    set_image(d, test_image(64, 48));
    bool finished = false;
    connect(&d, &SweepDialog::sweepFinished, this, [&] { finished = true; });
    d.startSweep();
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    QVERIFY(d.exportButton()->isEnabled());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sweep.csv"));
    QCOMPARE(d.exportCsv(path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QCOMPARE(QString::fromUtf8(bytes), sweep_csv(d.result()));
    QVERIFY(bytes.startsWith("kernel,shape,block_x,block_y,threads,status,median_ms,gb_per_s,"));
    QVERIFY(bytes.contains("grayscale,2-D 32x8,32,8,256,timed,0.01000,1.23,1.000,8,warps per SM,1,,"));
    QVERIFY(d.noteText().contains(path));

    const QString bad = dir.filePath(QStringLiteral("missing/folder/sweep.csv"));
    const QString error = d.exportCsv(bad);
    QVERIFY(error.contains(bad));
    QVERIFY(d.noteText().contains(bad));
}

void TestSweepDialog::clicks_choose_shapes() {
    SweepDialog d;
    d.setTimer({});
    d.resize(1200, 700);
    d.show();
    QVERIFY(cvz::test::wait_exposed(&d));
    QList<LaunchShape> shapes;
    QList<MatmulLaunch> launches;
    connect(&d, &SweepDialog::launchChosen, this, [&](const LaunchChoice& c) {
        if (c.ref.family == KernelFamily::Grayscale) shapes.append(grayscale_shape(c));
        else launches.append(matmul_launch_of(c));
    });

    QTest::mouseClick(d.heatmap(), Qt::LeftButton, {}, d.heatmap()->cellRect(16, 16).center());
    QCOMPARE(shapes.size(), 1);
    QCOMPARE(shapes[0].kind, GrayscaleVariant::Gray2d);
    QCOMPARE(shapes[0].block, (Dim3{16, 16, 1}));
    QTest::mouseClick(d.heatmap(), Qt::LeftButton, {}, d.heatmap()->cellRect(64, 32).center());  // grey: nothing
    QCOMPARE(shapes.size(), 1);

    // Double-clicking a 1-D row of the table.
    QTableWidget* t = d.table();
    const QRect cell = t->visualItemRect(t->item(0, 0));
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(shapes.size(), 2);
    QCOMPARE(shapes[1].kind, GrayscaleVariant::Gray1d);
    QCOMPARE(shapes[1].block.x, 32u);

    d.setFamily(KernelFamily::Matmul);
    QTest::mouseClick(d.heatmap(), Qt::LeftButton, {}, d.heatmap()->cellRect(8, 4).center());
    QCOMPARE(launches.size(), 1);
    QCOMPARE(launches[0].kernel, MatmulVariant::Naive);
    QCOMPARE(launches[0].block, (Dim3{8, 4, 1}));
    const QPoint tiled16 = t->visualItemRect(t->item(1, 0)).center();
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, tiled16);
    QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, tiled16);
    QCOMPARE(launches.size(), 2);
    QCOMPARE(launches[1].kernel, MatmulVariant::Tiled);
    QCOMPARE(launches[1].tile, 16u);
    QCOMPARE(shapes.size(), 2);  // matmul clicks choose matmul launches only
}

void TestSweepDialog::profile_change_remodels() {
    SweepDialog d;
    d.setTimer(fake_timer());
    set_image(d, test_image(64, 48));
    bool finished = false;
    connect(&d, &SweepDialog::sweepFinished, this, [&] { finished = true; });
    d.startSweep();
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    const double ms = d.result().rows[0].median_ms;
    QVERIFY(d.selectProfile(QStringLiteral("T4")));
    QCOMPARE(d.result().profile, QStringLiteral("T4 (sm_75)"));
    const SweepResult& r = d.result();
    const SweepRow& big = r.rows[std::size_t(r.indexOf(grayscale_choice(LaunchShape::two_d(32, 32))))];
    QCOMPARE(big.occupancy.blocks_per_sm, 1);  // T4: 1024 threads per SM
    QCOMPARE(r.rows[0].median_ms, ms);         // the times stay
    QVERIFY(!d.selectProfile(QStringLiteral("GTX 480")));
}

QTEST_MAIN(TestSweepDialog)
#include "tst_sweep_dialog.moc"
