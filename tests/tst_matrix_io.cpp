// Matrix files: .npy (every dtype, order and byte order we accept) and CSV, good and bad; saving and
// reading back; the generators; shape checks before a matmul.
#include <QtTest>

#include "npy_bytes.h"

#include <QTemporaryDir>
#include <QFileInfo>
#include <QDir>

#include <cmath>
#include <cstring>

#include "app/io/csv_matrix.h"
#include "app/matmul/matmul_runner.h"
#include "app/io/matrix_generator.h"
#include "app/io/matrix_io.h"
#include "app/io/npy_reader.h"
#include "kernels/matmul/matmul_reference.h"

using namespace cvz;

namespace {

using cvz::test::npy_bytes;

template <class T>
QByteArray raw(const QList<T>& values, bool big_endian = false) {
    QByteArray out;
    for (T v : values) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        if (big_endian) std::reverse(b, b + sizeof(T));
        out.append(b, sizeof(T));
    }
    return out;
}

QByteArray dict(const char* descr, bool fortran, const char* shape) {
    return QByteArray("{'descr': '") + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
}

const QList<float> kExpected23 = {1, 2, 3, 4, 5, 6};  // [[1,2,3],[4,5,6]]

}  // namespace

class TestMatrixIo : public QObject {
    Q_OBJECT
private slots:
    void npy_accepts_data();
    void npy_accepts();
    void npy_rejects_data();
    void npy_rejects();
    void csv_accepts();
    void csv_rejects_data();
    void csv_rejects();
    void matrix_files_data();
    void matrix_files();
    void files_round_trip();
    void load_errors_name_the_file();
    void generator_is_deterministic();
    void lecture_presets();
    void matmul_checks_inner_dimensions();
    void matmul_runs_on_emulator();
};

void TestMatrixIo::npy_accepts_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("<f4 C") << npy_bytes(dict("<f4", false, "(2, 3)"), raw<float>({1, 2, 3, 4, 5, 6}));
    QTest::newRow("<f4 Fortran") << npy_bytes(dict("<f4", true, "(2, 3)"), raw<float>({1, 4, 2, 5, 3, 6}));
    QTest::newRow(">f4 big-endian") << npy_bytes(dict(">f4", false, "(2, 3)"), raw<float>({1, 2, 3, 4, 5, 6}, true));
    QTest::newRow("<f8") << npy_bytes(dict("<f8", false, "(2, 3)"), raw<double>({1, 2, 3, 4, 5, 6}));
    QTest::newRow(">f8 Fortran") << npy_bytes(dict(">f8", true, "(2, 3)"), raw<double>({1, 4, 2, 5, 3, 6}, true));
    QTest::newRow("<i4") << npy_bytes(dict("<i4", false, "(2, 3)"), raw<qint32>({1, 2, 3, 4, 5, 6}));
    QTest::newRow(">i4") << npy_bytes(dict(">i4", false, "(2, 3)"), raw<qint32>({1, 2, 3, 4, 5, 6}, true));
    QTest::newRow("<i8") << npy_bytes(dict("<i8", false, "(2, 3)"), raw<qint64>({1, 2, 3, 4, 5, 6}));
    QTest::newRow("<i8 Fortran") << npy_bytes(dict("<i8", true, "(2, 3)"), raw<qint64>({1, 4, 2, 5, 3, 6}));
    QTest::newRow("version 2.0") << npy_bytes(dict("<f4", false, "(2, 3)"), raw<float>({1, 2, 3, 4, 5, 6}), 2);
}

