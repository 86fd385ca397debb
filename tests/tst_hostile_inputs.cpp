// Hostile input, without the GUI (ARCHITECTURE.md, invariant 7: bad input is a message, never a
// crash): images and matrices cut at every byte and with random bytes flipped (fixed seeds), empty,
// declaring huge sizes, of unsupported types, full of garbage, NaN and Inf, files that vanish or turn
// unreadable before they are loaded, pipes and devices posing as files; and launch shapes at and just
// past every CUDA limit, through the validation functions and through the runners. Each must give a
// result or an error value with a sentence a user can act on. Run under the asan preset too
// (scripts/sanitize), where any out-of-bounds access or undefined behaviour on the way fails it.
#include <QtTest>

#include "npy_bytes.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImageWriter>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/io/csv_matrix.h"
#include "app/grayscale/grayscale_runner.h"
#include "app/io/image_loader.h"
#include "app/models/launch_config.h"
#include "app/matmul/matmul_runner.h"
#include "app/io/matrix_io.h"
#include "app/io/npy_reader.h"
#include "app/io/npy_writer.h"
#include "app/io/rgb_buffer.h"
#include "kernels/core/launch_limits.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_launch.h"

#if defined(__SANITIZE_ADDRESS__)
#define CVZ_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CVZ_TEST_UNDER_ASAN 1
#endif
#endif

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::MatmulLaunch)

using namespace cvz;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Every pixel different, so that a decoder that mixes up rows or channels is seen.
QImage test_image(int w, int h) {
    QImage image(w, h, QImage::Format_RGB888);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) image.setPixel(x, y, qRgb(x * 255 / w, y * 255 / h, (x * 37 + y * 101) % 256));
    return image;
}

QByteArray encode(const QImage& image, const char* format, int quality = -1) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (quality >= 0) writer.setQuality(quality);
    return writer.write(image) ? bytes : QByteArray();
}

QByteArray be32(quint32 v) {
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    return QByteArray(b, 4);
}

quint32 crc32(const QByteArray& bytes) {
    quint32 crc = 0xFFFFFFFFu;
    for (char c : bytes) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray png_chunk(const QByteArray& type, const QByteArray& data) {
    return be32(quint32(data.size())) + type + data + be32(crc32(type + data));
}

// A PNG whose IHDR declares width x height RGB pixels (valid CRCs) with a token IDAT.
QByteArray png_declaring(quint32 width, quint32 height) {
    QByteArray ihdr = be32(width) + be32(height);
    ihdr += char(8);              // bit depth
    ihdr += char(2);              // colour type RGB
    ihdr += QByteArray(3, '\0');  // compression, filter, interlace
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) + png_chunk("IDAT", QByteArray(16, '\0')) +
           png_chunk("IEND", {});
}

// A GIF89a of `w` x `h` (logical screen and one frame) with a 2-colour table and a tiny LZW stream.
QByteArray gif_declaring(quint16 w, quint16 h) {
    QByteArray b("GIF89a");
    auto le16 = [&b](quint16 v) {
        b += char(v & 0xFF);
        b += char(v >> 8);
    };
    le16(w);
    le16(h);
    b += QByteArray("\x80\x00\x00", 3);                 // global table of 2 colours
    b += QByteArray("\x00\x00\x00\xff\xff\xff", 6);
    b += char(0x2C);
    le16(0);
    le16(0);
    le16(w);
    le16(h);
    b += char(0);
    b += char(2);                                       // LZW minimum code size
    b += QByteArray("\x02\x44\x01\x00", 4);             // one data block, then the block terminator
    b += char(0x3B);
    return b;
}

// `jpeg` with the frame header (SOF0) patched to declare width x height.
QByteArray jpeg_declaring(QByteArray jpeg, quint16 width, quint16 height) {
    const qsizetype sof = jpeg.indexOf(QByteArray("\xFF\xC0", 2));
    if (sof < 0 || sof + 9 > jpeg.size()) return {};
    jpeg[sof + 5] = char(height >> 8);
    jpeg[sof + 6] = char(height & 0xFF);
    jpeg[sof + 7] = char(width >> 8);
    jpeg[sof + 8] = char(width & 0xFF);
    return jpeg;
}

using cvz::test::npy_bytes;

QByteArray npy_dict(const char* descr, const char* shape) {
    return QByteArray("{'descr': ") + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
}

QByteArray floats(const QList<float>& values) {
    return QByteArray(reinterpret_cast<const char*>(values.data()), values.size() * qsizetype(sizeof(float)));
}

Matrix matrix(std::uint32_t rows, std::uint32_t cols, const QList<float>& values) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data.assign(values.begin(), values.end());
    return m;
}

// `count` variants of `bytes`, each with 1 to 4 bytes replaced, from a fixed seed: the same every run.
QList<QByteArray> flipped_variants(const QByteArray& bytes, int count, unsigned seed) {
    std::mt19937 rng(seed);
    QList<QByteArray> out;
    for (int i = 0; i < count; ++i) {
        QByteArray v = bytes;
        const int flips = 1 + int(rng() % 4);
        for (int f = 0; f < flips; ++f) v[qsizetype(rng() % std::uint32_t(v.size()))] = char(rng() & 0xFF);
        out << v;
    }
    return out;
}

// What a rejected image must look like: no pixels, and a message naming the file.
QString rejected_properly(const LoadedImage& img, const QString& path) {
    if (!img.rgb.isNull()) return QStringLiteral("an error with pixels");
    if (!img.error.startsWith(QStringLiteral("Cannot load '") + QDir::toNativeSeparators(path) + "': "))
        return QStringLiteral("message does not name the file: ") + img.error;
    return {};
}

// float64 reference of A @ B with IEEE rules: where it is NaN or infinite the kernels must agree.
std::vector<double> reference_product(const Matrix& a, const Matrix& b) {
    std::vector<double> c(std::size_t(a.rows) * b.cols, 0.0);
    for (std::uint32_t r = 0; r < a.rows; ++r)
        for (std::uint32_t j = 0; j < b.cols; ++j) {
            double acc = 0;
            for (std::uint32_t k = 0; k < a.cols; ++k) acc += double(a.at(r, k)) * double(b.at(k, j));
            c[std::size_t(r) * b.cols + j] = acc;
        }
    return c;
}

