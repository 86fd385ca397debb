// cudaviz-cli FAMILY ... --kernel-file FILE.cu (issue 27), run as a user runs it, on the CPU emulator:
// the lecture's kernels from resources/kernels/ on odd sizes (1xN, Nx1, primes) with 1-D, 2-D and odd
// blocks, against the family's reference within its tolerance; the memory figures of user copies of
// gray_2d and matmul_naive equal to the built-ins'; a compile error's FILE:LINE:COL and exit status; a
// bounds fault's message and exit status; OUT absent after a fault; signatures that fit nothing, files
// with several kernels, --grid, and the options' usage errors.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>
#include <random>
#include <vector>

#include "app/grayscale/gray_output.h"
#include "app/io/matrix.h"
#include "app/io/matrix_io.h"
#include "app/io/rgb_buffer.h"
#include "app/jobs/backend_choice.h"
#include "cli_runner.h"
#include "kernels/convolution/convolution_mask.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/user/user_emulated.h"
#include "support/test_images.h"
#include "support/text_file.h"

using namespace cvz;
using namespace cvz::test;

namespace {

QString lecture_kernel(const char* name) { return source_dir() + "/resources/kernels/" + name; }

QString write_image(const QTemporaryDir& dir, int w, int h, int seed = 0) {
    const QString path = dir.filePath(QStringLiteral("in_%1x%2.png").arg(w).arg(h));
    make_test_image(w, h, seed).save(path);
    return path;
}

// The family's reference grayscale of the image at `path` (its bytes as the CLI reads them).
std::vector<std::uint8_t> reference_gray(const QString& path, RgbBuffer* rgb_out = nullptr) {
    RgbBuffer rgb = to_rgb_buffer(QImage(path));
    std::vector<std::uint8_t> gray(std::size_t(rgb.width) * rgb.height);
    const GrayscaleImage image{rgb.bytes.data(), gray.data(), rgb.width, rgb.height, PixelLayout::Interleaved};
    grayscale_reference(image);
    if (rgb_out) *rgb_out = std::move(rgb);
    return gray;
}

// Uniform in [0, 1): sums without cancellation, so that a relative bound is meaningful.
Matrix random_matrix(std::uint32_t rows, std::uint32_t cols, unsigned seed) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(0, 1);
    m.data.resize(m.size());
    for (float& v : m.data) v = d(rng);
    return m;
}

QJsonObject read_metrics(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("metrics").toObject();
}

const QByteArray kNoGuard =
    "// a 1-D kernel that forgot its guard\n"
    "__global__ void gray(unsigned char* x, unsigned char* out, int n) {\n"
    "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
    "    out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];\n"
    "}\n";

}  // namespace

class TestCliUserKernel : public QObject {
    Q_OBJECT

private slots:
    // A ThreadSanitizer build has no cudaviz-kernel-runner (its runtime owns the entry points the runner
    // defines): nothing here can run there.
    void initTestCase() {
        if (user::kernel_runner_path().empty()) QSKIP("cudaviz-kernel-runner is not built here: user kernels cannot run");
    }

