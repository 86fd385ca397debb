// cudaviz-cli matmul run as a user runs it (QProcess): A and B written as .npy and .csv (generated and
// by hand), every kernel, TILE and block shape checked against the float64 reference and against each
// other byte for byte, .csv output, the missing-barrier lesson, and the documented exit status of each
// kind of failure, with no OUT left behind.
#include <QtTest>

#include "cli_runner.h"
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtEndian>

#include <cstring>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "app/io/matrix.h"
#include "app/io/matrix_generator.h"
#include "app/io/matrix_io.h"
#include "app/io/npy_writer.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_reference.h"

using namespace cvz;

namespace {

using cvz::test::CliRun;
using cvz::test::describe;
using cvz::test::run_cli;

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A .npy 1.0 file with any header dict, padded as NumPy pads it: for shapes and dtypes that
// cudaviz's own writer never produces (1-D, 3-D, beyond the limits).
QByteArray npy_bytes(const QByteArray& dict, const QByteArray& data = {}) {
    QByteArray header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    const quint16 len = qToLittleEndian(quint16(header.size()));
    bytes.append(reinterpret_cast<const char*>(&len), 2);
    return bytes + header + data;
}

QByteArray float_bytes(const std::vector<float>& v) {
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
}

Matrix zeros(std::uint32_t rows, std::uint32_t cols) { return Matrix{rows, cols, std::vector<float>(std::size_t(rows) * cols, 0.0f)}; }

Matrix product(const Matrix& a, const Matrix& b, bool reference) {
    Matrix c = zeros(a.rows, b.cols);
    const MatmulProblem p{a.data.data(), b.data.data(), c.data.data(), a.rows, a.cols, b.cols};
    if (reference)
        matmul_reference(p);
    else if (!matmul_emulated(p, MatmulLaunch::naive(16, 16)))
        c = {};
    return c;
}

// One multiplication problem: its files (named a<key>.*, b<key>.* in the temporary folder), the
// float64 reference and the bytes of this process's emulator run, which every variant must equal.
struct Problem {
    QString a_path;
    QString b_path;
    Matrix reference;
    Matrix expected;
};

}  // namespace

class TestCliMatmul : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void help_mentions_matmul_data();
    void help_mentions_matmul();
    void variants_match_reference_data();
    void variants_match_reference();
    void csv_output_round_trips();
    void hand_written_csv();
    void missing_second_barrier_races_data();
    void missing_second_barrier_races();
    void exit_status_data();
    void exit_status();
    void unwritable_out_leaves_nothing();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    void add_problem(const QString& key, const Matrix& a, const QString& a_ext, const Matrix& b, const QString& b_ext);
    QTemporaryDir dir_;
    QMap<QString, Problem> problems_;
};

void TestCliMatmul::add_problem(const QString& key, const Matrix& a, const QString& a_ext, const Matrix& b,
                                const QString& b_ext) {
    Problem p;
    p.a_path = path("a" + key + "." + a_ext);
    p.b_path = path("b" + key + "." + b_ext);
    QCOMPARE(save_matrix(p.a_path, a), QString());
    QCOMPARE(save_matrix(p.b_path, b), QString());
    p.reference = product(a, b, true);
    p.expected = product(a, b, false);
    QCOMPARE(p.expected.size(), a.size() / a.cols * b.cols);
    problems_.insert(key, p);
}

