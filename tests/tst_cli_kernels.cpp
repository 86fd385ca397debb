// cudaviz-cli and the kernel catalogue: `kernels [--json]` lists every variant of every family, and
// `grayscale --kernel NAME` / `matmul --kernel NAME` run every one of them (the real binary, on the CPU
// emulator so that the bytes are checked on any machine), with the spellings of before the catalogue
// still accepted and an unknown name refused with the valid ones listed.
#include <QtTest>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "app/io/matrix.h"
#include "app/io/matrix_io.h"
#include "cli_runner.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"

using namespace cvz;
using cvz::test::CliRun;
using cvz::test::describe;
using cvz::test::run_cli;

namespace {

// The last `count` bytes of a file: the data of a .npy the CLI wrote (its header is padded before them).
QByteArray npy_data(const QString& path, qsizetype count) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = f.readAll();
    return bytes.size() > count ? bytes.right(count) : QByteArray();
}

QStringList names_of(KernelFamily family) {
    QStringList names;
    for (const KernelInfo& k : family_catalogue(family)) names << QString::fromStdString(k.name);
    return names;
}

// The short spelling the CLI also accepts: the name after the family prefix ("2d", "tiled").
QString short_name(const KernelInfo& k) {
    const QString name = QString::fromStdString(k.name);
    return name.mid(name.indexOf(QLatin1Char('_')) + 1);
}

// A block the variant's launch rule takes, in --block syntax (empty: the variant's own fixed block).
QString block_option(const KernelInfo& k, bool alternate) {
    switch (k.block) {
        case BlockRule::OneD: return alternate ? QStringLiteral("96") : QStringLiteral("256");
        case BlockRule::TwoD: return alternate ? QStringLiteral("7x3") : QStringLiteral("16x8");
        case BlockRule::Tile:
        case BlockRule::Fixed: break;
    }
    return {};
}

}  // namespace

class TestCliKernels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void json_lists_the_catalogue();
    void text_lists_the_catalogue();
    void kernels_usage_errors();
    void grayscale_every_variant_data();
    void grayscale_every_variant();
    void grayscale_old_spellings_data();
    void grayscale_old_spellings();
    void matmul_every_variant_data();
    void matmul_every_variant();
    void unknown_kernel_lists_the_names_data();
    void unknown_kernel_lists_the_names();
    void block_that_does_not_fit_the_variant();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    QTemporaryDir dir_;
    std::vector<std::uint8_t> rgb_;      // interleaved, as the PNG holds it
    std::vector<std::uint8_t> expected_;  // the CPU reference
    std::vector<float> a_, b_, c_naive_;  // A 37x23 @ B 23x19, and matmul_naive's bytes from the CLI
    static constexpr int kW = 37, kH = 23;
    static constexpr std::uint32_t kM = 37, kK = 23, kN = 19;
};

void TestCliKernels::initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(QFile::exists(cvz::test::cli_path()), qPrintable(cvz::test::cli_path()));
    // An odd, non-square image of random pixels.
    QImage image(kW, kH, QImage::Format_RGB888);
    std::mt19937 rng(9);
    rgb_.resize(std::size_t(3) * kW * kH);
    for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < 3 * kW; ++x) rgb_[std::size_t(y) * 3 * kW + std::size_t(x)] = std::uint8_t(rng());
        std::memcpy(image.scanLine(y), rgb_.data() + std::size_t(y) * 3 * kW, std::size_t(3) * kW);
    }
    QVERIFY(image.save(path("odd.png")));
    expected_.resize(std::size_t(kW) * kH);
    grayscale_reference(GrayscaleImage{rgb_.data(), expected_.data(), kW, kH, PixelLayout::Interleaved});

    std::uniform_real_distribution<float> d(-1, 1);
    Matrix a, b;
    a.rows = kM;
    a.cols = kK;
    b.rows = kK;
    b.cols = kN;
    for (std::size_t i = 0; i < std::size_t(kM) * kK; ++i) a.data.push_back(d(rng));
    for (std::size_t i = 0; i < std::size_t(kK) * kN; ++i) b.data.push_back(d(rng));
    a_ = a.data;
    b_ = b.data;
    QCOMPARE(save_matrix(path("a.npy"), a), QString());
    QCOMPARE(save_matrix(path("b.npy"), b), QString());
    // The family's reference variant through the CLI, once; it must be close to the float64 reference.
    const CliRun run = run_cli({"matmul", path("a.npy"), path("b.npy"), path("c_naive.npy"), "--kernel", "matmul_naive",
                                "--backend", "cpu"});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QByteArray c = npy_data(path("c_naive.npy"), qsizetype(kM * kN * sizeof(float)));
    QCOMPARE(c.size(), qsizetype(kM * kN * sizeof(float)));
    c_naive_.resize(std::size_t(kM) * kN);
    std::memcpy(c_naive_.data(), c.constData(), std::size_t(c.size()));
    std::vector<float> ref(std::size_t(kM) * kN);
    matmul_reference(MatmulProblem{a_.data(), b_.data(), ref.data(), kM, kK, kN});
    QVERIFY(matmul_max_relative_error(c_naive_.data(), ref.data(), ref.size()) < 1e-5);
}