// Empty when every element of `c` has the class of `want` (NaN, +Inf, -Inf, finite) and finite ones
// are within a relative 1e-5; else the first mismatch.
QString compare_classes(const Matrix& c, const std::vector<double>& want) {
    if (c.data.size() != want.size()) return QStringLiteral("size %1, want %2").arg(c.data.size()).arg(want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double w = want[i];
        const float g = c.data[i];
        const bool ok = std::isnan(w)   ? std::isnan(g)
                        : std::isinf(w) ? (std::isinf(g) && std::signbit(g) == std::signbit(w))
                                        : (std::isfinite(g) && std::abs(g - w) <= 1e-5 * std::max(1.0, std::abs(w)));
        if (!ok) return QStringLiteral("element %1: got %2, want %3").arg(i).arg(double(g)).arg(w);
    }
    return {};
}

std::vector<std::uint8_t> reference_gray(const RgbBuffer& rgb) {
    std::vector<std::uint8_t> gray(std::size_t(rgb.width) * rgb.height);
    grayscale_reference(GrayscaleImage{rgb.bytes.data(), gray.data(), rgb.width, rgb.height, PixelLayout::Interleaved});
    return gray;
}

struct RunAs {
    bool ran = false;  // false: this machine cannot run a program as another user
    int exit_code = -1;
    QString err;
};

// Runs the CLI as the unprivileged user nobody (through setpriv): the only way a test running as root
// sees what a user sees for a file without read permission.
RunAs run_cli_as_nobody(const QStringList& arguments) {
    RunAs r;
    const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
    if (setpriv.isEmpty()) return r;
    QProcess p;
    p.start(setpriv, QStringList{"--reuid=65534", "--regid=65534", "--clear-groups", "--", CUDAVIZ_CLI_PATH} + arguments);
    if (!p.waitForStarted(10000) || !p.waitForFinished(120000)) return r;
    r.exit_code = p.exitCode();
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    r.ran = p.exitStatus() == QProcess::NormalExit && r.exit_code != 126 && r.exit_code != 127;
    return r;
}

}  // namespace

class TestHostileInputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();

    // images
    void image_cut_at_every_byte_data();
    void image_cut_at_every_byte();
    void image_random_byte_flips_data();
    void image_random_byte_flips();
    void image_empty_data();
    void image_empty();
    void image_declaring_huge_size_data();
    void image_declaring_huge_size();
    void image_vanishes_before_loading();
    void image_unreadable_before_loading();
    void image_pipe_or_device_is_refused();
    void image_decoder_out_of_memory_is_a_message();
    void image_of_unknown_size_cannot_claim_gigabytes();

    // matrices
    void npy_cut_at_every_byte();
    void npy_random_byte_flips();
    void npy_declaring_huge_shape_data();
    void npy_declaring_huge_shape();
    void npy_unsupported_dtype_data();
    void npy_unsupported_dtype();
    void csv_garbage_data();
    void csv_garbage();
    void csv_byte_order_mark_is_skipped();
    void csv_negative_zero_round_trips();
    void matrix_file_vanishes_or_turns_unreadable();
    void matrix_pipe_or_device_is_refused();
    void nan_and_inf_propagate_data();
    void nan_and_inf_propagate();
    void nan_and_inf_from_files_reach_the_output();

    // launch shapes
    void block_text_at_limits_data();
    void block_text_at_limits();
    void block_dimensions_at_limits_data();
    void block_dimensions_at_limits();
    void grid_at_limits();
    void grayscale_runner_at_block_limits_data();
    void grayscale_runner_at_block_limits();
    void tall_image_caps_grid_y_data();
    void tall_image_caps_grid_y();
    void grayscale_runner_rejects_bad_requests();
    void matmul_runner_at_limits_data();
    void matmul_runner_at_limits();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    QTemporaryDir dir_;
    QByteArray png_, bmp_, gif_, jpeg_;
    QImage image_;
};

void TestHostileInputs::initTestCase() {
    QVERIFY(dir_.isValid());
    image_ = test_image(9, 7);
    png_ = encode(image_, "png");
    bmp_ = encode(image_, "bmp");
    jpeg_ = encode(image_, "jpg", 80);
    gif_ = gif_declaring(9, 7);
    QVERIFY(!png_.isEmpty() && !bmp_.isEmpty() && !jpeg_.isEmpty());
    // Each whole file loads: the cuts below start from a good file.
    const QByteArray* files[] = {&png_, &bmp_, &gif_, &jpeg_};
    for (const QByteArray* bytes : files) {
        QVERIFY(write_file(path("whole"), *bytes));
        const LoadedImage img = load_image(path("whole"));
        QVERIFY2(img.ok(), qPrintable(img.error));
        QCOMPARE(img.rgb.size(), QSize(9, 7));
    }
}

// ---- images -------------------------------------------------------------------------------------

void TestHostileInputs::image_cut_at_every_byte_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<bool>("lossless");
    QTest::newRow("png") << png_ << "png" << true;
    QTest::newRow("bmp") << bmp_ << "bmp" << true;
    QTest::newRow("gif") << gif_ << "gif" << false;
    QTest::newRow("jpeg") << jpeg_ << "jpg" << false;
}

// Every prefix of a small file: a message naming the file, or (where the part cut off is not needed,
// as the end of a PNG's IEND, and for formats whose decoders pad a short file) an image of the full size.
void TestHostileInputs::image_cut_at_every_byte() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, suffix);
    QFETCH(bool, lossless);
    const QString file = path("cut." + suffix);
    int refused = 0;
    for (qsizetype cut = 0; cut < bytes.size(); ++cut) {
        QVERIFY(write_file(file, bytes.left(cut)));
        const LoadedImage img = load_image(file);
        if (!img.ok()) {
            const QString why = rejected_properly(img, file);
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(why)));
            ++refused;
            continue;
        }
        QVERIFY2(img.rgb.size() == QSize(9, 7), qPrintable(QStringLiteral("cut at %1 loaded as %2x%3")
                                                               .arg(cut).arg(img.rgb.width()).arg(img.rgb.height())));
        if (lossless && suffix == "png")  // a PNG that decodes at all decodes whole (its CRCs and zlib see to it)
            QVERIFY2(img.rgb == image_, qPrintable(QStringLiteral("cut at %1 loaded different pixels").arg(cut)));
    }
    if (suffix == "png")  // every cut before the IEND chunk's last bytes
        QVERIFY2(refused >= bytes.size() - 12, qPrintable(QStringLiteral("only %1 of %2 cuts refused").arg(refused).arg(bytes.size())));
}

void TestHostileInputs::image_random_byte_flips_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << png_ << "png";
    QTest::newRow("bmp") << bmp_ << "bmp";
    QTest::newRow("gif") << gif_ << "gif";
    QTest::newRow("jpeg") << jpeg_ << "jpg";
}

