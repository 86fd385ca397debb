// cudaviz-cli's --schedule FILE.json (app/cli/schedule_option.h) and its honest timings: on odd
// images and matrices the file holds every block of the grid exactly once with SMs in range and
// end >= start, for each backend (the CUDA rows QSKIP without a device); a path that is not .json is
// refused before anything runs; --backend cuda without a GPU says there is none.
#include <QtTest>

#include <QTemporaryDir>

#include "app/io/matrix_io.h"
#include "app/io/schedule_json.h"
#include "cli_runner.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/matmul/matmul_launch.h"
#include "support/cuda_probe.h"
#include "support/random_data.h"
#include "support/test_images.h"

using namespace cvz;
using cvz::test::run_cli;

class TestCliSchedule : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void grayscale_schedule_data();
    void grayscale_schedule();
    void matmul_schedule_data();
    void matmul_schedule();
    void schedule_path_must_be_json();
    void summary_names_warm_and_first_launch();
    void cuda_without_gpu_says_so();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    QTemporaryDir dir_;
    cvz::test::CudaProbe cuda_;
};

void TestCliSchedule::initTestCase() {
    QVERIFY(dir_.isValid());
    cuda_ = cvz::test::probe_cuda_device();
    QVERIFY(cvz::test::make_test_image(131, 77, 3).save(path("odd.png")));
    Matrix a, b;
    a.rows = 37, a.cols = 19, a.data = ::test::random_floats(37 * 19, 1);
    b.rows = 19, b.cols = 53, b.data = ::test::random_floats(19 * 53, 2);
    QCOMPARE(save_matrix(path("a.npy"), a), QString());
    QCOMPARE(save_matrix(path("b.npy"), b), QString());
}

void TestCliSchedule::grayscale_schedule_data() {
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QStringList>("launch");
    QTest::addColumn<int>("blocks");
    // 131x77: 1-D 256 -> cdiv(10087, 256) = 40 blocks; 2-D 16x8 -> 9 x 10 = 90.
    for (const QString backend : {"cpu", "cuda"}) {
        QTest::addRow("%s 1-D", qPrintable(backend)) << backend << QStringList{"--block", "256"} << 40;
        QTest::addRow("%s 2-D", qPrintable(backend)) << backend << QStringList{"--block", "16x8"} << 90;
    }
}

void TestCliSchedule::grayscale_schedule() {
    QFETCH(QString, backend);
    QFETCH(QStringList, launch);
    QFETCH(int, blocks);
    if (backend == "cuda" && !cuda_.has_device) QSKIP(qPrintable(cuda_.no_device));
    const QString json = path("gray_" + backend + ".json");
    const auto run = run_cli(QStringList{"grayscale", "--backend", backend, "--schedule", json} + launch +
                             QStringList{path("odd.png"), path("gray.png")});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains(QString("schedule: %1 blocks").arg(blocks)), qPrintable(run.out));
    const LoadedSchedule l = read_schedule_json(json);  // checks every block once, SMs in range, end >= start
    QVERIFY2(l.ok(), qPrintable(l.error));
    QCOMPARE(qsizetype(l.schedule.blocks.size()), qsizetype(blocks));
    QCOMPARE(QString::fromStdString(l.schedule.backend), backend);
    if (backend == "cpu") QVERIFY(l.schedule.device.find("CPU emulator") == 0);
}

void TestCliSchedule::matmul_schedule_data() {
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QStringList>("launch");
    QTest::addColumn<int>("blocks");
    // C is 37x53: naive 16x16 -> 4 x 3 = 12 blocks; tiled TILE=8 -> 7 x 5 = 35.
    for (const QString backend : {"cpu", "cuda"}) {
        QTest::addRow("%s naive", qPrintable(backend)) << backend << QStringList{"--kernel", "naive"} << 12;
        QTest::addRow("%s tiled", qPrintable(backend)) << backend << QStringList{"--kernel", "tiled", "--tile", "8"} << 35;
    }
}

void TestCliSchedule::matmul_schedule() {
    QFETCH(QString, backend);
    QFETCH(QStringList, launch);
    QFETCH(int, blocks);
    if (backend == "cuda" && !cuda_.has_device) QSKIP(qPrintable(cuda_.no_device));
    const QString json = path("matmul_" + backend + ".json");
    const auto run = run_cli(QStringList{"matmul", "--backend", backend, "--schedule", json} + launch +
                             QStringList{path("a.npy"), path("b.npy"), path("c.npy")});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const LoadedSchedule l = read_schedule_json(json);
    QVERIFY2(l.ok(), qPrintable(l.error));
    QCOMPARE(qsizetype(l.schedule.blocks.size()), qsizetype(blocks));
}

void TestCliSchedule::schedule_path_must_be_json() {
    const auto run = run_cli({"grayscale", "--backend", "cpu", "--schedule", path("s.txt"), path("odd.png"), path("x.png")});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("--schedule takes a file ending in .json"), qPrintable(run.err));
    QVERIFY(!QFile::exists(path("x.png")));
    const auto missing = run_cli({"matmul", "--backend", "cpu", "--schedule", path("no/dir/s.json"), path("a.npy"),
                                  path("b.npy"), path("c2.npy")});
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("cannot write '" + QDir::toNativeSeparators(path("no/dir/s.json"))), qPrintable(missing.err));
}

void TestCliSchedule::summary_names_warm_and_first_launch() {
    const auto run = run_cli({"grayscale", "--backend", "cpu", path("odd.png"), path("w.png")});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains(QRegularExpression(R"(kernel \d+\.\d{3} ms warm \(median of [1-5] after a warm-up\) · first launch \d+\.\d{3} ms)")),
             qPrintable(run.out));
    const auto mm = run_cli({"matmul", "--backend", "cpu", path("a.npy"), path("b.npy"), path("c3.npy")});
    QVERIFY2(mm.code == 0, qPrintable(describe(mm)));
    QVERIFY2(mm.out.contains(QRegularExpression(R"(kernel \d+\.\d{3} ms warm \(median of [1-5] after a warm-up\))")),
             qPrintable(mm.out));
}

void TestCliSchedule::cuda_without_gpu_says_so() {
    if (cuda_.has_device) QSKIP("this machine has a CUDA device");
    for (const QStringList& args : {QStringList{"grayscale", "--backend", "cuda", path("odd.png"), path("n.png")},
                                    QStringList{"matmul", "--backend", "cuda", path("a.npy"), path("b.npy"), path("n.npy")},
                                    QStringList{"grayscale", "--backend", "cuda", "--schedule", path("n.json"),
                                                path("odd.png"), path("n.png")}}) {
        const auto run = run_cli(args);
        QCOMPARE(run.code, 3);
        const bool no_toolkit = run.err.contains("built without the CUDA toolkit");
        QVERIFY2(no_toolkit || run.err.contains("there is no CUDA GPU on this machine"), qPrintable(run.err));
        QVERIFY2(!run.err.contains("insufficient"), qPrintable(run.err));
    }
}

QTEST_GUILESS_MAIN(TestCliSchedule)
#include "tst_cli_schedule.moc"