void TestMatrixIo::npy_accepts() {
    QFETCH(QByteArray, bytes);
    QString error;
    const Matrix m = parse_npy_matrix(bytes, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(m.rows, 2u);
    QCOMPARE(m.cols, 3u);
    QCOMPARE(QList<float>(m.data.begin(), m.data.end()), kExpected23);
}

void TestMatrixIo::npy_rejects_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray six = raw<float>({1, 2, 3, 4, 5, 6});
    QTest::newRow("not npy") << QByteArray("hello, world") << "not a .npy file";
    QTest::newRow("1-D") << npy_bytes(dict("<f4", false, "(6,)"), six) << "1-D";
    QTest::newRow("3-D") << npy_bytes(dict("<f4", false, "(1, 2, 3)"), six) << "3-D";
    QTest::newRow("0-D") << npy_bytes(dict("<f4", false, "()"), six) << "0-D";
    QTest::newRow("complex") << npy_bytes(dict("<c8", false, "(2, 3)"), six + six) << "unsupported dtype '<c8'";
    QTest::newRow("bool") << npy_bytes(dict("|b1", false, "(2, 3)"), QByteArray(6, 1)) << "unsupported dtype '|b1'";
    QTest::newRow("uint8") << npy_bytes(dict("|u1", false, "(2, 3)"), QByteArray(6, 1)) << "unsupported dtype '|u1'";
    QTest::newRow("float16") << npy_bytes(dict("<f2", false, "(2, 3)"), QByteArray(12, 0)) << "unsupported dtype '<f2'";
    QTest::newRow("structured") << npy_bytes("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3), }", six)
                                << "unsupported dtype";
    QTest::newRow("truncated data") << npy_bytes(dict("<f4", false, "(2, 3)"), six.left(20)) << "truncated data";
    QTest::newRow("truncated header") << npy_bytes(dict("<f4", false, "(2, 3)"), six).left(30) << "truncated .npy header";
    QTest::newRow("huge side") << npy_bytes(dict("<f4", false, "(100000000, 100000000)"), six) << "side longer than the limit";
    QTest::newRow("huge count") << npy_bytes(dict("<f4", false, "(1000000, 1000000)"), six) << "exceeds the limit";
    QTest::newRow("zero rows") << npy_bytes(dict("<f4", false, "(0, 3)"), QByteArray()) << "empty";
    QTest::newRow("bad shape") << npy_bytes(dict("<f4", false, "(2, x)"), six) << "malformed shape";
    QTest::newRow("version 9") << [] { QByteArray b = npy_bytes(dict("<f4", false, "(2, 3)"), raw<float>({1, 2, 3, 4, 5, 6})); b[6] = 9; return b; }()
                               << "version 9";
}

void TestMatrixIo::npy_rejects() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QString error;
    const Matrix m = parse_npy_matrix(bytes, &error);
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(m.data.empty());
}