void TestHostileInputs::image_random_byte_flips() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, suffix);
    const QString file = path("flipped." + suffix);
    int i = 0;
    for (const QByteArray& variant : flipped_variants(bytes, 150, 20240611u)) {
        QVERIFY(write_file(file, variant));
        const LoadedImage img = load_image(file);
        if (img.ok()) {
            QVERIFY(!img.rgb.isNull());
            QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
            QVERIFY(qint64(img.rgb.width()) * img.rgb.height() <= ImageLimits::kMaxPixels);
        } else {
            const QString why = rejected_properly(img, file);
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("variant %1: %2").arg(i).arg(why)));
        }
        ++i;
    }
}

void TestHostileInputs::image_empty_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    for (const char* name : {"empty.png", "empty.jpg", "empty.bmp", "empty.gif", "empty"})
        QTest::newRow(name) << QString(name) << QByteArray() << "empty";
    QTest::newRow("png 0x0") << "zero.png" << png_declaring(0, 0) << "";
    QTest::newRow("png 0x7") << "zero-wide.png" << png_declaring(0, 7) << "";
    QTest::newRow("gif 0x0") << "zero.gif" << gif_declaring(0, 0) << "";
    QTest::newRow("one byte") << "one.png" << QByteArray(1, '\x89') << "";
}

void TestHostileInputs::image_empty() {
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QVERIFY(write_file(path(name), bytes));
    const LoadedImage img = load_image(path(name));
    QVERIFY(!img.ok());
    const QString why = rejected_properly(img, path(name));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY2(img.error.contains(problem), qPrintable(img.error));
}

void TestHostileInputs::image_declaring_huge_size_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    QTest::newRow("png 100000x100000") << "huge.png" << png_declaring(100000, 100000) << "declares 100000 x 100000";
    QTest::newRow("png 16385x16384, one row over") << "over.png" << png_declaring(16385, 16384) << "declares 16385 x 16384";
    QTest::newRow("png 2^31-1 wide") << "wide.png" << png_declaring(0x7FFFFFFF, 1) << "";
    QTest::newRow("png 2^32-1 wide") << "wider.png" << png_declaring(0xFFFFFFFF, 1) << "";
    // At the limit the header is accepted; the token pixel data then fails to decode.
    QTest::newRow("png 16384x16384, at the limit") << "limit.png" << png_declaring(16384, 16384) << "truncated or corrupt";
    QTest::newRow("gif 65535x65535") << "huge.gif" << gif_declaring(65535, 65535) << "65535 x 65535";
    QTest::newRow("jpeg 65500x65500") << "huge.jpg" << jpeg_declaring(jpeg_, 65500, 65500) << "declares 65500 x 65500";
}

void TestHostileInputs::image_declaring_huge_size() {
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QVERIFY(!bytes.isEmpty());
    QVERIFY(write_file(path(name), bytes));
    const LoadedImage img = load_image(path(name));
    QVERIFY(!img.ok());
    const QString why = rejected_properly(img, path(name));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY2(img.error.contains(problem), qPrintable(img.error));
}

// Chosen in a dialog, gone by the time the worker loads it.
void TestHostileInputs::image_vanishes_before_loading() {
    const QString file = path("vanishing.png");
    QVERIFY(write_file(file, png_));
    QVERIFY(load_image(file).ok());
    QVERIFY(QFile::remove(file));
    const LoadedImage img = load_image(file);
    QVERIFY(!img.ok());
    QVERIFY2(img.error.contains("no such file"), qPrintable(img.error));
    QVERIFY(rejected_properly(img, file).isEmpty());
}

void TestHostileInputs::image_unreadable_before_loading() {
    QTemporaryDir shared_dir;  // a folder the unprivileged user may enter
    QVERIFY(shared_dir.isValid());
    QVERIFY(QFile::setPermissions(shared_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                         QFileDevice::ReadOther | QFileDevice::ExeOther));
    const QString file = shared_dir.filePath("locked.png");
    QVERIFY(write_file(file, png_));
    QVERIFY(QFile::setPermissions(file, QFileDevice::Permissions()));  // chmod 000
    if (geteuid() != 0) {
        const LoadedImage img = load_image(file);
        QVERIFY(!img.ok());
        QVERIFY2(img.error.contains("cannot be read"), qPrintable(img.error));
        QVERIFY(rejected_properly(img, file).isEmpty());
        return;
    }
    // Root reads any file: ask as the user nobody, through the CLI, which loads with load_image.
    const RunAs r = run_cli_as_nobody({"grayscale", file, shared_dir.filePath("out.png")});
    if (!r.ran) QSKIP("running as root, and the CLI cannot be run as the user nobody here (no setpriv, or its path is not reachable)");
    QCOMPARE(r.exit_code, 1);  // input rejected
    QVERIFY2(r.err.contains("cannot be read") && r.err.contains(file), qPrintable(r.err));
}

void TestHostileInputs::image_pipe_or_device_is_refused() {
    const QString fifo = path("pipe.png");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const LoadedImage from_pipe = load_image(fifo);  // must not wait for a writer
    QVERIFY(!from_pipe.ok());
    QVERIFY2(from_pipe.error.contains("not a regular file"), qPrintable(from_pipe.error));

    const QString device = path("devzero.png");
    QVERIFY(QFile::link("/dev/zero", device));
    const LoadedImage from_device = load_image(device);  // must not read forever
    QVERIFY(!from_device.ok());
    QVERIFY2(from_device.error.contains("not a regular file"), qPrintable(from_device.error));
}

