// cudaviz-cli run as a user runs it (QProcess): --help, grayscale to .png and .npy checked byte for
// byte against the CPU reference, every layout and block shape giving the same bytes, `info`, and the
// documented exit status of each kind of failure.
#include <QtTest>

#include "cli_runner.h"
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QProcess>
#include <QTemporaryDir>

#include <cstring>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "kernels/grayscale/grayscale_reference.h"

using namespace cvz;

namespace {

const QString kSample = cvz::test::source_dir() + QStringLiteral("/resources/samples/chelsea.png");

using cvz::test::CliRun;
using cvz::test::describe;
using cvz::test::run_cli;

// The expected grey bytes, computed here from the file through Qt directly (not the app's loader)
// and the CPU reference.
std::vector<std::uint8_t> reference_gray(const QString& path, int* width, int* height) {
    const QImage rgb = QImage(path).convertToFormat(QImage::Format_RGB888);
    *width = rgb.width();
    *height = rgb.height();
    std::vector<std::uint8_t> packed(std::size_t(3) * rgb.width() * rgb.height());
    for (int y = 0; y < rgb.height(); ++y)
        std::memcpy(packed.data() + std::size_t(y) * 3 * rgb.width(), rgb.constScanLine(y), std::size_t(3) * rgb.width());
    std::vector<std::uint8_t> gray(std::size_t(rgb.width()) * rgb.height());
    grayscale_reference(GrayscaleImage{packed.data(), gray.data(), std::uint32_t(rgb.width()),
                                       std::uint32_t(rgb.height()), PixelLayout::Interleaved});
    return gray;
}

struct Npy {
    QByteArray header;  // the dict text
    QByteArray data;
    QString error;
};

// Just enough of the .npy format to check what cudaviz-cli wrote: version 1.0 and its header.
Npy read_npy(const QString& path) {
    Npy npy;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        npy.error = "cannot open " + path;
        return npy;
    }
    const QByteArray bytes = f.readAll();
    if (!bytes.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)) || bytes.size() < 10) {
        npy.error = "no .npy 1.0 magic";
        return npy;
    }
    const int header_len = quint8(bytes[8]) | (quint8(bytes[9]) << 8);
    if ((10 + header_len) % 64 != 0 || bytes.size() < 10 + header_len || bytes[10 + header_len - 1] != '\n') {
        npy.error = "bad header length " + QString::number(header_len);
        return npy;
    }
    npy.header = bytes.mid(10, header_len);
    npy.data = bytes.mid(10 + header_len);
    return npy;
}

QByteArray as_bytes(const std::vector<std::uint8_t>& v) {
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size()));
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void help_exits_zero_data();
    void help_exits_zero();
    void grayscale_to_png_matches_reference();
    void grayscale_to_npy_matches_reference();
    void layouts_and_blocks_agree_data();
    void layouts_and_blocks_agree();
    void info_lists_backends();
    void exit_status_data();
    void exit_status();
    void readme_exit_rule_holds();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    QTemporaryDir dir_;
    std::vector<std::uint8_t> expected_;
    int width_ = 0;
    int height_ = 0;
};

void TestCli::initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(QFile::exists(cvz::test::cli_path()), qPrintable(cvz::test::cli_path()));
    expected_ = reference_gray(kSample, &width_, &height_);
    QCOMPARE(QSize(width_, height_), QSize(451, 300));
    QFile text(path("notes.png"));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("not an image, whatever the name says\n");
    text.close();
    QFile empty(path("empty.png"));
    QVERIFY(empty.open(QIODevice::WriteOnly));
}

void TestCli::help_exits_zero_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("--help") << QStringList{"--help"}
                            << QStringList{"grayscale", "info", "Exit status", "3  device or runtime failure"};
    QTest::newRow("-h") << QStringList{"-h"} << QStringList{"grayscale", "info"};
    QTest::newRow("grayscale --help") << QStringList{"grayscale", "--help"}
                                      << QStringList{"Usage: cudaviz-cli", "grayscale IN OUT", "--backend <auto|cpu|cuda>",
                                                     "--layout <interleaved|planar>", "--block <N|XxY>", ".npy",
                                                     "Exit status", "OUT cannot be written"};
    QTest::newRow("info --help") << QStringList{"info", "--help"} << QStringList{"info", "Exit status"};
    QTest::newRow("--version") << QStringList{"--version"} << QStringList{"cudaviz-cli"};
}

void TestCli::help_exits_zero() {
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, mentions);
    const CliRun run = run_cli(arguments);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
    for (const QString& m : mentions) QVERIFY2(run.out.contains(m), qPrintable(m + " missing from\n" + run.out));
}