void TestCliMatmul::initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY2(QFile::exists(cvz::test::cli_path()), qPrintable(cvz::test::cli_path()));

    // Odd, non-square sizes; the lecture's MNIST shape; a single element; K > 32 for the race.
    add_problem("97", random_matrix(97, 33, 1), "npy", random_matrix(33, 61, 2), "csv");
    add_problem("5", random_matrix(5, 784, 3), "npy", random_matrix(784, 10, 4), "npy");
    add_problem("37", random_matrix(37, 70, 5), "csv", random_matrix(70, 29, 6), "npy");
    QVERIFY(!QTest::currentTestFailed());
    // 1x1 by hand, as a user would type it: 0.75 * -2.5 = -1.875, exact in float.
    QVERIFY(write_file(path("a1.csv"), "0.75\n"));
    QVERIFY(write_file(path("b1.csv"), " -2.5 \r\n\r\n"));
    problems_.insert("1", Problem{path("a1.csv"), path("b1.csv"), Matrix{1, 1, {-1.875f}}, Matrix{1, 1, {-1.875f}}});

    // Inputs to reject.
    QVERIFY(write_file(path("garbage.npy"), "not a NumPy file, whatever the name says\n"));
    QVERIFY(write_file(path("empty.csv"), ""));
    QVERIFY(write_file(path("ragged.csv"), "1,2,3\n4,5\n"));
    QVERIFY(write_file(path("words.csv"), "1,2\n3,abc\n"));
    QVERIFY(write_file(path("a.txt"), "1,2\n3,4\n"));
    QVERIFY(write_file(path("vector.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                                                     float_bytes({1, 2, 3}))));
    QVERIFY(write_file(path("cube.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2), }",
                                                   float_bytes(std::vector<float>(8, 1.0f)))));
    QVERIFY(write_file(path("half.npy"), npy_bytes("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }",
                                                   QByteArray(8, '\0'))));
    const std::uint8_t bytes[4] = {1, 2, 3, 4};
    QCOMPARE(write_npy_u8(path("bytes.npy"), bytes, 2, 2), QString());
    // Headers beyond the limits, with no data: the loader must refuse them before allocating.
    QVERIFY(write_file(path("tall_side.npy"),
                       npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (16777217, 1), }")));
    QVERIFY(write_file(path("huge.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (20000, 20000), }")));
    QVERIFY(QDir(dir_.path()).mkdir("folder.npy"));
    // Inputs within the limits whose product is not: 32768 x 16384 = 2^29 elements.
    QCOMPARE(save_matrix(path("tall.npy"), zeros(32768, 1)), QString());
    QCOMPARE(save_matrix(path("wide.npy"), zeros(1, 16384)), QString());
    // 65536 rows: with a 1024x1 block the grid needs gridDim.y = 65536 > 65535.
    QCOMPARE(save_matrix(path("column.npy"), zeros(65536, 1)), QString());
}

void TestCliMatmul::help_mentions_matmul_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("--help") << QStringList{"--help"}
                            << QStringList{"grayscale IN OUT", "matmul A B OUT", "--no-second-barrier", "info",
                                           "Exit status", "3  device or runtime failure"};
    QTest::newRow("matmul --help") << QStringList{"matmul", "--help"}
                                   << QStringList{"Usage: cudaviz-cli", "matmul A B OUT", "--kernel <NAME>", "matmul_naive", "matmul_tiled",
                                                  "--tile <8|16|32>", "--block <XxY>", "--backend <auto|cpu|cuda>",
                                                  "--no-second-barrier", "__syncthreads()", ".npy", ".csv",
                                                  "Exit status", "1  input rejected", "2  bad usage",
                                                  "3  device or runtime failure"};
    QTest::newRow("matmul -h") << QStringList{"matmul", "-h"} << QStringList{"matmul A B OUT"};
}

void TestCliMatmul::help_mentions_matmul() {
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, mentions);
    const CliRun run = run_cli(arguments);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
    for (const QString& m : mentions) QVERIFY2(run.out.contains(m), qPrintable(m + " missing from\n" + run.out));
}

void TestCliMatmul::variants_match_reference_data() {
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("launch");  // what the summary line must name
    QTest::addColumn<bool>("needs_cuda");
    for (const QString problem : {"97", "5", "1"}) {
        for (const QString backend : {"cpu", "cuda"}) {
            const bool cuda = backend == "cuda";
            const QString name = problem + " " + backend + " ";
            for (const QString block : {"16x16", "7x3", "32x8"})
                QTest::newRow(qPrintable(name + "naive " + block))
                    << problem << QStringList{"--backend", backend, "--kernel", "naive", "--block", block}
                    << "naive " + block << cuda;
            for (const QString tile : {"8", "16", "32"})
                QTest::newRow(qPrintable(name + "tiled " + tile))
                    << problem << QStringList{"--backend", backend, "--kernel", "tiled", "--tile", tile}
                    << "tiled TILE=" + tile << cuda;
        }
        QTest::newRow(qPrintable(problem + " defaults")) << problem << QStringList{} << "naive 16x16" << false;
        QTest::newRow(qPrintable(problem + " tiled default tile"))
            << problem << QStringList{"--kernel", "tiled"} << "tiled TILE=16" << false;
        QTest::newRow(qPrintable(problem + " upper-case values"))
            << problem << QStringList{"--kernel", "NAIVE", "--block", "8X4", "--backend", "CPU"} << "naive 8x4" << false;
    }
}

// Invariant 2: every backend, kernel, TILE and block gives the same bytes, within 1e-4 of the float64
// reference. The bytes are compared with one emulator run in this process, so all variants are
// byte-identical to each other.
void TestCliMatmul::variants_match_reference() {
    QFETCH(QString, problem);
    QFETCH(QStringList, options);
    QFETCH(QString, launch);
    QFETCH(bool, needs_cuda);
    if (needs_cuda && !cuda_device_available()) QSKIP("no CUDA device");
    const Problem& p = problems_[problem];
    const QString out = path("variant.npy");
    QFile::remove(out);

    const CliRun run = run_cli(QStringList{"matmul", p.a_path, p.b_path, out} + options);
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
    QCOMPARE(run.out.count('\n'), 1);  // the one-line summary
    QVERIFY2(run.out.contains(launch), qPrintable(run.out));
    const bool on_gpu = needs_cuda || (!options.contains("cpu", Qt::CaseInsensitive) && cuda_device_available());
    QVERIFY2(run.out.startsWith(on_gpu ? "CUDA" : "CPU emulator"), qPrintable(run.out));

    const LoadedMatrix got = load_matrix(out);
    QVERIFY2(got.ok(), qPrintable(got.error));
    QCOMPARE(got.matrix.rows, p.reference.rows);
    QCOMPARE(got.matrix.cols, p.reference.cols);
    const double error = matmul_max_relative_error(got.matrix.data.data(), p.reference.data.data(), p.reference.size());
    QVERIFY2(error < 1e-4, qPrintable(QString("relative error %1").arg(error)));
    QVERIFY(std::memcmp(got.matrix.data.data(), p.expected.data.data(), p.expected.size() * sizeof(float)) == 0);
}

void TestCliMatmul::csv_output_round_trips() {
    const Problem& p = problems_["97"];
    const QString csv = path("round.csv");
    const QString npy = path("round.npy");
    for (const QString& out : {csv, npy}) {
        const CliRun run = run_cli({"matmul", p.a_path, p.b_path, out, "--backend", "cpu"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
    }
    QFile text(csv);
    QVERIFY(text.open(QIODevice::ReadOnly));
    QCOMPARE(text.readAll().count('\n'), qsizetype(p.expected.rows));  // one line per row of OUT
    const LoadedMatrix from_csv = load_matrix(csv);
    const LoadedMatrix from_npy = load_matrix(npy);
    QVERIFY2(from_csv.ok(), qPrintable(from_csv.error));
    QVERIFY2(from_npy.ok(), qPrintable(from_npy.error));
    QCOMPARE(from_csv.matrix.rows, 97u);
    QCOMPARE(from_csv.matrix.cols, 61u);
    // Nine significant digits read back as the same float32 bits.
    QVERIFY(from_csv.matrix.data == from_npy.matrix.data);
    QVERIFY(std::memcmp(from_csv.matrix.data.data(), p.expected.data.data(), p.expected.size() * sizeof(float)) == 0);
}

void TestCliMatmul::hand_written_csv() {
    // Spaces, CRLF and a trailing blank line, as a spreadsheet might save them; integers multiply exactly.
    QVERIFY(write_file(path("hand_a.csv"), "1, 2, 3\r\n4, 5, 6\r\n\r\n"));
    QVERIFY(write_file(path("hand_b.csv"), "7,8\n9,10\n11,12\n"));
    for (const QString kernel : {"naive", "tiled"}) {
        const QString out = path("hand_c.csv");
        QFile::remove(out);
        const CliRun run = run_cli({"matmul", path("hand_a.csv"), path("hand_b.csv"), out, "--kernel", kernel});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("58,64\n139,154\n"));
    }
}

void TestCliMatmul::missing_second_barrier_races_data() {
    QTest::addColumn<QString>("tile");
    QTest::addColumn<QString>("backend");
    for (const QString tile : {"8", "16", "32"})
        for (const QString backend : {"auto", "cpu"}) QTest::newRow(qPrintable(tile + " " + backend)) << tile << backend;
}

// K = 70 > TILE: without the second barrier a thread stages the next phase's tiles while others
// still read the current ones, and the emulator reproduces the wrong answer (on --backend auto too,
// which never sends this lesson to the GPU).
void TestCliMatmul::missing_second_barrier_races() {
    QFETCH(QString, tile);
    QFETCH(QString, backend);
    const Problem& p = problems_["37"];
    const QString good = path("race_good.npy");
    const QString raced = path("race_bad.npy");
    const QStringList options{"--kernel", "tiled", "--tile", tile, "--backend", backend};
    const CliRun normal = run_cli(QStringList{"matmul", p.a_path, p.b_path, good} + options);
    QVERIFY2(normal.code == 0, qPrintable(describe(normal)));
    const CliRun race = run_cli(QStringList{"matmul", p.a_path, p.b_path, raced, "--no-second-barrier"} + options);
    QVERIFY2(race.code == 0, qPrintable(describe(race)));
    QVERIFY2(race.out.startsWith("CPU emulator"), qPrintable(race.out));
    QVERIFY2(race.out.contains("tiled TILE=" + tile), qPrintable(race.out));
    QVERIFY2(race.err.contains("__syncthreads()"), qPrintable(describe(race)));  // the note that OUT is wrong

    const LoadedMatrix a = load_matrix(good);
    const LoadedMatrix b = load_matrix(raced);
    QVERIFY2(a.ok() && b.ok(), qPrintable(a.error + b.error));
    QCOMPARE(b.matrix.rows, 37u);
    QCOMPARE(b.matrix.cols, 29u);
    QVERIFY(a.matrix.data == p.expected.data);
    QVERIFY2(a.matrix.data != b.matrix.data, "removing the second barrier changed nothing");
    const double error = matmul_max_relative_error(b.matrix.data.data(), p.reference.data.data(), p.reference.size());
    QVERIFY2(error > 1e-4, qPrintable(QString("relative error only %1").arg(error)));
}

void TestCliMatmul::exit_status_data() {
    // %DIR is the test's temporary folder. `mentions`: what stderr must contain (case-insensitive).
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("code");
    QTest::addColumn<QStringList>("mentions");
    const QString a = "%DIR/a97.npy", b = "%DIR/b97.csv", out = "%DIR/out.npy";
    const QStringList ok{"matmul", a, b, out};
    auto row = [](const char* name, QStringList args, int code, QStringList mentions) {
        QTest::newRow(name) << args << code << mentions;
    };
    // 1: input rejected. Inputs:
    row("A missing", {"matmul", "%DIR/missing.npy", b, out}, 1, {"%DIR/missing.npy", "no such file"});
    row("B missing", {"matmul", a, "%DIR/missing.csv", out}, 1, {"%DIR/missing.csv", "no such file"});
    row("A not a .npy", {"matmul", "%DIR/garbage.npy", b, out}, 1, {"%DIR/garbage.npy", "not a .npy file"});
    row("A empty", {"matmul", "%DIR/empty.csv", b, out}, 1, {"%DIR/empty.csv", "empty"});
    row("A ragged", {"matmul", "%DIR/ragged.csv", b, out}, 1, {"%DIR/ragged.csv", "line 2 has 2 values"});
    row("B not numbers", {"matmul", a, "%DIR/words.csv", out}, 1, {"%DIR/words.csv", "\"abc\" is not a number"});
    row("A 1-D", {"matmul", "%DIR/vector.npy", b, out}, 1, {"%DIR/vector.npy", "1-D", "must be 2-D"});
    row("B 3-D", {"matmul", a, "%DIR/cube.npy", out}, 1, {"%DIR/cube.npy", "3-D"});
    row("A float16", {"matmul", "%DIR/half.npy", b, out}, 1, {"%DIR/half.npy", "unsupported dtype"});
    row("A uint8", {"matmul", "%DIR/bytes.npy", b, out}, 1, {"%DIR/bytes.npy", "unsupported dtype"});
    row("A .txt", {"matmul", "%DIR/a.txt", b, out}, 1, {"%DIR/a.txt", "unsupported matrix file type"});
    row("A a directory", {"matmul", "%DIR/folder.npy", b, out}, 1, {"%DIR/folder.npy", "directory"});
    row("A side beyond the limits", {"matmul", "%DIR/tall_side.npy", b, out}, 1,
        {"%DIR/tall_side.npy", "16777217x1", "limit of 16777216"});
    row("A elements beyond the limits", {"matmul", "%DIR/huge.npy", b, out}, 1,
        {"%DIR/huge.npy", "20000x20000", "exceeds the limit"});
    row("inner dimensions differ", {"matmul", a, "%DIR/b5.npy", out}, 1,
        {"%DIR/a97.npy is 97x33", "%DIR/b5.npy is 784x10", "33 and 784 must match"});
    row("OUT beyond the limits", {"matmul", "%DIR/tall.npy", "%DIR/wide.npy", out}, 1,
        {"%DIR/tall.npy (32768x1)", "%DIR/wide.npy (1x16384)", "32768x16384", "exceeds the limit"});
    row("grid beyond CUDA's limits", {"matmul", "%DIR/column.npy", "%DIR/b1.csv", out, "--block", "1024x1"}, 1,
        {"naive 1024x1", "gridDim.y = 65536"});
    // OUT:
    row("OUT .txt", {"matmul", a, b, "%DIR/out.txt"}, 1, {"%DIR/out.txt", ".npy or .csv"});
    row("OUT .png", {"matmul", a, b, "%DIR/out.png"}, 1, {"%DIR/out.png", ".npy or .csv"});
    row("OUT without extension", {"matmul", a, b, "%DIR/out"}, 1, {"%DIR/out", ".npy or .csv"});
    row("OUT .npy directory missing", {"matmul", a, b, "%DIR/no/such/dir/out.npy"}, 1, {"%DIR/no/such/dir/out.npy"});
    row("OUT .csv directory missing", {"matmul", a, b, "%DIR/no/such/dir/out.csv"}, 1, {"%DIR/no/such/dir/out.csv"});
    row("OUT a directory", {"matmul", a, b, "%DIR/folder.npy"}, 1, {"%DIR/folder.npy"});
    // Launch values:
    row("--block 64x32", ok + QStringList{"--block", "64x32"}, 1, {"--block '64x32'", "1024"});
    row("--block 0x8", ok + QStringList{"--block", "0x8"}, 1, {"--block '0x8'", "blockDim.x = 0"});
    row("--block 256 (1-D)", ok + QStringList{"--block", "256"}, 1, {"--block '256'", "2-D block XxY"});
    row("--block abc", ok + QStringList{"--block", "abc"}, 1, {"--block 'abc'"});
    row("--block 16x16x2", ok + QStringList{"--block", "16x16x2"}, 1, {"--block '16x16x2'"});
    row("--tile 12", ok + QStringList{"--kernel", "tiled", "--tile", "12"}, 1, {"--tile '12'", "8, 16 or 32"});
    row("--tile 0", ok + QStringList{"--kernel", "tiled", "--tile", "0"}, 1, {"--tile '0'", "8, 16 or 32"});
    row("--tile 64", ok + QStringList{"--kernel", "tiled", "--tile", "64"}, 1, {"--tile '64'", "8, 16 or 32"});
    row("--tile -8", ok + QStringList{"--kernel", "tiled", "--tile", "-8"}, 1, {"--tile '-8'", "8, 16 or 32"});
    row("launch checked before the files", {"matmul", "%DIR/missing.npy", b, out, "--block", "64x32"}, 1,
        {"--block '64x32'"});
    // The lesson is the emulator's, whether or not this machine has a GPU.
    row("--no-second-barrier --backend cuda",
        ok + QStringList{"--kernel", "tiled", "--no-second-barrier", "--backend", "cuda"}, 1,
        {"--no-second-barrier", "CPU emulator only"});
    // 2: bad usage
    row("matmul without arguments", {"matmul"}, 2, {"A, B and OUT"});
    row("matmul without B and OUT", {"matmul", a}, 2, {"A, B and OUT"});
    row("matmul without OUT", {"matmul", a, b}, 2, {"A, B and OUT"});
    row("matmul with a fourth file", {"matmul", a, b, out, "extra.npy"}, 2, {"'extra.npy'"});
    row("--kernel foo", ok + QStringList{"--kernel", "foo"}, 2, {"--kernel 'foo'", "matmul_naive, matmul_tiled"});
    row("--backend foo", ok + QStringList{"--backend", "foo"}, 2, {"--backend 'foo'", "auto, cpu or cuda"});
    row("--tile abc", ok + QStringList{"--kernel", "tiled", "--tile", "abc"}, 2, {"--tile 'abc'", "not a number"});
    row("--block with --kernel tiled", ok + QStringList{"--kernel", "tiled", "--block", "16x16"}, 2,
        {"--block applies to --kernel naive", "TILE x TILE"});
    row("--tile with --kernel naive", ok + QStringList{"--kernel", "naive", "--tile", "16"}, 2,
        {"--tile applies to --kernel tiled"});
    row("--tile without --kernel", ok + QStringList{"--tile", "8"}, 2, {"--tile applies to --kernel tiled"});
    row("--no-second-barrier with --kernel naive", ok + QStringList{"--no-second-barrier"}, 2,
        {"--no-second-barrier applies to --kernel tiled"});
    row("unknown option", ok + QStringList{"--frob"}, 2, {"frob"});
    row("--block without value", ok + QStringList{"--block"}, 2, {"block"});
    row("--kernel without value", ok + QStringList{"--kernel"}, 2, {"kernel"});
    row("usage checked before the files", {"matmul", "%DIR/missing.npy", b, out, "--kernel", "foo"}, 2,
        {"--kernel 'foo'"});
    row("unknown command lists matmul", {"frobnicate"}, 2, {"frobnicate", "matmul"});
    // 3: device or runtime failure
    row("--backend cuda naive without a device", ok + QStringList{"--backend", "cuda"}, 3, {"CUDA"});
    row("--backend cuda tiled without a device", ok + QStringList{"--backend", "cuda", "--kernel", "tiled"}, 3,
        {"CUDA"});
}

void TestCliMatmul::exit_status() {
    QFETCH(QStringList, arguments);
    QFETCH(int, code);
    QFETCH(QStringList, mentions);
    if (code == 3 && cuda_device_available()) QSKIP("a CUDA device is present: --backend cuda succeeds here");
    const auto expand = [this](QString s) { return s.replace("%DIR", dir_.path()); };
    for (QString& a : arguments) a = expand(a);
    const QDir dir(dir_.path());
    const QStringList before = dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);

    const CliRun run = run_cli(arguments);
    QVERIFY2(run.code == code, qPrintable(describe(run)));
    QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));  // failures print nothing to stdout
    for (const QString& m : mentions) {
        const QString want = QDir::toNativeSeparators(expand(m));
        QVERIFY2(run.err.contains(want, Qt::CaseInsensitive), qPrintable(want + " missing from\n" + describe(run)));
    }
    // No OUT, and no half-written temporary of one, left behind.
    QCOMPARE(dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
    QVERIFY(QDir(path("folder.npy")).isEmpty());
}