// Found by the image fuzz target: a 138-byte ICNS file whose entry declares 2 GiB makes Qt's ICNS
// handler allocate 2 GiB before reading. Where that allocation fails, Qt throws std::bad_alloc, which
// used to end the program (std::terminate). The CLI, run with its memory limited, must say so instead.
void TestHostileInputs::image_decoder_out_of_memory_is_a_message() {
    QFile regression(QStringLiteral(CUDAVIZ_SOURCE_DIR "/tests/fuzz/regressions/image/icns-entry-declares-2gib.bin"));
    QVERIFY(regression.open(QIODevice::ReadOnly));
    const QString file = path("huge-entry.icns");
    QVERIFY(write_file(file, regression.readAll().mid(1)));  // the fuzz input's first byte picks the suffix

    QProcess cli;
#ifdef CVZ_TEST_UNDER_ASAN
    // AddressSanitizer reserves terabytes of address space, so no RLIMIT_AS: cap allocations instead.
    // No leak check in this child: Qt's ICNS handler drops a 46-byte QByteArray when the exception
    // passes through it (Qt's code, after the failure this test provokes).
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("ASAN_OPTIONS",
               env.value("ASAN_OPTIONS") + ":allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=0");
    cli.setProcessEnvironment(env);
#else
    cli.setChildProcessModifier([] {
        const rlimit limit{rlim_t(1536) << 20, rlim_t(1536) << 20};  // 1.5 GiB of address space
        ::setrlimit(RLIMIT_AS, &limit);
    });
#endif
    cli.start(QStringLiteral(CUDAVIZ_CLI_PATH), {"grayscale", file, path("huge-entry-out.png")});
    QVERIFY(cli.waitForFinished(120000));
    const QString err = QString::fromLocal8Bit(cli.readAllStandardError());
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QVERIFY2(cli.exitCode() == 1, qPrintable(QStringLiteral("exit code %1: %2").arg(cli.exitCode()).arg(err)));
    QVERIFY2(err.contains("not enough memory") && err.contains("huge-entry.icns"), qPrintable(err));
}

// Found by the image fuzz target: a 120-byte MNG file (a format whose size Qt cannot tell before
// decoding) declaring 64262 x 8349 pixels had Qt allocate and fill 2 GiB before load_image could check
// the decoded size. Now refused at once, and the process's peak memory barely moves.
void TestHostileInputs::image_of_unknown_size_cannot_claim_gigabytes() {
    QFile regression(QStringLiteral(CUDAVIZ_SOURCE_DIR "/tests/fuzz/regressions/image/mng-declares-64262x8349.bin"));
    QVERIFY(regression.open(QIODevice::ReadOnly));
    const QString file = path("huge.mng");
    QVERIFY(write_file(file, regression.readAll().mid(1)));
    rusage before{};
    ::getrusage(RUSAGE_SELF, &before);
    const LoadedImage img = load_image(file);
    rusage after{};
    ::getrusage(RUSAGE_SELF, &after);
    QVERIFY(!img.ok());
    QVERIFY2(rejected_properly(img, file).isEmpty(), qPrintable(img.error));
    const long grown_mib = (after.ru_maxrss - before.ru_maxrss) / 1024;  // ru_maxrss is in KiB
    QVERIFY2(grown_mib < 512, qPrintable(QStringLiteral("peak memory grew by %1 MiB").arg(grown_mib)));
}

// ---- matrices -----------------------------------------------------------------------------------

void TestHostileInputs::npy_cut_at_every_byte() {
    const QByteArray whole = npy_bytes(npy_dict("'<f4'", "(3, 4)"), floats({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
    QString error;
    QCOMPARE(parse_npy_matrix(whole, &error).size(), std::uint64_t(12));
    QVERIFY(error.isEmpty());
    for (qsizetype cut = 0; cut < whole.size(); ++cut) {
        error.clear();
        const Matrix m = parse_npy_matrix(whole.left(cut), &error);
        QVERIFY2(!error.isEmpty(), qPrintable(QStringLiteral("cut at %1 accepted").arg(cut)));
        QVERIFY(m.data.empty() && m.rows == 0 && m.cols == 0);
    }
    // And through the file loader, which names the file.
    for (qsizetype cut : {qsizetype(0), qsizetype(5), qsizetype(64), whole.size() - 1}) {
        const QString file = path(QStringLiteral("cut%1.npy").arg(cut));
        QVERIFY(write_file(file, whole.left(cut)));
        const LoadedMatrix m = load_matrix(file);
        QVERIFY(!m.ok());
        QVERIFY2(m.error.startsWith(QDir::toNativeSeparators(file) + ": "), qPrintable(m.error));
    }
}

void TestHostileInputs::npy_random_byte_flips() {
    const QByteArray whole = npy_bytes(npy_dict("'<f8'", "(3, 4)"), QByteArray(96, '\x3f'));
    for (const QByteArray& variant : flipped_variants(whole, 2000, 7u)) {
        QString error;
        const Matrix m = parse_npy_matrix(variant, &error);
        if (error.isEmpty()) QCOMPARE(m.data.size(), std::size_t(m.size()));
        else QVERIFY(m.data.empty());
    }
}

void TestHostileInputs::npy_declaring_huge_shape_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    const QByteArray some = floats({1, 2, 3, 4});
    QTest::newRow("100000x100000") << npy_bytes(npy_dict("'<f4'", "(100000, 100000)"), some) << "exceeds the limit";
    QTest::newRow("side 2^24+1") << npy_bytes(npy_dict("'<f4'", "(16777217, 1)"), some) << "longer than the limit";
    QTest::newRow("2^64-1 rows") << npy_bytes(npy_dict("'<f4'", "(18446744073709551615, 2)"), some) << "longer than the limit";
    QTest::newRow("2^64 rows") << npy_bytes(npy_dict("'<f4'", "(18446744073709551616, 1)"), some) << "malformed shape";
    QTest::newRow("negative") << npy_bytes(npy_dict("'<f4'", "(-1, 4)"), some) << "malformed shape";
    QTest::newRow("0x4") << npy_bytes(npy_dict("'<f4'", "(0, 4)"), some) << "empty";
    // At the limit the shape is accepted; 1 GiB of data is needed, and 16 bytes are there: no allocation.
    QTest::newRow("16384x16384 without data") << npy_bytes(npy_dict("'<f4'", "(16384, 16384)"), some)
                                             << "needs 1073741824 bytes";
    QByteArray header_too_long = npy_bytes(npy_dict("'<f4'", "(2, 2)"), some, 2);
    header_too_long[8] = header_too_long[9] = header_too_long[10] = header_too_long[11] = char(0xFF);
    QTest::newRow("v2 header of 4 GiB") << header_too_long << "truncated .npy header";
    QTest::newRow("version 9") << npy_bytes(npy_dict("'<f4'", "(2, 2)"), some, 9) << "version 9";
}

void TestHostileInputs::npy_declaring_huge_shape() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QString error;
    const Matrix m = parse_npy_matrix(bytes, &error);
    QVERIFY2(error.contains(problem), qPrintable(error));
    QVERIFY(m.data.empty());
}

void TestHostileInputs::npy_unsupported_dtype_data() {
    QTest::addColumn<QByteArray>("descr");
    for (const char* d : {"'|u1'", "'<u4'", "'<f2'", "'<c8'", "'|b1'", "'<U3'", "'|O'", "'>i2'", "'<M8[ns]'",
                          "[('a', '<f4')]", "'<f16'", "'<f99999999999'", "''", "None"})
        QTest::newRow(d) << QByteArray(d);
}

void TestHostileInputs::npy_unsupported_dtype() {
    QFETCH(QByteArray, descr);
    QString error;
    const Matrix m = parse_npy_matrix(npy_bytes(npy_dict(descr.constData(), "(2, 2)"), QByteArray(64, '\0')), &error);
    QVERIFY2(error.contains("unsupported dtype"), qPrintable(error));
    QVERIFY(m.data.empty());
}

void TestHostileInputs::csv_garbage_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");  // empty: any message will do
    QByteArray binary;
    for (int i = 0; i < 256; ++i) binary += char(i);
    QTest::newRow("every byte value") << binary << "";
    QTest::newRow("NUL bytes") << QByteArray("1,2\n3,\0\n", 8) << "line 2, column 2: \"\\x00\"";
    QTest::newRow("semicolons and a decimal comma") << QByteArray("1;2,5\n") << "line 1, column 1: \"1;2\"";
    QTest::newRow("quoted text") << QByteArray("\"1\",\"two\"\n") << "line 1, column 2: \"two\" is not a number";
    QTest::newRow("header row without data") << QByteArray("a,b\n") << "line 1, column 1: \"a\"";
    QTest::newRow("tab separated") << QByteArray("1\t2\n") << "\"1\\t2\" is not a number (a tab";
    QTest::newRow("BOM on line 2") << QByteArray("1\n\xEF\xBB\xBF" "2\n") << "\"U+FEFF2\"";
    QTest::newRow("zero-width space") << QByteArray("1,\xE2\x80\x8B" "2\n") << "\"U+200B2\"";
    QTest::newRow("quote never closed") << QByteArray("\"1,2\n3,4\n") << "not closed";
    QTest::newRow("only commas") << QByteArray(",,,\n") << "is empty";
    QTest::newRow("only newlines") << QByteArray("\n\n\n") << "holds no numbers";
    QTest::newRow("only CRLF") << QByteArray("\r\n\r\n") << "holds no numbers";
    QTest::newRow("ragged") << QByteArray("1,2,3\n4,5\n") << "line 2 has 2 values";
    QTest::newRow("blank line inside, then garbage") << QByteArray("1,2\n\n3,x\n") << "line 3, column 2";
    QTest::newRow("hex") << QByteArray("0x1F,2\n") << "not a number";
    QTest::newRow("long garbage cell") << QByteArray(100000, 'z') << "not a number";
    QTest::newRow("1e400 (beyond double)") << QByteArray("1e400\n") << "";
    QTest::newRow("invalid UTF-8") << QByteArray("\xC3\x28,\xFF\xFE\n") << "line 1, column 1";
    QTest::newRow("a million columns of nothing") << QByteArray(1000000, ',') << "";
}