void TestMatrixIo::csv_accepts() {
    QString error;
    Matrix m = parse_csv_matrix("1,2,3\r\n 4 , 5.0 ,6e0\n\n\n", &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(m.rows, 2u);
    QCOMPARE(m.cols, 3u);
    QCOMPARE(QList<float>(m.data.begin(), m.data.end()), kExpected23);
    // Blank lines anywhere, a header row of names, ';' separators, quoted numbers: as pandas reads them.
    for (const QByteArray& text : {QByteArray("\n1,2,3\n\n \t \n4,5,6\n"), QByteArray("a, b ,c\r\n1,2,3\r\n4,5,6\r\n"),
                                   QByteArray("1;2;3\n4;5;6\n"), QByteArray("\"1\",\"2\", \"3\"\n4,\"5\",6\n")}) {
        m = parse_csv_matrix(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(m.rows, 2u);
        QCOMPARE(QList<float>(m.data.begin(), m.data.end()), kExpected23);
    }
    m = parse_csv_matrix("nan,inf,-inf\n-1.5,0,1e-3", &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(std::isnan(m.data[0]) && m.data[1] == INFINITY && m.data[2] == -INFINITY);
    QCOMPARE(m.data[5], 1e-3f);
}

void TestMatrixIo::csv_rejects_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray("") << "no numbers";
    QTest::newRow("blank lines") << QByteArray("\n\n \n") << "no numbers";
    QTest::newRow("ragged") << QByteArray("1,2,3\n4,5\n") << "line 2 has 2 values but line 1 has 3";
    QTest::newRow("word") << QByteArray("1,2\n3,abc\n") << "line 2, column 2: \"abc\" is not a number";
    QTest::newRow("empty cell") << QByteArray("1,,3\n") << "line 1, column 2 is empty";
    QTest::newRow("unclosed quote") << QByteArray("1,\"2\n") << "line 1, column 2: a '\"' opens a quoted value";
    QTest::newRow("only a header") << QByteArray("a,b\n") << "line 1, column 1: \"a\" is not a number";
}

void TestMatrixIo::csv_rejects() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QString error;
    parse_csv_matrix(bytes, &error);
    QVERIFY2(error.contains(message), qPrintable(error));
}

// Files in tests/data/matrices, each showing one rule of the loaders: what loads (with its shape)
// and what is refused, with the message naming the file and the problem, invisible characters
// escaped.
void TestMatrixIo::matrix_files_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rows");  // 0: refused with `message`
    QTest::addColumn<int>("cols");
    QTest::addColumn<QString>("message");
    // .npy: exactly the keys descr, fortran_order and shape, as Python literals; nothing after the data.
    QTest::newRow("npy good") << "good_2x3.npy" << 2 << 3 << "";
    QTest::newRow("npy double quotes, no trailing comma") << "double_quotes_no_trailing_comma.npy" << 2 << 2 << "";
    QTest::newRow("npy extra key") << "extra_key.npy" << 0 << 0
                                   << "an extra key 'comment' (only 'descr', 'fortran_order' and 'shape' are allowed)";
    QTest::newRow("npy expression") << "expression_in_shape.npy" << 0 << 0 << "malformed shape (2*1, 2) (not a Python literal";
    QTest::newRow("npy call") << "call_in_descr.npy" << 0 << 0
                              << "the .npy header's 'descr' is not a Python literal: __import__('os').getcwd()";
    QTest::newRow("npy missing key") << "missing_shape.npy" << 0 << 0 << "the .npy header lacks the key 'shape'";
    QTest::newRow("npy key twice") << "key_twice.npy" << 0 << 0 << "the .npy header gives the key 'shape' twice";
    QTest::newRow("npy list for shape") << "list_shape.npy" << 0 << 0 << "malformed shape [2, 2]";
    QTest::newRow("npy fortran_order 0") << "fortran_order_not_bool.npy" << 0 << 0
                                         << "'fortran_order' must be True or False, not 0";
    QTest::newRow("npy text after dict") << "text_after_dict.npy" << 0 << 0 << "text after its dict: + 1";
    QTest::newRow("npy data beyond shape") << "data_beyond_shape.npy" << 0 << 0
                                           << "4 bytes after the data: 2x2 of 4-byte elements needs 16 bytes, the file has 20";
    // CSV: blank lines skipped, a header row of names skipped, ';' or quoted numbers read; what is
    // not read says what was found and what is expected.
    QTest::newRow("csv blank lines") << "blank_lines.csv" << 2 << 2 << "";
    QTest::newRow("csv header row") << "header_row.csv" << 2 << 2 << "";
    QTest::newRow("csv semicolons") << "semicolons.csv" << 2 << 2 << "";
    QTest::newRow("csv quoted numbers") << "quoted_numbers.csv" << 2 << 2 << "";
    QTest::newRow("csv decimal commas") << "decimal_commas.csv" << 0 << 0
                                        << "line 2, column 1: \"1,5\" is not a number (a decimal comma? write decimals with '.')";
    QTest::newRow("csv mixed separators") << "mixed_separators.csv" << 0 << 0
                                          << "line 1, column 2: \"5;2\" is not a number (';' inside";
    QTest::newRow("csv tabs") << "tabs.csv" << 0 << 0
                              << "line 1, column 1: \"1\\t2\" is not a number (a tab: values must be separated by ',')";
    QTest::newRow("csv NUL") << "nul_byte.csv" << 0 << 0 << "line 2, column 2: \"\\x00\" is not a number";
    QTest::newRow("csv BOM inside") << "bom_inside.csv" << 0 << 0
                                    << "line 2, column 1: \"U+FEFF3\" is not a number (a byte-order mark inside";
    QTest::newRow("csv unclosed quote") << "unclosed_quote.csv" << 0 << 0
                                        << "line 1, column 1: a '\"' opens a quoted value that is not closed";
    QTest::newRow("csv header only") << "header_only.csv" << 0 << 0 << "line 1, column 1: \"x\" is not a number";
    QTest::newRow("csv header wider than rows") << "header_longer_than_rows.csv" << 0 << 0
                                                << "line 2 has 2 values but line 1 has 3";
}

void TestMatrixIo::matrix_files() {
    QFETCH(QString, file);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(QString, message);
    const QString path = QStringLiteral(CUDAVIZ_SOURCE_DIR "/tests/data/matrices/") + file;
    QVERIFY2(QFileInfo::exists(path), qPrintable(path));
    const LoadedMatrix m = load_matrix(path);
    if (rows == 0) {
        QVERIFY(!m.ok());
        QVERIFY(m.matrix.data.empty());
        QVERIFY2(m.error.startsWith(QDir::toNativeSeparators(path) + QStringLiteral(": ")), qPrintable(m.error));
        QVERIFY2(m.error.contains(message), qPrintable(m.error));
        return;
    }
    QVERIFY2(m.ok(), qPrintable(m.error));
    QCOMPARE(int(m.matrix.rows), rows);
    QCOMPARE(int(m.matrix.cols), cols);
    for (int i = 0; i < rows * cols; ++i) QCOMPARE(m.matrix.data[std::size_t(i)], float(i + 1));
}