// OUT's folder exists but refuses the file: the failure comes only when the result is saved, after the
// kernel ran, and still leaves nothing behind.
void TestCliMatmul::unwritable_out_leaves_nothing() {
    QDir dir(dir_.path());
    QVERIFY(dir.mkpath("locked"));
    const QString locked = path("locked");
    QVERIFY(QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const auto unlock = qScopeGuard([&] { QFile::setPermissions(locked, QFile::permissions(locked) | QFileDevice::WriteOwner); });
    if (QFile probe(locked + "/probe"); probe.open(QIODevice::WriteOnly)) {
        probe.remove();
        QSKIP("permissions are not enforced for this user (root?)");
    }
    const Problem& p = problems_["97"];
    for (const QString name : {"out.npy", "out.csv"}) {
        const QString out = locked + "/" + name;
        const CliRun run = run_cli({"matmul", p.a_path, p.b_path, out, "--backend", "cpu"});
        QVERIFY2(run.code == 1, qPrintable(describe(run)));
        QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
        QVERIFY2(run.err.contains(QDir::toNativeSeparators(out)), qPrintable(describe(run)));
    }
    QVERIFY(QDir(locked).isEmpty());
}

QTEST_GUILESS_MAIN(TestCliMatmul)
#include "tst_cli_matmul.moc"