void TestHostileInputs::csv_garbage() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    QString error;
    const Matrix m = parse_csv_matrix(bytes, &error);
    if (error.isEmpty()) {  // only "1e400" may load, as infinity
        QCOMPARE(m.data.size(), std::size_t(m.size()));
        QVERIFY(problem.isEmpty());
        return;
    }
    QVERIFY(m.data.empty());
    QVERIFY2(error.contains(problem), qPrintable(error));
    QVERIFY2(error.size() < 400, "a message must stay readable");  // the long cell is cut in the message
}

void TestHostileInputs::csv_byte_order_mark_is_skipped() {
    for (const QByteArray& text : {QByteArray("\xEF\xBB\xBF" "1,2\n3,4\n"), QByteArray("\xEF\xBB\xBF" "1,2\r\n3,4\r\n")}) {
        QString error;
        const Matrix m = parse_csv_matrix(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(m.rows, 2u);
        QCOMPARE(m.data, std::vector<float>({1, 2, 3, 4}));
    }
}

// Found by the npy fuzz target's round-trip check: -0.0 was written as "0".
void TestHostileInputs::csv_negative_zero_round_trips() {
    const Matrix m = matrix(1, 3, {-0.0f, 0.0f, -kInf});
    QCOMPARE(format_csv_matrix(m), QByteArray("-0,0,-inf\n"));
    QString error;
    const Matrix back = parse_csv_matrix(format_csv_matrix(m), &error);
    QVERIFY(error.isEmpty());
    QVERIFY(std::signbit(back.data[0]) && !std::signbit(back.data[1]));
}

void TestHostileInputs::matrix_file_vanishes_or_turns_unreadable() {
    const QString file = path("vanishing.csv");
    QVERIFY(write_file(file, "1,2\n3,4\n"));
    QVERIFY(load_matrix(file).ok());
    QVERIFY(QFile::remove(file));
    const LoadedMatrix gone = load_matrix(file);
    QVERIFY2(!gone.ok() && gone.error.contains("no such file"), qPrintable(gone.error));

    QTemporaryDir shared_dir;
    QVERIFY(shared_dir.isValid());
    QVERIFY(QFile::setPermissions(shared_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                         QFileDevice::ReadOther | QFileDevice::ExeOther));
    const QString locked = shared_dir.filePath("locked.csv");
    const QString other = shared_dir.filePath("other.csv");
    QVERIFY(write_file(locked, "1,2\n3,4\n"));
    QVERIFY(write_file(other, "1\n2\n"));
    QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
    QVERIFY(QFile::setPermissions(other, QFileDevice::ReadOwner | QFileDevice::ReadOther));
    if (geteuid() != 0) {
        const LoadedMatrix m = load_matrix(locked);
        QVERIFY2(!m.ok() && m.error.contains("cannot be read"), qPrintable(m.error));
        return;
    }
    const RunAs r = run_cli_as_nobody({"matmul", locked, other, shared_dir.filePath("c.csv")});
    if (!r.ran) QSKIP("running as root, and the CLI cannot be run as the user nobody here (no setpriv, or its path is not reachable)");
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("cannot be read") && r.err.contains(locked), qPrintable(r.err));
}

void TestHostileInputs::matrix_pipe_or_device_is_refused() {
    const QString fifo = path("pipe.csv");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const LoadedMatrix from_pipe = load_matrix(fifo);  // used to block in open() until a writer came
    QVERIFY2(!from_pipe.ok() && from_pipe.error.contains("not a regular file"), qPrintable(from_pipe.error));

    const QString device = path("devzero.npy");
    QVERIFY(QFile::link("/dev/zero", device));
    const LoadedMatrix from_device = load_matrix(device);  // used to read /dev/zero until memory ran out
    QVERIFY2(!from_device.ok() && from_device.error.contains("not a regular file"), qPrintable(from_device.error));
}