void TestCliKernels::json_lists_the_catalogue() {
    const CliRun run = run_cli({"kernels", "--json"});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + "\n" + run.out));
    QVERIFY(doc.isObject());
    QCOMPARE(doc.object().keys(), QStringList{"kernels"});
    const QJsonArray kernels = doc.object().value("kernels").toArray();
    const std::vector<KernelInfo>& catalogue = kernel_catalogue();
    QCOMPARE(kernels.size(), qsizetype(catalogue.size()));
    const std::set<QString> rules{"1d", "2d", "tile", "fixed"};
    std::set<QString> names;
    for (qsizetype i = 0; i < kernels.size(); ++i) {
        const QJsonObject o = kernels.at(i).toObject();
        const KernelInfo& k = catalogue[std::size_t(i)];
        const bool gray = k.family == KernelFamily::Grayscale;
        // Exactly the keys of the format: layouts for grayscale, tiles where the variant takes a TILE.
        QStringList want{"family", "name", "title", "block", "exact"};
        if (gray) want << "layouts";
        if (!k.tiles.empty()) want << "tiles";
        if (k.grid_threads) want << "grid_threads";
        if (k.arch_specific) want << "compute_capability";
        QStringList keys = o.keys();
        keys.sort();
        want.sort();
        QCOMPARE(keys, want);
        QCOMPARE(o.value("family").toString(), QString::fromLatin1(to_string(k.family)));
        QCOMPARE(o.value("name").toString(), QString::fromStdString(k.name));
        QCOMPARE(o.value("title").toString(), QString::fromStdString(k.title));
        QVERIFY(!o.value("title").toString().isEmpty());
        QVERIFY2(rules.count(o.value("block").toString()), qPrintable(o.value("block").toString()));
        QCOMPARE(o.value("block").toString(), QString::fromLatin1(to_string(k.block)));
        QVERIFY(o.value("exact").isBool());
        QCOMPARE(o.value("exact").toBool(), k.exact);
        if (k.grid_threads) QCOMPARE(qint64(o.value("grid_threads").toDouble()), qint64(k.grid_threads));
        if (gray) {
            QStringList layouts;
            for (const QJsonValue& v : o.value("layouts").toArray()) layouts << v.toString();
            QVERIFY(!layouts.isEmpty());
            for (const QString& l : layouts) QVERIFY2(l == "interleaved" || l == "planar", qPrintable(l));
        }
        if (!k.tiles.empty()) {
            const QJsonArray tiles = o.value("tiles").toArray();
            QCOMPARE(tiles.size(), qsizetype(k.tiles.size()));
            for (qsizetype t = 0; t < tiles.size(); ++t) QCOMPARE(tiles.at(t).toInt(), int(k.tiles[std::size_t(t)]));
            // a TILE variant's tiles, or a fixed block's list (split-K's slices)
            QVERIFY2(o.value("block").toString() == QStringLiteral("tile") || o.value("block").toString() == QStringLiteral("fixed"),
                     qPrintable(o.value("block").toString()));
        }
        names.insert(o.value("name").toString());
    }
    QCOMPARE(names.size(), catalogue.size());  // names are unique
    // The lecture's kernels are all there.
    for (const char* n : {"gray_1d", "gray_2d", "matmul_naive", "matmul_tiled"}) QVERIFY2(names.count(n), n);
}

