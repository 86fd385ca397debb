// cudaviz-cli convolution run as a user runs it (QProcess): an image on disk, every variant, named
// and .npy masks, odd blocks, .npy and .png output checked byte for byte against this process's
// float32 reference of the same grayscale; --metrics and --schedule; `kernels --json` listing the
// family; and the documented exit status of each kind of failure, with no OUT left behind.
#include <QtTest>

#include "cli_runner.h"
#include "test_paths.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtEndian>

#include <cstring>
#include <vector>

#include "app/convolution/convolution_output.h"
#include "app/io/npy_reader.h"
#include "app/io/rgb_buffer.h"
#include "kernels/convolution/convolution_mask.h"
#include "kernels/convolution/convolution_reference.h"

using namespace cvz;

namespace {

using cvz::test::CliRun;
using cvz::test::describe;
using cvz::test::run_cli;

constexpr int kW = 37, kH = 23;  // odd, prime: partial blocks on both sides

QImage test_image() {
    QImage im(kW, kH, QImage::Format_RGB888);
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) im.setPixel(x, y, qRgb((x * 37 + y * 11) % 256, (x * x + 3 * y) % 256, (y * y * 7 + x) % 256));
    return im;
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray npy_bytes(const QByteArray& dict, const QByteArray& data) {
    QByteArray header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    const quint16 len = qToLittleEndian(quint16(header.size()));
    bytes.append(reinterpret_cast<const char*>(&len), 2);
    return bytes + header + data;
}

QByteArray f32(const std::vector<float>& v) {
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
}

// The float32 reference of the test image with `mask`.
std::vector<float> expected(const ConvolutionMask& mask) {
    const RgbBuffer rgb = to_rgb_buffer(test_image());
    const std::vector<std::uint8_t> g = convolution_input(rgb.bytes.data(), rgb.width, rgb.height, PixelLayout::Interleaved);
    std::vector<float> out(g.size());
    ConvolutionProblem p;
    p.gray = g.data();
    p.mask = mask.values.data();
    p.out = out.data();
    p.width = rgb.width;
    p.height = rgb.height;
    p.mask_side = mask.side;
    convolution_reference(p);
    return out;
}

std::vector<float> read_npy(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = "cannot open " + path;
        return {};
    }
    const Matrix m = parse_npy_matrix(f.readAll(), error);
    if (error->isEmpty() && (m.rows != std::uint32_t(kH) || m.cols != std::uint32_t(kW))) *error = "wrong shape";
    return m.data;
}

}  // namespace

class TestCliConvolution : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void every_variant_gives_the_reference_bytes_data();
    void every_variant_gives_the_reference_bytes();
    void png_output_is_clamped_and_truncated();
    void npy_mask_file();
    void bad_masks_exit_1_data();
    void bad_masks_exit_1();
    void usage_errors();
    void metrics_and_schedule();
    void kernels_lists_the_family();

private:
    QTemporaryDir dir_;
    QString in_;
};

void TestCliConvolution::initTestCase() {
    QVERIFY(dir_.isValid());
    in_ = dir_.filePath("in.png");
    QVERIFY(test_image().save(in_));
}

void TestCliConvolution::every_variant_gives_the_reference_bytes_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QString>("block");
    QTest::addColumn<QString>("mask");
    for (const char* k : {"conv_naive", "conv_constant", "conv_tiled", "conv_tiled_cached"})
        for (const char* b : {"16x16", "7x3"})
            for (const char* m : {"gauss5", "sobel_x"}) QTest::addRow("%s %s %s", k, b, m) << k << b << m;
    QTest::addRow("short kernel name") << "tiled" << "5x5" << "laplacian";
}

void TestCliConvolution::every_variant_gives_the_reference_bytes() {
    QFETCH(QString, kernel);
    QFETCH(QString, block);
    QFETCH(QString, mask);
    const QString out = dir_.filePath("out_" + kernel + block + mask + ".npy");
    const CliRun run = run_cli({"convolution", in_, out, "--backend", "cpu", "--kernel", kernel, "--block", block, "--mask", mask});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains("mask " + mask), qPrintable(run.out));
    ConvolutionMask m;
    QVERIFY(named_mask(mask.toStdString(), &m));
    const std::vector<float> want = expected(m);
    QString error;
    const std::vector<float> got = read_npy(out, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(got.size() == want.size() && std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);
}