void TestCli::grayscale_to_png_matches_reference() {
    const QString out = path("chelsea_gray.png");
    const CliRun run = run_cli({"grayscale", kSample, out});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QCOMPARE(run.out.count('\n'), 1);  // the one-line summary
    QVERIFY2(run.out.contains("block 256"), qPrintable(run.out));
    QVERIFY2(run.out.contains(cuda_device_available() ? "CUDA" : "CPU emulator"), qPrintable(run.out));

    QImageReader reader(out);
    QCOMPARE(reader.format(), QByteArray("png"));
    QCOMPARE(reader.imageFormat(), QImage::Format_Grayscale8);  // an 8-bit grey PNG, not RGB
    const QImage gray = reader.read();
    QCOMPARE(gray.format(), QImage::Format_Grayscale8);
    QCOMPARE(gray.size(), QSize(width_, height_));
    QByteArray got;
    for (int y = 0; y < gray.height(); ++y)
        got.append(reinterpret_cast<const char*>(gray.constScanLine(y)), gray.width());
    QVERIFY(got == as_bytes(expected_));
}

void TestCli::grayscale_to_npy_matches_reference() {
    const QString out = path("chelsea_gray.npy");
    const CliRun run = run_cli({"grayscale", kSample, out});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const Npy npy = read_npy(out);
    QVERIFY2(npy.error.isEmpty(), qPrintable(npy.error));
    QVERIFY2(npy.header.contains("'descr': '|u1'"), npy.header.constData());
    QVERIFY2(npy.header.contains("'fortran_order': False"), npy.header.constData());
    QVERIFY2(npy.header.contains("'shape': (300, 451)"), npy.header.constData());  // (H, W)
    QCOMPARE(npy.data.size(), qsizetype(expected_.size()));
    QVERIFY(npy.data == as_bytes(expected_));
}

void TestCli::layouts_and_blocks_agree_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("needs_cuda");
    for (const QString backend : {"cpu", "cuda"}) {
        for (const QString layout : {"interleaved", "planar"})
            for (const QString block : {"256", "1", "33", "1024", "16x16", "32x8", "7x3", "1x1024", "1024x1"})
                QTest::newRow(qPrintable(backend + " " + layout + " " + block))
                    << QStringList{"--backend", backend, "--layout", layout, "--block", block} << (backend == "cuda");
    }
    QTest::newRow("defaults") << QStringList{} << false;
    QTest::newRow("upper-case values") << QStringList{"--backend", "CPU", "--layout", "PLANAR", "--block", "16X16"}
                                       << false;
}

// Invariant 2: every backend, layout and block shape gives the reference's bytes.
void TestCli::layouts_and_blocks_agree() {
    QFETCH(QStringList, options);
    QFETCH(bool, needs_cuda);
    if (needs_cuda && !cuda_device_available()) QSKIP("no CUDA device");
    const QString out = path("agree.npy");
    QFile::remove(out);
    const CliRun run = run_cli(QStringList{"grayscale", kSample, out} + options);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const Npy npy = read_npy(out);
    QVERIFY2(npy.error.isEmpty(), qPrintable(npy.error));
    QVERIFY2(npy.header.contains("'shape': (300, 451)"), npy.header.constData());
    QVERIFY2(npy.data == as_bytes(expected_), qPrintable(run.out));
}

void TestCli::info_lists_backends() {
    const CliRun run = run_cli({"info"});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains("CPU emulator: available"), qPrintable(run.out));
    QVERIFY2(run.out.contains(QRegularExpression("\\b[1-9][0-9]* host threads?\\b")), qPrintable(run.out));
    QVERIFY2(run.out.contains("CUDA: "), qPrintable(run.out));
    if (cuda_device_available()) {
        QVERIFY2(run.out.contains("compute capability"), qPrintable(run.out));
        QVERIFY2(run.out.contains(QRegularExpression("\\d+ SMs")), qPrintable(run.out));
        QVERIFY2(run.out.contains("GiB"), qPrintable(run.out));
    } else {
        QVERIFY2(run.out.contains(QRegularExpression("CUDA: (not available|no device)")), qPrintable(run.out));
    }
}

