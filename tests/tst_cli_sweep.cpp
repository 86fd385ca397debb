// `cudaviz-cli sweep` (issue 15, item 3): the JSON's schema, every shape of the sweep dialog present
// once with a finite prediction, the filters, and bad input refused with a message naming the value.
// Runs the real binary with --backend cpu, so measured_us is null on every machine.
#include <QtTest>

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <set>

#include "app/grayscale/grayscale_problem.h"
#include "app/tuning/block_sweep.h"
#include "app/models/device_profile.h"
#include "cli_runner.h"
#include "kernels/catalogue/kernel_catalogue.h"

using namespace cvz;
using cvz::test::CliRun;
using cvz::test::describe;
using cvz::test::run_cli;

namespace {

QString lecture_kernel(const char* name) { return QStringLiteral(CUDAVIZ_SOURCE_DIR "/resources/kernels/") + name; }

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The rows the sweep dialog has for a family: "kernel block" for each.
std::multiset<QString> dialog_rows(KernelFamily family) {
    std::multiset<QString> rows;
    for (const SweepRow& r : sweep_rows(family, *find_device_profile(QStringLiteral("H200")))) {
        const KernelInfo* info = kernel_info(r.ref());
        const QString block = family == KernelFamily::Grayscale
                                  ? QString::fromStdString(to_string(grayscale_shape(r.choice)))
                                  : QStringLiteral("%1x%2").arg(r.block().x).arg(r.block().y);
        rows.insert(QString::fromStdString(info->name) + " " + block);
    }
    return rows;
}

// Every row has the schema's fields with the right types and a finite, positive prediction.
void check_rows(const QJsonArray& rows) {
    for (const QJsonValue& v : rows) {
        const QJsonObject r = v.toObject();
        QVERIFY(r["kernel"].isString());
        QVERIFY(r["block"].isString());
        QVERIFY(r["occupancy"].isDouble());
        QVERIFY(r["occupancy"].toDouble() > 0 && r["occupancy"].toDouble() <= 1);
        QVERIFY2(r["predicted_us"].isDouble(), qPrintable(r["kernel"].toString() + " " + r["block"].toString()));
        QVERIFY(std::isfinite(r["predicted_us"].toDouble()) && r["predicted_us"].toDouble() > 0);
        QVERIFY(r.contains("measured_us") && r["measured_us"].isNull());  // --backend cpu
        QVERIFY(r["bound"].isString());
        QVERIFY(r["terms"].toObject().contains("launch"));
    }
}

}  // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void grayscale_sweep_has_every_shape_of_the_dialog();
    void matmul_sweep_has_every_shape_of_the_dialog();
    void kernel_and_block_narrow_the_rows();
    void device_changes_the_prediction();
    void your_kernel_is_swept();
    void your_kernel_errors_are_named();
    void bad_input_is_refused_naming_the_value_data();
    void bad_input_is_refused_naming_the_value();

private:
    QTemporaryDir dir_;
    QString image_;
};

void TestCliSweep::initTestCase() {
    QVERIFY(dir_.isValid());
    image_ = dir_.filePath("odd.png");
    QImage img(301, 203, QImage::Format_RGB888);
    img.fill(QColor(10, 200, 30));
    QVERIFY(img.save(image_));
}

void TestCliSweep::grayscale_sweep_has_every_shape_of_the_dialog() {
    const QString json = dir_.filePath("gray.json");
    const CliRun run = run_cli({"sweep", "grayscale", image_, "--backend", "cpu", "--json", json});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QJsonObject doc = read_json(json);
    QCOMPARE(doc["device"].toString(), find_device_profile(QStringLiteral("H200"))->name);
    QVERIFY(doc["gpu"].isNull());
    const QJsonArray rows = doc["rows"].toArray();
    check_rows(rows);
    std::multiset<QString> got;
    for (const QJsonValue& v : rows) got.insert(v["kernel"].toString() + " " + v["block"].toString());
    QCOMPARE(got, dialog_rows(KernelFamily::Grayscale));
}

void TestCliSweep::matmul_sweep_has_every_shape_of_the_dialog() {
    const QString json = dir_.filePath("matmul.json");
    const CliRun run = run_cli({"sweep", "matmul", "--size", "45x37x29", "--backend", "cpu", "--json", json});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QJsonArray rows = read_json(json)["rows"].toArray();
    check_rows(rows);
    std::multiset<QString> got;
    for (const QJsonValue& v : rows) {
        got.insert(v["kernel"].toString() + " " + v["block"].toString());
        if (v["kernel"].toString() == QLatin1String("matmul_tiled"))
            QCOMPARE(v["block"].toString(), QStringLiteral("%1x%1").arg(v["tile"].toInt()));
    }
    QCOMPARE(got, dialog_rows(KernelFamily::Matmul));
}

