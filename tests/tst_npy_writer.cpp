// The .npy writer against the bytes NumPy's np.save writes (format 1.0, spelled out here by hand),
// for uint8 and float32, and its error reporting. When python3 with NumPy is present the files are
// also read back by NumPy; the test does not depend on it.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "app/io/npy_writer.h"

using namespace cvz;

namespace {

QByteArray read_file(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Magic, version 1.0, then HEADER_LEN = 0x0076 = 118 little-endian: every 2-D header NumPy writes
// is 128 bytes (the shape's growth padding makes the length independent of the first dimension).
const QByteArray kPreamble("\x93NUMPY\x01\x00\x76\x00", 10);

// The first python3 that imports numpy: the one on PATH, else the system's (a pyenv shim may lack it).
QString python_with_numpy() {
    for (const QString& candidate : {QStandardPaths::findExecutable("python3"), QString("/usr/bin/python3")}) {
        if (candidate.isEmpty() || !QFileInfo(candidate).isExecutable()) continue;
        QProcess probe;
        probe.start(candidate, {"-c", "import numpy"});
        if (probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
            return candidate;
    }
    return {};
}

}  // namespace

class TestNpyWriter : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void u8_bytes_match_numpy();
    void u8_image_shape_header();
    void f32_bytes_match_numpy();
    void header_is_aligned_data();
    void header_is_aligned();
    void empty_array();
    void replaces_existing_file();
    void reports_io_failure_data();
    void reports_io_failure();
    void numpy_reads_it_back();

private:
    QTemporaryDir dir_;
};

void TestNpyWriter::u8_bytes_match_numpy() {
    const std::vector<std::uint8_t> data = {0, 1, 2, 253, 254, 255};
    const QString file = dir_.filePath("u8.npy");
    QCOMPARE(write_npy_u8(file, data.data(), 2, 3), QString());

    const QByteArray expected = kPreamble + "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }" +
                                QByteArray(58, ' ') + "\n" + QByteArray("\x00\x01\x02\xFD\xFE\xFF", 6);
    QCOMPARE(read_file(file), expected);
}

void TestNpyWriter::u8_image_shape_header() {
    const QByteArray expected = kPreamble + "{'descr': '|u1', 'fortran_order': False, 'shape': (300, 451), }" +
                                QByteArray(54, ' ') + "\n";
    QCOMPARE(npy_header(NpyDtype::U8, 300, 451), expected);  // (H, W): rows first
}

void TestNpyWriter::f32_bytes_match_numpy() {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> data = {1.0f, -2.5f, 0.1f, inf};
    const QString file = dir_.filePath("f32.npy");
    QCOMPARE(write_npy_f32(file, data.data(), 2, 2), QString());

    // IEEE-754 single, little-endian: 1.0 = 3F800000, -2.5 = C0200000, 0.1 = 3DCCCCCD, inf = 7F800000.
    const QByteArray values("\x00\x00\x80\x3F"
                            "\x00\x00\x20\xC0"
                            "\xCD\xCC\xCC\x3D"
                            "\x00\x00\x80\x7F",
                            16);
    const QByteArray expected = kPreamble + "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }" +
                                QByteArray(58, ' ') + "\n" + values;
    QCOMPARE(read_file(file), expected);
}

void TestNpyWriter::header_is_aligned_data() {
    QTest::addColumn<quint64>("rows");
    QTest::addColumn<quint64>("cols");
    QTest::newRow("1x1") << quint64(1) << quint64(1);
    QTest::newRow("1080x1920") << quint64(1080) << quint64(1920);
    QTest::newRow("16384x16384") << quint64(16384) << quint64(16384);
    QTest::newRow("wide") << quint64(1) << quint64(std::numeric_limits<std::uint64_t>::max());
    QTest::newRow("tall") << quint64(std::numeric_limits<std::uint64_t>::max()) << quint64(1);
}

// Whatever the shape: magic and version, HEADER_LEN consistent with the length, a multiple of 64,
// ends in '\n', and the shape spelled as (rows, cols).
void TestNpyWriter::header_is_aligned() {
    QFETCH(quint64, rows);
    QFETCH(quint64, cols);
    for (NpyDtype dtype : {NpyDtype::U8, NpyDtype::F32}) {
        const QByteArray h = npy_header(dtype, rows, cols);
        QVERIFY(h.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)));
        QCOMPARE(h.size() % 64, 0);
        const int header_len = quint8(h[8]) | (quint8(h[9]) << 8);
        QCOMPARE(header_len, int(h.size()) - 10);
        QVERIFY(h.endsWith(" \n"));
        const QByteArray shape = "'shape': (" + QByteArray::number(rows) + ", " + QByteArray::number(cols) + "), }";
        QVERIFY2(h.contains(shape), h.constData());
        QVERIFY(h.contains(dtype == NpyDtype::U8 ? "'descr': '|u1'" : "'descr': '<f4'"));
    }
}