void TestCli::exit_status_data() {
    // %IN is the sample, %DIR the test's temporary folder. `mentions`: what stderr must name.
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("code");
    QTest::addColumn<QStringList>("mentions");
    const QString out = "%DIR/out.png";
    auto row = [](const char* name, QStringList args, int code, QStringList mentions) {
        QTest::newRow(name) << args << code << mentions;
    };
    // 1: input rejected
    row("input is not an image", {"grayscale", "%DIR/notes.png", out}, 1, {"%DIR/notes.png", "not an image"});
    row("input is empty", {"grayscale", "%DIR/empty.png", out}, 1, {"%DIR/empty.png", "empty"});
    row("input missing", {"grayscale", "%DIR/missing.png", out}, 1, {"%DIR/missing.png", "no such file"});
    row("input is a directory", {"grayscale", "%DIR", out}, 1, {"directory"});
    row("output .jpg", {"grayscale", "%IN", "%DIR/out.jpg"}, 1, {"%DIR/out.jpg", ".png or .npy"});
    row("output without extension", {"grayscale", "%IN", "%DIR/out"}, 1, {"%DIR/out", ".png or .npy"});
    row("output directory missing", {"grayscale", "%IN", "%DIR/no/such/dir/out.png"}, 1, {"%DIR/no/such/dir/out.png"});
    row("output .npy directory missing", {"grayscale", "%IN", "%DIR/no/such/dir/out.npy"}, 1,
        {"%DIR/no/such/dir/out.npy"});
    row("--block 0", {"grayscale", "%IN", out, "--block", "0"}, 1, {"--block", "'0'"});
    row("--block 2000", {"grayscale", "%IN", out, "--block", "2000"}, 1, {"--block", "2000"});
    row("--block 64x32", {"grayscale", "%IN", out, "--block", "64x32"}, 1, {"--block", "64x32", "1024"});
    row("--block abc", {"grayscale", "%IN", out, "--block", "abc"}, 1, {"--block", "abc"});
    row("--block 16x16x2", {"grayscale", "%IN", out, "--block", "16x16x2"}, 1, {"--block", "16x16x2"});
    // 2: bad usage
    row("no command", {}, 2, {"no command"});
    row("unknown command", {"frobnicate"}, 2, {"frobnicate"});
    row("unknown top-level option", {"--frob"}, 2, {"frob"});
    row("grayscale without arguments", {"grayscale"}, 2, {"IN and OUT"});
    row("grayscale without OUT", {"grayscale", "%IN"}, 2, {"IN and OUT"});
    row("grayscale with a third file", {"grayscale", "%IN", out, "extra.png"}, 2, {"extra.png"});
    row("--backend foo", {"grayscale", "%IN", out, "--backend", "foo"}, 2, {"--backend", "foo"});
    row("--layout x", {"grayscale", "%IN", out, "--layout", "x"}, 2, {"--layout", "'x'"});
    row("unknown option", {"grayscale", "%IN", out, "--frob"}, 2, {"frob"});
    row("--block without value", {"grayscale", "%IN", out, "--block"}, 2, {"block"});
    row("info with an argument", {"info", "extra"}, 2, {"extra"});
    // 3: device or runtime failure
    row("--backend cuda without a device", {"grayscale", "%IN", out, "--backend", "cuda"}, 3, {"CUDA"});
}

void TestCli::exit_status() {
    QFETCH(QStringList, arguments);
    QFETCH(int, code);
    QFETCH(QStringList, mentions);
    if (code == 3 && cuda_device_available()) QSKIP("a CUDA device is present: --backend cuda succeeds here");
    const auto expand = [this](QString s) {
        return s.replace("%IN", kSample).replace("%DIR", dir_.path());
    };
    for (QString& a : arguments) a = expand(a);
    QFile::remove(path("out.png"));

    const CliRun run = run_cli(arguments);
    QVERIFY2(run.code == code, qPrintable(describe(run)));
    QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));  // failures print nothing to stdout
    for (const QString& m : mentions) {
        const QString want = QDir::toNativeSeparators(expand(m));
        QVERIFY2(run.err.contains(want, Qt::CaseInsensitive), qPrintable(want + " missing from\n" + describe(run)));
    }
    QVERIFY2(!QFile::exists(path("out.png")), "a failed run left an output file");
}

// The README states the exit-code rule with examples (issue 14, item 10: `--block 2000` exited 1
// where the README's "bad usage is 2" suggested 2): each example quoted there exits as it says.
void TestCli::readme_exit_rule_holds() {
    QFile readme(cvz::test::source_dir() + QStringLiteral("/README.md"));
    QVERIFY(readme.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString text = QString::fromUtf8(readme.readAll()).simplified();
    const QRegularExpression rule(QStringLiteral("Exit codes follow one rule\\. \\*\\*1\\*\\*(.*)\\*\\*2\\*\\*(.*)\\*\\*3\\*\\*"));
    const QRegularExpressionMatch m = rule.match(text);
    QVERIFY2(m.hasMatch(), "README.md: no 'Exit codes follow one rule. **1** ... **2** ... **3**' paragraph");
    const QRegularExpression example(QStringLiteral("`(--[a-z-]+(?: [^`]+)?)`"));
    const QString out = dir_.filePath(QStringLiteral("rule.png"));
    for (const int code : {1, 2}) {
        int examples = 0;
        for (auto it = example.globalMatch(m.captured(code)); it.hasNext(); ++examples) {
            const QStringList option = it.next().captured(1).split(QLatin1Char(' '));
            const CliRun run = run_cli(QStringList{"grayscale", kSample, out} + option);
            QVERIFY2(run.code == code, qPrintable(option.join(' ') + ": " + describe(run)));
        }
        QVERIFY2(examples >= 3, qPrintable(QStringLiteral("%1 examples for exit %2").arg(examples).arg(code)));
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