void TestCliSweep::kernel_and_block_narrow_the_rows() {
    const QString json = dir_.filePath("narrow.json");
    const CliRun run = run_cli({"sweep", "grayscale", image_, "--kernel", "2d", "--block", "16x16,32x8", "--layout",
                                "planar", "--backend", "cpu", "--json", json});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QJsonArray rows = read_json(json)["rows"].toArray();
    QCOMPARE(rows.size(), 2);
    for (const QJsonValue& v : rows) QCOMPARE(v["kernel"].toString(), QStringLiteral("gray_2d"));
}

void TestCliSweep::device_changes_the_prediction() {
    const QString h200 = dir_.filePath("h200.json"), t4 = dir_.filePath("t4.json");
    for (const auto& [device, path] : {std::pair{QStringLiteral("H200"), h200}, {QStringLiteral("T4"), t4}}) {
        const CliRun run = run_cli({"sweep", "matmul", "--size", "256x256x256", "--kernel", "tiled", "--device", device,
                                    "--backend", "cpu", "--json", path});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
    }
    const QJsonArray a = read_json(h200)["rows"].toArray(), b = read_json(t4)["rows"].toArray();
    QCOMPARE(a.size(), b.size());
    QVERIFY(read_json(t4)["device"].toString().startsWith(QLatin1String("T4")));
    for (qsizetype i = 0; i < a.size(); ++i)  // 40 SMs at 8 TFLOP/s against 132 at 67
        QVERIFY(b[i]["predicted_us"].toDouble() > 2 * a[i]["predicted_us"].toDouble());
}

// --kernel-file: the lecture's kernels, as a learner pastes them, swept over the blocks asked for, each
// predicted from the kernel's own trace; only your kernel's rows.
void TestCliSweep::your_kernel_is_swept() {
    struct Case {
        QStringList arguments;
        const char* file;
        QString name;
        QStringList blocks;
    };
    const QString json = dir_.filePath("yours.json");
    const QList<Case> cases{
        {{"grayscale", image_}, "grayscale_2d.cu", "yours: rgb_to_grayscale_2d", {"16x16", "32x8", "8x4", "1x1"}},
        {{"grayscale", image_}, "grayscale_1d.cu", "yours: rgb_to_grayscale_kernel", {"256", "96", "1024"}},
        {{"matmul", "--size", "45x37x29"}, "matmul.cu", "yours: matmul_k", {"16x16", "8x32"}},
        {{"matmul", "--size", "45x37x29"}, "matmul_tiled.cu", "yours: matmul_tiled_k", {"16x16"}},
    };
    for (const Case& c : cases) {
        const CliRun run = run_cli(QStringList{"sweep"} + c.arguments +
                                   QStringList{"--kernel-file", lecture_kernel(c.file), "--block", c.blocks.join(','),
                                               "--backend", "cpu", "--json", json});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        const QJsonObject doc = read_json(json);
        const QJsonArray rows = doc["rows"].toArray();
        check_rows(rows);
        QStringList got;
        for (const QJsonValue& v : rows) {
            QCOMPARE(v["kernel"].toString(), c.name);
            got << v["block"].toString();
        }
        got.sort();
        QStringList wanted = c.blocks;
        wanted.sort();
        QCOMPARE(got, wanted);
        QCOMPARE(doc["best"].toObject()["kernel"].toString(), c.name);
        QVERIFY2(run.out.contains(c.name), qPrintable(run.out));
    }
    // The user's copy of gray_2d makes the built-in's accesses: the same memory figures, so the same
    // DRAM term of the prediction, block by block.
    const QString builtin = dir_.filePath("builtin.json");
    const CliRun run = run_cli({"sweep", "grayscale", image_, "--kernel", "2d", "--layout", "planar", "--block", "16x16,32x8",
                                "--backend", "cpu", "--json", builtin});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const CliRun mine = run_cli({"sweep", "grayscale", image_, "--kernel-file", lecture_kernel("grayscale_2d.cu"), "--block",
                                 "16x16,32x8", "--backend", "cpu", "--json", json});
    QVERIFY2(mine.code == 0, qPrintable(describe(mine)));
    const QJsonArray a = read_json(builtin)["rows"].toArray(), b = read_json(json)["rows"].toArray();
    QCOMPARE(a.size(), 2);
    QCOMPARE(b.size(), 2);
    for (qsizetype i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i]["block"].toString(), b[i]["block"].toString());
        const double da = a[i]["terms"].toObject()["dram"].toDouble(), db = b[i]["terms"].toObject()["dram"].toDouble();
        QVERIFY2(std::abs(da - db) <= 1e-9 * std::max(1.0, da), qPrintable(QStringLiteral("%1 vs %2").arg(da).arg(db)));
    }
}