    void grayscale_lecture_kernels_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<QString>("block");
        QTest::newRow("1d 37x23 256") << "grayscale_1d.cu" << 37 << 23 << "256";
        QTest::newRow("1d 1x13 odd block 7") << "grayscale_1d.cu" << 1 << 13 << "7";
        QTest::newRow("1d 13x1 block 100") << "grayscale_1d.cu" << 13 << 1 << "100";
        QTest::newRow("1d 61x7 block 33") << "grayscale_1d.cu" << 61 << 7 << "33";
        QTest::newRow("2d 37x23 16x16") << "grayscale_2d.cu" << 37 << 23 << "16x16";
        QTest::newRow("2d 1x13 odd 7x5") << "grayscale_2d.cu" << 1 << 13 << "7x5";
        QTest::newRow("2d 13x1 32x1") << "grayscale_2d.cu" << 13 << 1 << "32x1";
        QTest::newRow("2d 61x7 3x11") << "grayscale_2d.cu" << 61 << 7 << "3x11";
    }
    void grayscale_lecture_kernels() {
        QFETCH(QString, kernel);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(QString, block);
        QTemporaryDir dir;
        const QString in = write_image(dir, width, height, 5);
        const QString out = dir.filePath("out.png");
        const CliRun run = run_cli({"grayscale", in, out, "--kernel-file", lecture_kernel(qPrintable(kernel)), "--block",
                                    block, "--backend", "cpu"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("matches the reference (within one grey level)"), qPrintable(describe(run)));
        const std::vector<std::uint8_t> got = gray_bytes(QImage(out));
        const std::vector<std::uint8_t> want = reference_gray(in);
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(std::abs(int(got[i]) - int(want[i])) <= 1, qPrintable(QString("pixel %1: %2 vs %3").arg(i).arg(got[i]).arg(want[i])));
    }

    // The same planar kernel fed interleaved bytes reads the wrong channels: the listing says so.
    void grayscale_layout_reaches_the_kernel() {
        QTemporaryDir dir;
        const QString in = write_image(dir, 9, 5, 1);
        const CliRun run = run_cli({"grayscale", in, dir.filePath("out.png"), "--kernel-file",
                                    lecture_kernel("grayscale_1d.cu"), "--layout", "interleaved", "--backend", "cpu"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("differ from the reference by more than one grey level"), qPrintable(describe(run)));
        QVERIFY2(run.out.contains("written by thread (0, 0, 0)/("), qPrintable(describe(run)));
    }

    void matmul_lecture_kernels_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<QString>("block");  // empty: the default
        QTest::newRow("naive 37x29x23") << "matmul.cu" << 37 << 29 << 23 << "";
        QTest::newRow("naive 1x13x7 odd 7x5") << "matmul.cu" << 1 << 13 << 7 << "7x5";
        QTest::newRow("naive 13x5x1 32x1") << "matmul.cu" << 13 << 5 << 1 << "32x1";
        QTest::newRow("naive 17x1x19 1x33") << "matmul.cu" << 17 << 1 << 19 << "1x33";
        QTest::newRow("tiled 37x29x23") << "matmul_tiled.cu" << 37 << 29 << 23 << "16x16";
        QTest::newRow("tiled 1x41x7") << "matmul_tiled.cu" << 1 << 41 << 7 << "16x16";
        QTest::newRow("tiled 19x3x1") << "matmul_tiled.cu" << 19 << 3 << 1 << "";
    }
    void matmul_lecture_kernels() {
        QFETCH(QString, kernel);
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(QString, block);
        QTemporaryDir dir;
        const Matrix a = random_matrix(m, k, 3), b = random_matrix(k, n, 4);
        QVERIFY(save_matrix(dir.filePath("a.npy"), a).isEmpty());
        QVERIFY(save_matrix(dir.filePath("b.npy"), b).isEmpty());
        QStringList args{"matmul", dir.filePath("a.npy"), dir.filePath("b.npy"), dir.filePath("c.npy"),
                         "--kernel-file", lecture_kernel(qPrintable(kernel)), "--backend", "cpu"};
        if (!block.isEmpty()) args << "--block" << block;
        const CliRun run = run_cli(args);
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("matches the reference"), qPrintable(describe(run)));
        const LoadedMatrix c = load_matrix(dir.filePath("c.npy"));
        QVERIFY2(c.ok(), qPrintable(c.error));
        QCOMPARE(c.matrix.rows, std::uint32_t(m));
        QCOMPARE(c.matrix.cols, std::uint32_t(n));
        std::vector<float> ref(std::size_t(m) * n);
        matmul_reference(MatmulProblem{a.data.data(), b.data.data(), ref.data(), std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)});
        for (std::size_t i = 0; i < ref.size(); ++i)
            QVERIFY2(std::fabs(c.matrix.data[i] - ref[i]) <= 1e-5 * std::max(1.0f, std::fabs(ref[i])),
                     qPrintable(QString("C[%1]: %2 vs %3").arg(i).arg(c.matrix.data[i]).arg(ref[i])));
    }

    void convolution_lecture_kernel_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<QString>("mask");
        QTest::addColumn<QString>("block");
        QTest::newRow("37x23 gauss5 16x16") << 37 << 23 << "gauss5" << "16x16";
        QTest::newRow("1x13 box3 7x5") << 1 << 13 << "box3" << "7x5";
        QTest::newRow("13x1 sobel_x 32x1") << 13 << 1 << "sobel_x" << "32x1";
        QTest::newRow("29x31 laplacian 5x3") << 29 << 31 << "laplacian" << "5x3";
    }
    void convolution_lecture_kernel() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(QString, mask);
        QFETCH(QString, block);
        QTemporaryDir dir;
        const QString in = write_image(dir, width, height, 2);
        const CliRun run = run_cli({"convolution", in, dir.filePath("out.npy"), "--mask", mask, "--kernel-file",
                                    lecture_kernel("convolution.cu"), "--block", block, "--backend", "cpu"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("matches the reference"), qPrintable(describe(run)));
        const LoadedMatrix out = load_matrix(dir.filePath("out.npy"));
        QVERIFY2(out.ok(), qPrintable(out.error));
        const std::vector<std::uint8_t> gray = reference_gray(in);
        ConvolutionMask values;
        QVERIFY(named_mask(mask.toStdString(), &values));
        ConvolutionProblem p;
        p.gray = gray.data();
        p.mask = values.values.data();
        p.width = std::uint32_t(width);
        p.height = std::uint32_t(height);
        p.mask_side = values.side;
        std::vector<double> ref(p.pixels());
        convolution_reference_f64(p, ref.data());
        QCOMPARE(out.matrix.data.size(), ref.size());
        for (std::size_t i = 0; i < ref.size(); ++i)
            QVERIFY2(std::fabs(out.matrix.data[i] - ref[i]) <= 1e-5 * std::max(1.0, std::fabs(ref[i])),
                     qPrintable(QString("out[%1]: %2 vs %3").arg(i).arg(out.matrix.data[i]).arg(ref[i])));
    }

    // A user copy of gray_2d (planar, the built-in's accesses) has the built-in's memory figures.
    void gray_2d_copy_metrics_equal_the_built_in() {
        QTemporaryDir dir;
        const QString in = write_image(dir, 61, 37, 0);
        const QString copy = write_text(dir, "gray2d.cu",
                                        "__global__ void gray2d(const unsigned char* x, unsigned char* out, int w, int h) {\n"
                                        "    int c = blockIdx.x*blockDim.x + threadIdx.x;\n"
                                        "    int r = blockIdx.y*blockDim.y + threadIdx.y;\n"
                                        "    if (c < w && r < h) {\n"
                                        "        int i = r*w + c, n = w*h;\n"
                                        "        float acc = 0.2989f * x[i];\n"
                                        "        acc = fmaf(0.5870f, x[i + n], acc);\n"
                                        "        acc = fmaf(0.1140f, x[i + 2*n], acc);\n"
                                        "        out[i] = (unsigned char)acc;\n"
                                        "    }\n"
                                        "}\n");
        for (const char* block : {"16x16", "7x5"}) {
            const CliRun mine = run_cli({"grayscale", in, dir.filePath("mine.png"), "--kernel-file", copy, "--layout", "planar",
                                         "--block", block, "--backend", "cpu", "--metrics", dir.filePath("mine.json")});
            QVERIFY2(mine.code == 0, qPrintable(describe(mine)));
            QVERIFY2(mine.out.contains("matches the reference (within one grey level)"), qPrintable(describe(mine)));
            const CliRun builtin = run_cli({"grayscale", in, dir.filePath("builtin.png"), "--kernel", "gray_2d", "--layout",
                                            "planar", "--block", block, "--backend", "cpu", "--metrics", dir.filePath("builtin.json")});
            QVERIFY2(builtin.code == 0, qPrintable(describe(builtin)));
            const QJsonObject a = read_metrics(dir.filePath("mine.json")), b = read_metrics(dir.filePath("builtin.json"));
            QVERIFY(!a.isEmpty());
            QCOMPARE(a, b);
            // The copy's arithmetic is the built-in's: the very same bytes.
            QCOMPARE(gray_bytes(QImage(dir.filePath("mine.png"))), gray_bytes(QImage(dir.filePath("builtin.png"))));
        }
    }

    // The lecture's matmul_k has matmul_naive's accesses: the same memory figures.
    void matmul_naive_copy_metrics_equal_the_built_in() {
        QTemporaryDir dir;
        QVERIFY(save_matrix(dir.filePath("a.npy"), random_matrix(37, 29, 1)).isEmpty());
        QVERIFY(save_matrix(dir.filePath("b.npy"), random_matrix(29, 23, 2)).isEmpty());
        for (const char* block : {"16x16", "7x5"}) {
            const CliRun mine = run_cli({"matmul", dir.filePath("a.npy"), dir.filePath("b.npy"), dir.filePath("mine.npy"),
                                         "--kernel-file", lecture_kernel("matmul.cu"), "--block", block, "--backend", "cpu",
                                         "--metrics", dir.filePath("mine.json")});
            QVERIFY2(mine.code == 0, qPrintable(describe(mine)));
            const CliRun builtin = run_cli({"matmul", dir.filePath("a.npy"), dir.filePath("b.npy"), dir.filePath("builtin.npy"),
                                            "--kernel", "naive", "--block", block, "--backend", "cpu", "--metrics",
                                            dir.filePath("builtin.json")});
            QVERIFY2(builtin.code == 0, qPrintable(describe(builtin)));
            const QJsonObject a = read_metrics(dir.filePath("mine.json")), b = read_metrics(dir.filePath("builtin.json"));
            QVERIFY(!a.isEmpty());
            QCOMPARE(a, b);
        }
    }

    void compile_error_names_file_line_and_column() {
        QTemporaryDir dir;
        const QString bad = write_text(dir, "bad.cu",
                                       "__global__ void gray(unsigned char* x, unsigned char* out, int n) {\n"
                                       "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                                       "    if (i < n) out[i] = y[i];\n"
                                       "}\n");
        const QString out = dir.filePath("out.png");
        const CliRun run = run_cli({"grayscale", write_image(dir, 7, 3), out, "--kernel-file", bad, "--backend", "cpu"});
        QCOMPARE(run.code, 1);
        static const QRegularExpression diagnostic(QStringLiteral("bad\\.cu:3:\\d+: error: .*y"));
        QVERIFY2(diagnostic.match(run.err).hasMatch(), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("compile error"), qPrintable(describe(run)));
        QVERIFY(!QFile::exists(out));
    }

    void bounds_fault_is_named_and_out_not_written() {
        QTemporaryDir dir;
        const QString file = write_text(dir, "noguard.cu", kNoGuard);
        const QString out = dir.filePath("out.png");
        // 37 x 23 = 851 pixels in blocks of 256: threads 851..1023 write past the end of out.
        const CliRun run = run_cli({"grayscale", write_image(dir, 37, 23), out, "--kernel-file", file, "--backend", "cpu"});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("fault in the kernel"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("line 4"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("past the end of"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("(851 elements)") || run.err.contains("(2553 elements)"), qPrintable(describe(run)));
        QVERIFY(!QFile::exists(out));
    }

    void bounds_fault_on_the_gpu_names_buffer_and_thread() {
        if (!cuda_device_available()) QSKIP("no CUDA device: the GPU's guard zones cannot be run here");
        QTemporaryDir dir;
        const QString file = write_text(dir, "noguard.cu", kNoGuard);
        const QString out = dir.filePath("out.png");
        // Threads 851..1023 read past x (x[i+2n] up to x[2725] of 2553): the unmapped memory after x
        // (kernels/user/guard_zone.h) stops the kernel, and the emulator names the first thread and line.
        const CliRun run = run_cli({"grayscale", write_image(dir, 37, 23), out, "--kernel-file", file, "--backend", "cuda",
                                    "--layout", "planar"});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("fault in the kernel (out of bounds)"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("the GPU stopped the kernel: cudaErrorIllegalAddress"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("on the emulator: line 4: thread"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("past the end of x (2553 elements)"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("OUT not written"), qPrintable(describe(run)));
        QVERIFY(!QFile::exists(out));
        qInfo("%s", qPrintable(run.err.trimmed()));
    }

    void endless_loop_stops_at_the_time_limit() {
        QTemporaryDir dir;
        const QString file = write_text(dir, "spin.cu",
                                        "__global__ void spin(float* m, float* n, float* out, int h, int w, int k) {\n"
                                        "    volatile int go = 1;\n"
                                        "    while (go) { }\n"
                                        "}\n");
        QVERIFY(save_matrix(dir.filePath("a.npy"), random_matrix(3, 2, 1)).isEmpty());
        QVERIFY(save_matrix(dir.filePath("b.npy"), random_matrix(2, 5, 2)).isEmpty());
        const CliRun run = run_cli({"matmul", dir.filePath("a.npy"), dir.filePath("b.npy"), dir.filePath("c.npy"),
                                    "--kernel-file", file, "--time-limit", "1", "--backend", "cpu"});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("time limit"), qPrintable(describe(run)));
        QVERIFY(!QFile::exists(dir.filePath("c.npy")));
    }

    void signature_that_fits_nothing_lists_the_accepted_ones() {
        QTemporaryDir dir;
        const QString file = write_text(dir, "f.cu", "__global__ void f(float* a, int n) { }\n");
        const CliRun run = run_cli({"grayscale", write_image(dir, 5, 3), dir.filePath("o.png"), "--kernel-file", file});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("(unsigned char* x, unsigned char* out, int n)"), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("(unsigned char* x, unsigned char* out, int w, int h)"), qPrintable(describe(run)));
        const CliRun conv = run_cli({"convolution", write_image(dir, 5, 3), dir.filePath("o.npy"), "--kernel-file", file});
        QCOMPARE(conv.code, 1);
        QVERIFY2(conv.err.contains("(float* in, float* mask, float* out, int w, int h, int r)"), qPrintable(describe(conv)));
    }

    void several_kernels_need_a_name() {
        QTemporaryDir dir;
        QFile one(lecture_kernel("grayscale_1d.cu")), two(lecture_kernel("grayscale_2d.cu"));
        QVERIFY(one.open(QIODevice::ReadOnly) && two.open(QIODevice::ReadOnly));
        const QString both = write_text(dir, "both.cu", one.readAll() + "\n" + two.readAll());
        const QString in = write_image(dir, 11, 7);
        const CliRun unnamed = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", both, "--backend", "cpu"});
        QCOMPARE(unnamed.code, 2);
        QVERIFY2(unnamed.err.contains("rgb_to_grayscale_kernel") && unnamed.err.contains("rgb_to_grayscale_2d"),
                 qPrintable(describe(unnamed)));
        QVERIFY(!QFile::exists(dir.filePath("o.png")));
        const CliRun named = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", both, "--kernel-name",
                                      "rgb_to_grayscale_2d", "--block", "4x4", "--backend", "cpu"});
        QVERIFY2(named.code == 0, qPrintable(describe(named)));
        QVERIFY2(named.out.contains("yours: rgb_to_grayscale_2d"), qPrintable(describe(named)));
        const CliRun missing = run_cli({"grayscale", in, dir.filePath("p.png"), "--kernel-file", both, "--kernel-name",
                                        "nope", "--backend", "cpu"});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("nope"), qPrintable(describe(missing)));
    }

    // --grid overrides the rule: a grid too small leaves pixels unwritten, and the listing says which.
    void grid_overrides_the_rule_and_the_listing_names_unwritten_elements() {
        QTemporaryDir dir;
        const QString in = write_image(dir, 10, 10, 3);
        const CliRun run = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", lecture_kernel("grayscale_1d.cu"),
                                    "--block", "32", "--grid", "2", "--backend", "cpu"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("grid 2"), qPrintable(describe(run)));
        // Pixels 64..99 were not written; those whose reference is above one grey level are listed.
        QVERIFY2(run.out.contains("no thread wrote it"), qPrintable(describe(run)));
        QVERIFY2(!run.out.contains("matches the reference"), qPrintable(describe(run)));
        const std::vector<std::uint8_t> got = gray_bytes(QImage(dir.filePath("o.png")));
        const std::vector<std::uint8_t> want = reference_gray(in);
        for (std::size_t i = 0; i < 64; ++i) QVERIFY(std::abs(int(got[i]) - int(want[i])) <= 1);
        for (std::size_t i = 64; i < 100; ++i) QCOMPARE(int(got[i]), 0);
    }

    void usage_errors() {
        QTemporaryDir dir;
        const QString in = write_image(dir, 5, 3);
        const QString k = lecture_kernel("grayscale_1d.cu");
        QCOMPARE(run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-name", "x"}).code, 2);
        QCOMPARE(run_cli({"grayscale", in, dir.filePath("o.png"), "--grid", "4"}).code, 2);
        QCOMPARE(run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel", "gray_1d", "--kernel-file", k}).code, 2);
        QCOMPARE(run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", k, "--time-limit", "soon"}).code, 2);
        QCOMPARE(run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", k, "--time-limit", "0"}).code, 2);
        const CliRun missing = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", dir.filePath("none.cu")});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("none.cu"), qPrintable(describe(missing)));
        const CliRun badgrid = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", k, "--grid", "0x2"});
        QCOMPARE(badgrid.code, 1);
        const CliRun big = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", k, "--block", "2048"});
        QCOMPARE(big.code, 1);
        QVERIFY2(big.err.contains("1024"), qPrintable(describe(big)));
        const CliRun help = run_cli({"matmul", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("--kernel-file") && help.out.contains("(float* m, float* n, float* out, int h, int w, int k)"));
        QVERIFY(!QFile::exists(dir.filePath("o.png")));
    }

    // A kernel file that is no kernel: a message naming the file, exit 1, OUT not written.
    void bad_kernel_files() {
        QTemporaryDir dir;
        const QString in = write_image(dir, 5, 3);
        const QString empty = write_text(dir, "empty.cu", "// nothing here\n");
        const QString binary = write_text(dir, "binary.cu", QByteArray("ab\0cd", 5));
        QVERIFY(QDir(dir.path()).mkdir("folder.cu"));
        const struct { QString file; const char* says; } cases[] = {
            {empty, "no __global__ function"},
            {binary, "not a text file"},
            {dir.filePath("folder.cu"), "directory"},
        };
        for (const auto& c : cases) {
            const CliRun run = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", c.file, "--backend", "cpu"});
            QCOMPARE(run.code, 1);
            QVERIFY2(run.err.contains(QFileInfo(c.file).fileName()) && run.err.contains(c.says), qPrintable(describe(run)));
            QVERIFY(!QFile::exists(dir.filePath("o.png")));
        }
    }

    void schedule_of_a_user_kernel() {
        QTemporaryDir dir;
        const QString in = write_image(dir, 37, 23);
        const CliRun run = run_cli({"grayscale", in, dir.filePath("o.png"), "--kernel-file", lecture_kernel("grayscale_2d.cu"),
                                    "--block", "8x8", "--backend", "cpu", "--schedule", dir.filePath("s.json")});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("schedule: 15 blocks"), qPrintable(describe(run)));
        QVERIFY(QFile::exists(dir.filePath("s.json")));
    }
};

QTEST_GUILESS_MAIN(TestCliUserKernel)
#include "tst_cli_user_kernel.moc"