void TestCliKernels::text_lists_the_catalogue() {
    const CliRun run = run_cli({"kernels"});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    for (const KernelInfo& k : kernel_catalogue()) {
        QVERIFY2(run.out.contains(QString::fromStdString(k.name)), qPrintable(run.out));
        QVERIFY2(run.out.contains(QString::fromStdString(k.title)), qPrintable(run.out));
    }
    QVERIFY(run.out.contains("grayscale:"));
    QVERIFY(run.out.contains("matmul:"));
    QVERIFY(run.out.contains("TILE 8, 16, 32"));
    const CliRun help = run_cli({"--help"});
    QVERIFY2(help.code == 0 && help.out.contains("kernels [--json]"), qPrintable(describe(help)));
}

void TestCliKernels::kernels_usage_errors() {
    const CliRun extra = run_cli({"kernels", "gray_1d"});
    QCOMPARE(extra.code, 2);
    QVERIFY2(extra.err.contains("'gray_1d'"), qPrintable(describe(extra)));
    const CliRun unknown = run_cli({"kernels", "--frob"});
    QCOMPARE(unknown.code, 2);
    const CliRun help = run_cli({"kernels", "--help"});
    QVERIFY2(help.code == 0 && help.out.contains("--json"), qPrintable(describe(help)));
}

void TestCliKernels::grayscale_every_variant_data() {
    QTest::addColumn<QStringList>("options");
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const std::string& layout : k.layouts)
            for (bool alternate : {false, true}) {
                QStringList options{"--kernel", QString::fromStdString(k.name), "--layout", QString::fromStdString(layout),
                                    "--backend", "cpu"};
                const QString block = block_option(k, alternate);
                if (!block.isEmpty()) options << "--block" << block;
                if (alternate && block.isEmpty()) continue;
                QTest::newRow(qPrintable(options.join(' '))) << options;
            }
    // The default block of each rule, and the short name.
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        QTest::newRow((k.name + " default block").c_str())
            << QStringList{"--kernel", short_name(k).toUpper(), "--backend", "cpu"};
}

void TestCliKernels::grayscale_every_variant() {
    QFETCH(QStringList, options);
    const QString out = path("gray.npy");
    QFile::remove(out);
    const CliRun run = run_cli(QStringList{"grayscale", path("odd.png"), out} + options);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QByteArray got = npy_data(out, kW * kH);
    QCOMPARE(got, QByteArray(reinterpret_cast<const char*>(expected_.data()), qsizetype(expected_.size())));
}

void TestCliKernels::grayscale_old_spellings_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("summary");
    QTest::newRow("--block N is gray_1d") << QStringList{"--block", "128"} << "1-D block 128";
    QTest::newRow("--block XxY is gray_2d") << QStringList{"--block", "8x4"} << "2-D block 8x4";
    QTest::newRow("no --block is gray_1d 256") << QStringList{} << "1-D block 256";
    QTest::newRow("--kernel gray_2d default block") << QStringList{"--kernel", "gray_2d"} << "2-D block 16x16";
}

void TestCliKernels::grayscale_old_spellings() {
    QFETCH(QStringList, options);
    QFETCH(QString, summary);
    const QString out = path("old.npy");
    const CliRun run = run_cli(QStringList{"grayscale", path("odd.png"), out, "--backend", "cpu"} + options);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains(summary), qPrintable(describe(run)));
    QCOMPARE(npy_data(out, kW * kH), QByteArray(reinterpret_cast<const char*>(expected_.data()), qsizetype(expected_.size())));
}