void TestHostileInputs::nan_and_inf_propagate_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::newRow("naive 16x16") << MatmulLaunch::naive(16, 16);
    QTest::newRow("naive 1x1") << MatmulLaunch::naive(1, 1);
    QTest::newRow("naive 3x5") << MatmulLaunch::naive(3, 5);
    QTest::newRow("tiled 8") << MatmulLaunch::tiled(8);
    QTest::newRow("tiled 16") << MatmulLaunch::tiled(16);
    QTest::newRow("tiled 32") << MatmulLaunch::tiled(32);
}

// NaN in A poisons its row of C; +Inf in A gives +Inf or -Inf by the sign of B's entry, and NaN where
// it meets a zero (Inf * 0); -Inf in B meets +Inf in A's column for NaN (Inf - Inf). Every kernel and
// block shape on the emulator, against float64 with the same IEEE rules.
void TestHostileInputs::nan_and_inf_propagate() {
    QFETCH(MatmulLaunch, launch);
    const Matrix a = matrix(3, 4, {1, kNaN, 2, 3,  //
                                   kInf, 1, -1, 2,  //
                                   0.5f, 0.25f, 4, 1});
    const Matrix b = matrix(4, 5, {2, -3, 0, 1, 1,  //
                                   1, 1, 1, 1, 1,   //
                                   1, 2, 3, 4, 5,   //
                                   1, 1, 1, 1, -kInf});
    MatmulRequest req{a, b, launch, BackendChoice::Cpu};
    const MatmulResult r = run_matmul(req);
    QVERIFY2(r.status, r.status.message().c_str());
    const std::vector<double> want = reference_product(a, b);
    QVERIFY(std::isnan(want[0]) && want[5] == HUGE_VAL && want[6] == -HUGE_VAL && std::isnan(want[7]) &&
            std::isnan(want[9]));  // the cases the matrices are built to show
    const QString mismatch = compare_classes(r.c, want);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));

    // Every kernel gives the same bytes as the naive 16x16 one, NaN and Inf included.
    const MatmulResult naive = run_matmul(MatmulRequest{a, b, MatmulLaunch::naive(16, 16), BackendChoice::Cpu});
    QVERIFY(naive.status);
    QVERIFY(std::memcmp(r.c.data.data(), naive.c.data.data(), r.c.data.size() * sizeof(float)) == 0);
}

void TestHostileInputs::nan_and_inf_from_files_reach_the_output() {
    const QString a_file = path("a.csv"), b_file = path("b.npy"), c_file = path("c.csv");
    QVERIFY(write_file(a_file, "nan,1\n2,inf\n-inf,0\n"));
    QVERIFY(write_file(b_file, npy_bytes(npy_dict("'<f8'", "(2, 2)"),
                                         [] {
                                             const double v[4] = {1, -1, 0.5, 2};
                                             return QByteArray(reinterpret_cast<const char*>(v), sizeof v);
                                         }())));
    const LoadedMatrix a = load_matrix(a_file), b = load_matrix(b_file);
    QVERIFY2(a.ok() && b.ok(), qPrintable(a.error + b.error));
    const MatmulResult r = run_matmul(MatmulRequest{a.matrix, b.matrix, MatmulLaunch::tiled(8), BackendChoice::Cpu});
    QVERIFY(r.status);
    const QString mismatch = compare_classes(r.c, reference_product(a.matrix, b.matrix));
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    // Row 0 NaN; row 1 [2 + inf*0.5, -2 + inf*2] = [inf, inf]; row 2 [-inf, inf].
    QVERIFY(std::isnan(r.c.data[0]) && std::isnan(r.c.data[1]));
    QCOMPARE(r.c.data[2], kInf);
    QCOMPARE(r.c.data[5], kInf);
    QCOMPARE(r.c.data[4], -kInf);
    QCOMPARE(save_matrix(c_file, r.c), QString());
    const LoadedMatrix c = load_matrix(c_file);  // NaN and Inf survive the CSV writer and reader
    QVERIFY2(c.ok(), qPrintable(c.error));
    QVERIFY(compare_classes(c.matrix, reference_product(a.matrix, b.matrix)).isEmpty());
}

// ---- launch shapes ------------------------------------------------------------------------------

void TestHostileInputs::block_text_at_limits_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("problem");  // empty: valid
    QTest::newRow("1024") << "1024" << "";
    QTest::newRow("1025") << "1025" << "blockDim.x = 1025 is outside 1..1024";
    QTest::newRow("1024x1") << "1024x1" << "";
    QTest::newRow("1x1024") << "1x1024" << "";
    QTest::newRow("1x1025") << "1x1025" << "blockDim.y = 1025 is outside 1..1024";
    QTest::newRow("1025x1") << "1025x1" << "blockDim.x = 1025";
    QTest::newRow("32x32") << "32x32" << "";
    QTest::newRow("33x32") << "33x32" << "1056 threads exceeds the limit of 1024";
    QTest::newRow("32x33") << "32x33" << "1056 threads exceeds the limit of 1024";
    QTest::newRow("0") << "0" << "blockDim.x = 0";
    QTest::newRow("0x16") << "0x16" << "blockDim.x = 0";
    QTest::newRow("16x0") << "16x0" << "blockDim.y = 0";
    QTest::newRow("2^32-1") << "4294967295" << "blockDim.x = 4294967295";
    QTest::newRow("2^32") << "4294967296" << "too large";
    QTest::newRow("2^64") << "18446744073709551616x1" << "too large";
    QTest::newRow("-1") << "-1" << "not a block shape";
    QTest::newRow("3-D text") << "8x8x8" << "not a block shape";
    QTest::newRow("empty") << "" << "not a block shape";
    QTest::newRow("decimal") << "256.0" << "not a block shape";
    QTest::newRow("exponent") << "1e3" << "not a block shape";
    QTest::newRow("spaces") << "  16 x 16  " << "";
    QTest::newRow("multiplication sign") << "16\u00D716" << "";
    QTest::newRow("Arabic-Indic digits") << "\u0662\u0665\u0666" << "not a block shape";
}

void TestHostileInputs::block_text_at_limits() {
    QFETCH(QString, text);
    QFETCH(QString, problem);
    const LaunchConfigParse r = parse_launch_config(text);
    if (problem.isEmpty()) {
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(validate_launch_config(r.shape).isEmpty());
    } else {
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(problem), qPrintable(r.error));
    }
}