void TestCliConvolution::png_output_is_clamped_and_truncated() {
    const QString out = dir_.filePath("sharp.png");
    const CliRun run = run_cli({"convolution", in_, out, "--backend", "cpu", "--mask", "sharpen"});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    ConvolutionMask m;
    QVERIFY(named_mask("sharpen", &m));
    const std::vector<float> want = expected(m);
    const QImage im(out);
    QCOMPARE(im.format(), QImage::Format_Grayscale8);
    QCOMPARE(im.size(), QSize(kW, kH));
    bool clamped_low = false, clamped_high = false;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const float v = want[std::size_t(y) * kW + x];
            const int expect = v <= 0 ? 0 : v >= 255 ? 255 : int(v);
            clamped_low |= v < 0;
            clamped_high |= v > 255;
            QCOMPARE(int(im.constScanLine(y)[x]), expect);
        }
    QVERIFY(clamped_low && clamped_high);  // the sharpen mask leaves 0..255 both ways on this picture
    QCOMPARE(convolution_to_bytes({-3.5f, 0.99f, 12.7f, 254.999f, 300.0f, std::nanf("")}),
             (std::vector<std::uint8_t>{0, 0, 12, 254, 255, 0}));
}

void TestCliConvolution::npy_mask_file() {
    ConvolutionMask m{7, std::vector<float>(49)};
    for (std::size_t i = 0; i < m.values.size(); ++i) m.values[i] = float(int(i % 5) - 2) / 3.0f;
    const QString mask_path = dir_.filePath("m7.npy");
    QVERIFY(write_file(mask_path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (7, 7), }", f32(m.values))));
    const QString out = dir_.filePath("m7_out.npy");
    const CliRun run = run_cli({"convolution", in_, out, "--backend", "cpu", "--kernel", "conv_tiled_cached", "--block", "9x5", "--mask", mask_path});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QString error;
    const std::vector<float> got = read_npy(out, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const std::vector<float> want = expected(m);
    QVERIFY(got.size() == want.size() && std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);
}

void TestCliConvolution::bad_masks_exit_1_data() {
    QTest::addColumn<QByteArray>("file");  // empty: the mask is given by name
    QTest::addColumn<QString>("mask");
    QTest::addColumn<QString>("message");
    const std::vector<float> f16(16, 1.0f), f17(17 * 17, 1.0f), f15(15, 1.0f), f9(9, 1.0f);
    const std::vector<qint32> i9(9, 1);
    QTest::newRow("even side") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", f32(f16))
                               << "even.npy" << "odd";
    QTest::newRow("side 17") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (17, 17), }", f32(f17))
                             << "big.npy" << "at most 15";
    QTest::newRow("non-square") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }", f32(f15))
                                << "rect.npy" << "square";
    QTest::newRow("1-D") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (9,), }", f32(f9)) << "flat.npy"
                         << "1-D";
    QTest::newRow("int32") << npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 3), }",
                                        QByteArray(reinterpret_cast<const char*>(i9.data()), 36))
                           << "int.npy" << "float32 or float64";
    QTest::newRow("truncated") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }", f32(f9).left(10))
                               << "cut.npy" << "truncated";
    QTest::newRow("unknown name") << QByteArray() << "emboss" << "unknown mask 'emboss'";
    QTest::newRow("missing file") << QByteArray() << "absent.npy" << "absent.npy";
}

void TestCliConvolution::bad_masks_exit_1() {
    QFETCH(QByteArray, file);
    QFETCH(QString, mask);
    QFETCH(QString, message);
    QString arg = mask;
    if (!file.isEmpty()) {
        arg = dir_.filePath(mask);
        QVERIFY(write_file(arg, file));
    } else if (mask.endsWith(".npy")) {
        arg = dir_.filePath(mask);
    }
    const QString out = dir_.filePath("never.npy");
    const CliRun run = run_cli({"convolution", in_, out, "--backend", "cpu", "--mask", arg});
    QVERIFY2(run.code == 1, qPrintable(describe(run)));
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    if (!file.isEmpty() || mask.endsWith(".npy")) QVERIFY2(run.err.contains(mask), qPrintable(run.err));  // names the file
    QVERIFY(!QFile::exists(out));
}