void TestNpyWriter::empty_array() {
    const QString file = dir_.filePath("empty.npy");
    QCOMPARE(write_npy_u8(file, nullptr, 0, 5), QString());
    QCOMPARE(read_file(file), kPreamble + "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 5), }" +
                                  QByteArray(58, ' ') + "\n");
}

void TestNpyWriter::replaces_existing_file() {
    const QString file = dir_.filePath("again.npy");
    const std::vector<std::uint8_t> big(1000, 7), small = {9};
    QCOMPARE(write_npy_u8(file, big.data(), 10, 100), QString());
    QCOMPARE(write_npy_u8(file, small.data(), 1, 1), QString());
    QCOMPARE(read_file(file).size(), 128 + 1);
    QCOMPARE(read_file(file).back(), char(9));
}

void TestNpyWriter::reports_io_failure_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("missing directory") << dir_.filePath("no/such/dir/out.npy");
    QVERIFY(QDir(dir_.path()).mkpath("taken.npy"));
    QTest::newRow("path is a directory") << dir_.filePath("taken.npy");
}

void TestNpyWriter::reports_io_failure() {
    QFETCH(QString, file);
    const std::uint8_t u8[2] = {1, 2};
    const float f32[2] = {1, 2};
    for (const QString& error : {write_npy_u8(file, u8, 1, 2), write_npy_f32(file, f32, 2, 1)}) {
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(QDir::toNativeSeparators(file)), qPrintable(error));
        QVERIFY2(error.startsWith("Cannot write"), qPrintable(error));
    }
}

// An independent reader, when one is installed: NumPy loads both files with the right dtype, shape
// and values, and its own np.save of the same arrays gives the same bytes (NumPy versions that pad
// the header for growth, as 1.24 does).
void TestNpyWriter::numpy_reads_it_back() {
    const QString python = python_with_numpy();
    if (python.isEmpty()) QSKIP("no python3 with NumPy found");

    const std::vector<std::uint8_t> u8 = {0, 1, 2, 253, 254, 255};
    const std::vector<float> f32 = {1.0f, -2.5f, 0.1f, 3.0f, 4.0f, 5.0f};
    QCOMPARE(write_npy_u8(dir_.filePath("np_u8.npy"), u8.data(), 2, 3), QString());
    QCOMPARE(write_npy_f32(dir_.filePath("np_f32.npy"), f32.data(), 3, 2), QString());
    const QString script = QString(
        "import io, numpy as np, sys\n"
        "a = np.load(sys.argv[1]); b = np.load(sys.argv[2])\n"
        "assert a.dtype == np.uint8 and a.shape == (2, 3) and a.tolist() == [[0, 1, 2], [253, 254, 255]], a\n"
        "assert b.dtype == np.float32 and b.shape == (3, 2), b\n"
        "assert (b == np.array([[1, -2.5], [0.1, 3], [4, 5]], dtype=np.float32)).all(), b\n"
        "# NumPy before the header growth padding wrote shorter (equally valid) headers\n"
        "if hasattr(np.lib.format, 'GROWTH_AXIS_MAX_DIGITS'):\n"
        "    for path, array in ((sys.argv[1], a), (sys.argv[2], b)):\n"
        "        out = io.BytesIO(); np.save(out, array)\n"
        "        assert out.getvalue() == open(path, 'rb').read(), 'np.save writes other bytes for ' + path\n");
    QProcess p;
    p.start(python, {"-c", script, dir_.filePath("np_u8.npy"), dir_.filePath("np_f32.npy")});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
}

QTEST_GUILESS_MAIN(TestNpyWriter)
#include "tst_npy_writer.moc"