void TestHostileInputs::block_dimensions_at_limits_data() {
    QTest::addColumn<unsigned>("x");
    QTest::addColumn<unsigned>("y");
    QTest::addColumn<unsigned>("z");
    QTest::addColumn<QString>("problem");
    QTest::newRow("z 64") << 1u << 1u << 64u << "";
    QTest::newRow("z 65") << 1u << 1u << 65u << "blockDim.z = 65 is outside 1..64";
    QTest::newRow("16x1x64 = 1024") << 16u << 1u << 64u << "";
    QTest::newRow("17x1x64 = 1088") << 17u << 1u << 64u << "1088 threads";
    QTest::newRow("z 0") << 1u << 1u << 0u << "blockDim.z = 0";
    QTest::newRow("1024x1024 (each side legal)") << 1024u << 1024u << 1u << "1048576 threads";
    QTest::newRow("2^32-1 cubed") << 0xFFFFFFFFu << 0xFFFFFFFFu << 0xFFFFFFFFu << "blockDim.x";
}

void TestHostileInputs::block_dimensions_at_limits() {
    QFETCH(unsigned, x);
    QFETCH(unsigned, y);
    QFETCH(unsigned, z);
    QFETCH(QString, problem);
    const QString error = QString::fromStdString(validate_block(Dim3{x, y, z}));
    QVERIFY2(problem.isEmpty() ? error.isEmpty() : error.contains(problem), qPrintable(error));
    // The same through the launch-configuration check (a 2-D shape; z is CUDA's, not the lecture's).
    const QString via_config = validate_launch_config(LaunchShape{GrayscaleVariant::TwoD, Dim3{x, y, z}});
    QCOMPARE(via_config.isEmpty(), problem.isEmpty());
}

void TestHostileInputs::grid_at_limits() {
    QVERIFY(validate_grid(Dim3{2147483647u, 65535u, 65535u}).empty());
    QVERIFY(QString::fromStdString(validate_grid(Dim3{2147483648u, 1, 1})).contains("gridDim.x = 2147483648 is outside 1..2147483647"));
    QVERIFY(QString::fromStdString(validate_grid(Dim3{1, 65536u, 1})).contains("gridDim.y = 65536"));
    QVERIFY(QString::fromStdString(validate_grid(Dim3{1, 1, 65536u})).contains("gridDim.z = 65536"));
    QVERIFY(QString::fromStdString(validate_grid(Dim3{0, 1, 1})).contains("gridDim.x = 0"));

    // A 1-D launch of one thread per block over 2^32 pixels needs 2^32 blocks in x: refused by name.
    const QString over = QString::fromStdString(validate_grayscale_launch(LaunchShape::one_d(1), 1u << 20, 1u << 12));
    QVERIFY2(over.contains("4294967296 blocks in x") && over.contains("2147483647"), qPrintable(over));
    // One block fewer than the limit is fine: 2^31 - 1 pixels in one row of 1-thread blocks.
    QVERIFY(validate_grayscale_launch(LaunchShape::one_d(1), 2147483647u, 1).empty());
    QVERIFY(validate_grayscale_launch(LaunchShape::one_d(2), 2147483647u, 2).empty());
    QVERIFY(!validate_grayscale_launch(LaunchShape::one_d(1), 2147483647u, 2).empty());
    // 2-D: x is cdiv(width, blockDim.x), which never passes the limit; y is capped (below).
    QVERIFY(validate_grayscale_launch(LaunchShape::two_d(1, 1), 1u << 20, 1u << 20).empty());
    QCOMPARE(grayscale_grid(LaunchShape::two_d(1, 1), 1u << 20, 1u << 20).y, 65535u);
}

void TestHostileInputs::grayscale_runner_at_block_limits_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<QString>("problem");
    QTest::newRow("1-D 1024") << LaunchShape::one_d(1024) << "";
    QTest::newRow("1-D 1025") << LaunchShape::one_d(1025) << "blockDim.x = 1025";
    QTest::newRow("1-D 1") << LaunchShape::one_d(1) << "";
    QTest::newRow("1-D 0") << LaunchShape::one_d(0) << "blockDim.x = 0";
    QTest::newRow("2-D 1024x1") << LaunchShape::two_d(1024, 1) << "";
    QTest::newRow("2-D 1x1024") << LaunchShape::two_d(1, 1024) << "";
    QTest::newRow("2-D 1x1025") << LaunchShape::two_d(1, 1025) << "blockDim.y = 1025";
    QTest::newRow("2-D 32x32") << LaunchShape::two_d(32, 32) << "";
    QTest::newRow("2-D 33x32") << LaunchShape::two_d(33, 32) << "exceeds the limit of 1024";
    QTest::newRow("2-D 4x4x64") << LaunchShape{GrayscaleVariant::TwoD, Dim3{4, 4, 64}} << "";
    QTest::newRow("2-D 1x1x65") << LaunchShape{GrayscaleVariant::TwoD, Dim3{1, 1, 65}} << "blockDim.z = 65";
    QTest::newRow("1-D with y = 2") << LaunchShape{GrayscaleVariant::OneD, Dim3{16, 2, 1}} << "1-D launch";
}

void TestHostileInputs::grayscale_runner_at_block_limits() {
    QFETCH(LaunchShape, shape);
    QFETCH(QString, problem);
    GrayscaleRequest req;
    req.input = to_rgb_buffer(test_image(37, 23));
    req.shape = shape;
    req.backend = BackendChoice::Cpu;
    const GrayscaleResult r = run_grayscale(req);
    if (problem.isEmpty()) {
        QVERIFY2(r.status, r.status.message().c_str());
        QVERIFY(r.gray == reference_gray(req.input));
    } else {
        QVERIFY(!r.status);
        QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
        QVERIFY2(QString::fromStdString(r.status.message()).contains(problem), r.status.message().c_str());
        QVERIFY(r.gray.empty());
        QVERIFY(r.summary().contains(problem));  // what the window shows
    }
}

void TestHostileInputs::tall_image_caps_grid_y_data() {
    QTest::addColumn<std::uint32_t>("width");
    QTest::addColumn<std::uint32_t>("height");
    QTest::addColumn<LaunchShape>("shape");
    QTest::newRow("1 x 1100000, 2-D 1x16") << 1u << 1100000u << LaunchShape::two_d(1, 16);
    QTest::newRow("1 x 2^20 (the longest side), 2-D 1x1") << 1u << (1u << 20) << LaunchShape::two_d(1, 1);
    QTest::newRow("3 x 65536, 2-D 32x1") << 3u << 65536u << LaunchShape::two_d(32, 1);
}