void TestCliConvolution::usage_errors() {
    const QString out = dir_.filePath("never.npy");
    CliRun run = run_cli({"convolution", in_, out, "--kernel", "conv_fft"});
    QCOMPARE(run.code, 2);
    QVERIFY2(run.err.contains("conv_naive, conv_constant, conv_tiled, conv_tiled_cached"), qPrintable(run.err));
    run = run_cli({"convolution", in_, out, "--backend", "gpu"});
    QCOMPARE(run.code, 2);
    run = run_cli({"convolution", in_});
    QCOMPARE(run.code, 2);
    run = run_cli({"convolution", in_, dir_.filePath("out.txt"), "--backend", "cpu"});
    QCOMPARE(run.code, 1);
    QVERIFY(run.err.contains(".npy or .png"));
    run = run_cli({"convolution", dir_.filePath("nothing.png"), out, "--backend", "cpu"});
    QCOMPARE(run.code, 1);
    run = run_cli({"convolution", in_, out, "--backend", "cpu", "--block", "40x40"});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("1024"), qPrintable(run.err));
    run = run_cli({"convolution", in_, out, "--backend", "cpu", "--block", "16"});
    QCOMPARE(run.code, 1);
    QVERIFY(!QFile::exists(out));
    run = run_cli({"convolution", "--help"});
    QCOMPARE(run.code, 0);
    QVERIFY(run.out.contains("--mask") && run.out.contains("gauss5") && run.out.contains("ghost"));
    run = run_cli({"--help"});
    QVERIFY(run.out.contains("convolution IN OUT"));
}

// --metrics for conv_constant on the test image, 32x4 blocks, box3: 37x23 gives 2x6 blocks; a block's
// warps are its rows. Every thread reads the 9 mask values, each a warp-wide broadcast: requests = 9
// per warp that has a thread in the image: 2 columns of blocks x 23 rows = 46 warps, 414 requests, no
// replay.
void TestCliConvolution::metrics_and_schedule() {
    const QString metrics = dir_.filePath("m.json"), schedule = dir_.filePath("s.json");
    const CliRun run = run_cli({"convolution", in_, dir_.filePath("ms.npy"), "--backend", "cpu", "--kernel", "conv_constant",
                                "--block", "32x4", "--mask", "box3", "--metrics", metrics, "--schedule", schedule});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains("schedule: 12 blocks"), qPrintable(run.out));
    QFile f(metrics);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(root.value("kernel").toString(), QString("conv_constant"));
    const QJsonObject c = root.value("constant_ld").toObject();
    QCOMPARE(c.value("requests").toInteger(), qint64(414));
    QCOMPARE(c.value("wavefronts").toInteger(), qint64(414));
    QCOMPARE(c.value("replays").toInteger(), qint64(0));
    QVERIFY(root.value("metrics").toObject().contains("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
    QVERIFY(QFile::exists(schedule));
    const CliRun bad = run_cli({"convolution", in_, dir_.filePath("ms2.npy"), "--backend", "cpu", "--schedule", dir_.filePath("s.txt")});
    QCOMPARE(bad.code, 1);
}

void TestCliConvolution::kernels_lists_the_family() {
    const CliRun run = run_cli({"kernels", "--json"});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QStringList names;
    for (const QJsonValue& v : QJsonDocument::fromJson(run.out.toUtf8()).object().value("kernels").toArray())
        if (v.toObject().value("family").toString() == "convolution") names << v.toObject().value("name").toString();
    QCOMPARE(names, (QStringList{"conv_naive", "conv_constant", "conv_tiled", "conv_tiled_cached"}));
}

QTEST_GUILESS_MAIN(TestCliConvolution)
#include "tst_cli_convolution.moc"