void TestCliKernels::matmul_every_variant_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("exact");
    QTest::addColumn<double>("tolerance");  // against matmul_naive's result (TF32 rungs: their own)
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul)) {
        const QStringList base{"--kernel", QString::fromStdString(k.name), "--backend", "cpu"};
        const double tol = matmul_test_tolerance(MatmulVariant(k.variant), kK);
        if (!k.tiles.empty()) {
            for (unsigned t : k.tiles)
                QTest::newRow((k.name + " TILE " + std::to_string(t)).c_str())
                    << base + QStringList{"--tile", QString::number(t)} << k.exact << tol;
        } else if (k.block == BlockRule::TwoD) {
            for (const char* block : {"16x16", "7x3", "32x1"})
                QTest::newRow((k.name + " " + block).c_str()) << base + QStringList{"--block", block} << k.exact << tol;
        } else {
            QTest::newRow(k.name.c_str()) << base << k.exact << tol;
        }
        QTest::newRow((k.name + " by its short name").c_str())
            << QStringList{"--kernel", short_name(k), "--backend", "cpu"} << k.exact << tol;
    }
}

// Every exact variant gives matmul_naive's bytes; any variant stays close to the float64 reference.
void TestCliKernels::matmul_every_variant() {
    QFETCH(QStringList, options);
    QFETCH(bool, exact);
    QFETCH(double, tolerance);
    const QString out = path("c.npy");
    QFile::remove(out);
    const CliRun run = run_cli(QStringList{"matmul", path("a.npy"), path("b.npy"), out} + options);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QByteArray got = npy_data(out, qsizetype(kM * kN * sizeof(float)));
    QCOMPARE(got.size(), qsizetype(kM * kN * sizeof(float)));
    std::vector<float> c(std::size_t(kM) * kN);
    std::memcpy(c.data(), got.constData(), std::size_t(got.size()));
    if (exact) QVERIFY(c == c_naive_);
    QVERIFY(matmul_max_relative_error(c.data(), c_naive_.data(), c.size()) < tolerance);
}

void TestCliKernels::unknown_kernel_lists_the_names_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("family");
    QTest::newRow("grayscale") << QStringList{"grayscale", path("odd.png"), path("x.png"), "--kernel", "gray_3d"}
                               << int(KernelFamily::Grayscale);
    QTest::newRow("grayscale: a matmul name") << QStringList{"grayscale", path("odd.png"), path("x.png"), "--kernel", "matmul_naive"}
                                              << int(KernelFamily::Grayscale);
    QTest::newRow("matmul") << QStringList{"matmul", path("a.npy"), path("b.npy"), path("x.npy"), "--kernel", "fast"}
                            << int(KernelFamily::Matmul);
    QTest::newRow("matmul: a grayscale name") << QStringList{"matmul", path("a.npy"), path("b.npy"), path("x.npy"), "--kernel", "gray_1d"}
                                              << int(KernelFamily::Matmul);
}

void TestCliKernels::unknown_kernel_lists_the_names() {
    QFETCH(QStringList, arguments);
    QFETCH(int, family);
    const CliRun run = run_cli(arguments);
    QCOMPARE(run.code, 2);
    QVERIFY2(run.err.contains("--kernel '" + arguments.last() + "'"), qPrintable(describe(run)));
    for (const QString& name : names_of(KernelFamily(family))) QVERIFY2(run.err.contains(name), qPrintable(describe(run)));
    QVERIFY(!QFile::exists(arguments.at(3)));
}

void TestCliKernels::block_that_does_not_fit_the_variant() {
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        QString wrong;
        if (k.block == BlockRule::OneD) wrong = "16x16";
        if (k.block == BlockRule::TwoD) wrong = "256";
        if (wrong.isEmpty()) continue;
        const CliRun run = run_cli({"grayscale", path("odd.png"), path("y.png"), "--kernel", QString::fromStdString(k.name),
                                    "--block", wrong});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QString::fromStdString(k.name)) && run.err.contains("--block '" + wrong + "'"),
                 qPrintable(describe(run)));
    }
}

QTEST_GUILESS_MAIN(TestCliKernels)
#include "tst_cli_kernels.moc"