// A compile error is the compiler's message at its line (exit 1); a file of several kernels needs
// --kernel-name (exit 2); --kernel and --kernel-file exclude each other (exit 2).
void TestCliSweep::your_kernel_errors_are_named() {
    const QString json = dir_.filePath("errors.json");
    const QString bad = dir_.filePath("bad.cu");
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("__global__ void k(unsigned char* x, unsigned char* out, int n) {\n    out[0] = y;\n}\n");
    }
    CliRun run = run_cli({"sweep", "grayscale", image_, "--kernel-file", bad, "--backend", "cpu", "--json", json});
    QVERIFY2(run.code == 1, qPrintable(describe(run)));
    QVERIFY2(run.err.contains(bad + ":2:") && run.err.contains("error") && run.err.contains("compile error in"), qPrintable(describe(run)));

    const QString two = dir_.filePath("two.cu");
    {
        QFile f(two);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("__global__ void a(unsigned char* x, unsigned char* out, int n) { out[0] = x[0]; }\n"
                "__global__ void b(unsigned char* x, unsigned char* out, int n) { out[0] = x[1]; }\n");
    }
    run = run_cli({"sweep", "grayscale", image_, "--kernel-file", two, "--backend", "cpu", "--json", json});
    QVERIFY2(run.code == 2 && run.err.contains("--kernel-name"), qPrintable(describe(run)));
    run = run_cli({"sweep", "grayscale", image_, "--kernel-file", two, "--kernel-name", "b", "--block", "64", "--backend", "cpu",
                   "--json", json});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QCOMPARE(read_json(json)["rows"].toArray().at(0)["kernel"].toString(), QStringLiteral("yours: b"));
    // Its signature is matmul's, not grayscale's: the accepted ones are listed.
    run = run_cli({"sweep", "grayscale", image_, "--kernel-file", lecture_kernel("matmul.cu"), "--backend", "cpu", "--json", json});
    QVERIFY2(run.code == 1 && run.err.contains("matmul.cu") && run.err.contains("unsigned char*"), qPrintable(describe(run)));
    run = run_cli({"sweep", "grayscale", image_, "--kernel", "2d", "--kernel-file", two, "--json", json});
    QVERIFY2(run.code == 2 && run.err.contains("exclude"), qPrintable(describe(run)));
    run = run_cli({"sweep", "grayscale", image_, "--kernel-name", "b", "--json", json});
    QVERIFY2(run.code == 2 && run.err.contains("--kernel-name"), qPrintable(describe(run)));
    run = run_cli({"sweep", "grayscale", image_, "--kernel-file", dir_.filePath("missing.cu"), "--json", json});
    QVERIFY2(run.code == 1 && run.err.contains("missing.cu"), qPrintable(describe(run)));
}

void TestCliSweep::bad_input_is_refused_naming_the_value_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("named");
    const QString json = QStringLiteral("/tmp/cudaviz-tst-cli-sweep-unused.json");
    QTest::newRow("unknown family") << QStringList{"sweep", "conv", "--json", json} << 2 << "'conv'";
    QTest::newRow("no json") << QStringList{"sweep", "matmul", "--size", "8x8x8"} << 2 << "--json";
    QTest::newRow("bad size") << QStringList{"sweep", "matmul", "--size", "8x0x8", "--json", json} << 1 << "'8x0x8'";
    QTest::newRow("size words") << QStringList{"sweep", "matmul", "--size", "big", "--json", json} << 1 << "'big'";
    QTest::newRow("no size") << QStringList{"sweep", "matmul", "--json", json} << 2 << "--size";
    QTest::newRow("unknown device") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--device", "V100", "--json", json}
                                    << 2 << "'V100'";
    QTest::newRow("unknown kernel") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--kernel", "fast", "--json", json}
                                    << 2 << "'fast'";
    QTest::newRow("unknown backend") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--backend", "tpu", "--json", json}
                                     << 2 << "'tpu'";
    QTest::newRow("unknown layout") << QStringList{"sweep", "grayscale", "x.png", "--layout", "hwc", "--json", json} << 2
                                    << "'hwc'";
    QTest::newRow("missing image") << QStringList{"sweep", "grayscale", "/nonexistent/x.png", "--backend", "cpu", "--json", json}
                                   << 1 << "x.png";
    QTest::newRow("no such block") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--kernel", "tiled", "--block", "7x7",
                                                  "--backend", "cpu", "--json", json}
                                   << 1 << "'7x7'";
    QTest::newRow("zero rounds") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--rounds", "0", "--json", json} << 1
                                 << "--rounds '0'";
    QTest::newRow("rounds words") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--rounds", "many", "--json", json}
                                  << 1 << "--rounds 'many'";
    QTest::newRow("unwritable json") << QStringList{"sweep", "matmul", "--size", "8x8x8", "--kernel", "tiled", "--backend",
                                                    "cpu", "--json", "/nonexistent/dir/out.json"}
                                     << 1 << "out.json";
}

void TestCliSweep::bad_input_is_refused_naming_the_value() {
    QFETCH(QStringList, arguments);
    QFETCH(int, code);
    QFETCH(QString, named);
    const CliRun run = run_cli(arguments);
    QVERIFY2(run.code == code, qPrintable(describe(run)));
    QVERIFY2(run.err.contains(named), qPrintable(describe(run)));
    QVERIFY2(run.err.startsWith(QLatin1String("cudaviz-cli sweep: ")), qPrintable(describe(run)));
}

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