// Taller than 65535 blocks of rows: gridDim.y is capped and the kernel's grid-stride loop covers the
// rest; every row, the last ones above all, must come out right.
void TestHostileInputs::tall_image_caps_grid_y() {
    QFETCH(std::uint32_t, width);
    QFETCH(std::uint32_t, height);
    QFETCH(LaunchShape, shape);
    RgbBuffer rgb;
    rgb.width = width;
    rgb.height = height;
    rgb.bytes.resize(std::size_t(3) * width * height);
    for (std::size_t i = 0; i < rgb.bytes.size(); ++i) rgb.bytes[i] = std::uint8_t((i * 2654435761u) >> 13);
    QCOMPARE(grayscale_grid(shape, width, height).y, 65535u);
    GrayscaleRequest req;
    req.input = rgb;
    req.shape = shape;
    req.backend = BackendChoice::Cpu;
    const GrayscaleResult r = run_grayscale(req);
    QVERIFY2(r.status, r.status.message().c_str());
    QVERIFY2(r.shape_text.contains("x65535"), qPrintable(r.shape_text));
    const std::vector<std::uint8_t> want = reference_gray(rgb);
    QCOMPARE(r.gray.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        if (r.gray[i] != want[i]) QFAIL(qPrintable(QStringLiteral("pixel %1 (row %2) differs").arg(i).arg(i / width)));
}

void TestHostileInputs::grayscale_runner_rejects_bad_requests() {
    GrayscaleRequest empty;
    empty.shape = LaunchShape::two_d(16, 16);
    empty.backend = BackendChoice::Cpu;
    const GrayscaleResult e = run_grayscale(empty);
    QVERIFY(!e.status);
    QVERIFY2(QString::fromStdString(e.status.message()).contains("empty"), e.status.message().c_str());

    GrayscaleRequest short_buffer = empty;
    short_buffer.input.width = 4;
    short_buffer.input.height = 4;
    short_buffer.input.bytes.assign(47, 0);  // one byte short
    const GrayscaleResult s = run_grayscale(short_buffer);
    QVERIFY(!s.status);
    QVERIFY2(QString::fromStdString(s.status.message()).contains("does not hold"), s.status.message().c_str());

    if (!cuda_device_available()) {  // a CUDA run without a device is an error value, not a crash
        GrayscaleRequest cuda = empty;
        cuda.input = to_rgb_buffer(test_image(8, 8));
        cuda.backend = BackendChoice::Cuda;
        const GrayscaleResult c = run_grayscale(cuda);
        QVERIFY(!c.status);
        QVERIFY(!c.status.message().empty());
        const MatmulResult m = run_matmul(MatmulRequest{matrix(1, 1, {1}), matrix(1, 1, {2}), MatmulLaunch::naive(16, 16),
                                                        BackendChoice::Cuda});
        QVERIFY(!m.status);
        QVERIFY(!m.status.message().empty());
    }
}

void TestHostileInputs::matmul_runner_at_limits_data() {
    QTest::addColumn<std::uint32_t>("m");
    QTest::addColumn<std::uint32_t>("k");
    QTest::addColumn<std::uint32_t>("n");
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<QString>("problem");
    QTest::newRow("naive 1024x1") << 5u << 7u << 1030u << MatmulLaunch::naive(1024, 1) << "";
    QTest::newRow("naive 1x1024") << 1030u << 7u << 5u << MatmulLaunch::naive(1, 1024) << "";
    QTest::newRow("naive 32x32") << 33u << 3u << 65u << MatmulLaunch::naive(32, 32) << "";
    QTest::newRow("naive 1x1025") << 5u << 7u << 5u << MatmulLaunch::naive(1, 1025) << "blockDim.y = 1025";
    QTest::newRow("naive 33x32") << 5u << 7u << 5u << MatmulLaunch::naive(33, 32) << "1056 threads";
    QTest::newRow("naive 0x16") << 5u << 7u << 5u << MatmulLaunch::naive(0, 16) << "blockDim.x = 0";
    QTest::newRow("tiled 12") << 5u << 7u << 5u << MatmulLaunch::tiled(12) << "TILE = 12 is not one of 8, 16, 32";
    QTest::newRow("tiled 64") << 5u << 7u << 5u << MatmulLaunch::tiled(64) << "TILE = 64";
    QTest::newRow("grid y 65535 (65535 rows, 1x1)") << 65535u << 1u << 1u << MatmulLaunch::naive(1, 1) << "";
    QTest::newRow("grid y 65536 (65536 rows, 1x1)") << 65536u << 1u << 1u << MatmulLaunch::naive(1, 1) << "gridDim.y = 65536 is outside 1..65535";
    QTest::newRow("grid y 32768 (65536 rows, 1x2)") << 65536u << 1u << 1u << MatmulLaunch::naive(1, 2) << "";
    QTest::newRow("C of 2^32 elements") << 65536u << 1u << 65536u << MatmulLaunch::naive(16, 16) << "too large";
    QTest::newRow("C of 2^29 elements, tiled") << 32768u << 1u << 16384u << MatmulLaunch::tiled(32) << "too large";
    QTest::newRow("empty") << 0u << 3u << 4u << MatmulLaunch::naive(16, 16) << "empty";
    QTest::newRow("K = 0") << 3u << 0u << 4u << MatmulLaunch::tiled(8) << "empty";
}

void TestHostileInputs::matmul_runner_at_limits() {
    QFETCH(std::uint32_t, m);
    QFETCH(std::uint32_t, k);
    QFETCH(std::uint32_t, n);
    QFETCH(MatmulLaunch, launch);
    QFETCH(QString, problem);
    Matrix a, b;
    a.rows = m;
    a.cols = k;
    a.data.resize(a.size());
    b.rows = k;
    b.cols = n;
    b.data.resize(b.size());
    for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] = float(i % 7) - 3;
    for (std::size_t i = 0; i < b.data.size(); ++i) b.data[i] = float(i % 5) * 0.5f;
    const MatmulResult r = run_matmul(MatmulRequest{a, b, launch, BackendChoice::Cpu});
    if (problem.isEmpty()) {
        QVERIFY2(r.status, r.status.message().c_str());
        const MatmulResult ref = run_matmul(MatmulRequest{a, b, MatmulLaunch::naive(16, 16), BackendChoice::Cpu});
        QVERIFY(ref.status);
        QVERIFY(r.c.data == ref.c.data);
    } else {
        QVERIFY(!r.status);
        QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
        QVERIFY2(QString::fromStdString(r.status.message()).contains(problem), r.status.message().c_str());
        QVERIFY(r.c.data.empty());
    }
}

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "tst_hostile_inputs.moc"