void TestMatrixIo::files_round_trip() {
    QTemporaryDir dir;
    const Matrix m = random_matrix(7, 13, 42);
    for (const char* name : {"m.npy", "m.csv"}) {
        const QString path = dir.filePath(name);
        QCOMPARE(save_matrix(path, m), QString());
        const LoadedMatrix back = load_matrix(path);
        QVERIFY2(back.ok(), qPrintable(back.error));
        QCOMPARE(back.matrix.rows, 7u);
        QCOMPARE(back.matrix.cols, 13u);
        QVERIFY2(back.matrix.data == m.data, name);  // exact: 9 significant digits in CSV
    }
    QVERIFY(save_matrix(dir.filePath("m.txt"), m).contains("unsupported output type"));
    QVERIFY(save_matrix(dir.filePath("missing/dir/m.csv"), m).contains("missing"));
}

void TestMatrixIo::load_errors_name_the_file() {
    QTemporaryDir dir;
    const QString empty = dir.filePath("empty.csv");
    QFile(empty).open(QIODevice::WriteOnly);
    QVERIFY(load_matrix(empty).error.contains("empty.csv: the file is empty"));
    QVERIFY(load_matrix(dir.filePath("nope.npy")).error.contains("nope.npy: no such file"));
    QVERIFY(load_matrix(dir.filePath("x.mat")).error.contains("unsupported matrix file type"));
    QDir(dir.path()).mkdir("d.csv");
    QVERIFY(load_matrix(dir.filePath("d.csv")).error.contains("directory"));
    const QString bad = dir.filePath("bad.npy");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(npy_bytes(dict("<f4", false, "(4, 4)"), raw<float>({1, 2})));
    f.close();
    const LoadedMatrix l = load_matrix(bad);
    QVERIFY2(l.error.startsWith(QDir::toNativeSeparators(bad)) && l.error.contains("truncated data"), qPrintable(l.error));
}

void TestMatrixIo::generator_is_deterministic() {
    const Matrix a = random_matrix(31, 17, 7), b = random_matrix(31, 17, 7), c = random_matrix(31, 17, 8);
    QCOMPARE(a.data, b.data);
    QVERIFY(a.data != c.data);
    for (float x : a.data) QVERIFY(x >= -1.0f && x < 1.0f);
    // The first values pin the generator so that a library change cannot silently alter saved problems.
    QCOMPARE(random_matrix(1, 1, 0).data[0], float(std::int32_t(std::mt19937(0)() >> 8) - (1 << 23)) / float(1 << 23));
}

void TestMatrixIo::lecture_presets() {
    const auto presets = lecture_matmul_presets();
    QCOMPARE(presets.size(), 2);
    QCOMPARE(presets[0].m, 5u);
    QCOMPARE(presets[0].k, 784u);
    QCOMPARE(presets[0].n, 10u);
    QCOMPARE(presets[1].m, 50000u);
}

void TestMatrixIo::matmul_checks_inner_dimensions() {
    MatmulRequest req;
    req.a = random_matrix(5, 784, 1);
    req.b = random_matrix(783, 10, 2);
    req.backend = BackendChoice::Cpu;
    const MatmulResult r = run_matmul(req);
    QVERIFY(!r.status.is_ok());
    QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
    QVERIFY2(r.summary().contains("A is 5x784 but B is 783x10"), qPrintable(r.summary()));
}

void TestMatrixIo::matmul_runs_on_emulator() {
    MatmulRequest req;
    req.a = random_matrix(5, 784, 1);
    req.b = random_matrix(784, 10, 2);
    req.backend = BackendChoice::Cpu;
    req.launch = MatmulLaunch::tiled(16);
    const MatmulResult r = run_matmul(req);
    QVERIFY2(r.status.is_ok(), qPrintable(r.summary()));
    std::vector<float> ref(50);
    matmul_reference({req.a.data.data(), req.b.data.data(), ref.data(), 5, 784, 10});
    QVERIFY(matmul_max_relative_error(r.c.data.data(), ref.data(), 50) < 1e-4);
    QVERIFY(r.summary().contains("tiled TILE=16 · grid 1x1"));
}

QTEST_GUILESS_MAIN(TestMatrixIo)
#include "tst_matrix_io.moc"
