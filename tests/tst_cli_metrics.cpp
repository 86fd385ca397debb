// cudaviz-cli grayscale/matmul --metrics FILE.json (issue 10, item 3), run as a user runs it: the
// document's shape (all ten Nsight Compute names, integers, in "metrics" and in every line), the
// figures against counts enumerated here from the kernels' index math (gray_1d, matmul_naive), the
// lines summing to the totals, and a bad FILE refused with a message naming it.
#include <QtTest>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <map>
#include <set>

#include "cli_runner.h"
#include "kernels/matmul/matmul_trace.h"

using namespace cvz;
using namespace cvz::test;

namespace {

const char* const kNames[10] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",            "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Every name present as an integer; returns the values by name.
std::map<QString, qint64> ten_metrics(const QJsonObject& metrics, bool& ok) {
    std::map<QString, qint64> v;
    ok = true;
    for (const char* name : kNames) {
        const QJsonValue x = metrics.value(QLatin1String(name));
        if (!x.isDouble() || x.toDouble() != double(qint64(x.toDouble())) || x.toDouble() < 0) ok = false;
        v[QLatin1String(name)] = qint64(x.toDouble());
    }
    return v;
}

void check_document(const QJsonObject& doc, const QString& what) {
    bool ok = false;
    const std::map<QString, qint64> totals = ten_metrics(doc.value("metrics").toObject(), ok);
    QVERIFY2(ok, qPrintable(what + ": a metric is missing or not an integer"));
    const QJsonArray lines = doc.value("lines").toArray();
    QVERIFY2(!lines.isEmpty(), qPrintable(what));
    std::map<QString, qint64> sum;
    for (const QJsonValue& l : lines) {
        const QJsonObject o = l.toObject();
        QVERIFY2(o.value("file").toString().startsWith("kernels/"), qPrintable(o.value("file").toString()));
        QVERIFY(o.value("line").toInt() > 0);
        const std::map<QString, qint64> m = ten_metrics(o.value("metrics").toObject(), ok);
        QVERIFY2(ok, qPrintable(what + ": a line lacks a metric"));
        for (const auto& [k, x] : m) sum[k] += x;
    }
    QVERIFY2(sum == totals, qPrintable(what + ": the lines do not sum to the totals"));
}

// gray_1d, interleaved, blocks of `threads`: per warp with a pixel, three byte loads (R, G, B at
// 3i + c) and one byte store at i; sectors counted with sets.
std::map<QString, qint64> gray_1d_expected(std::uint64_t n, unsigned threads) {
    std::map<QString, qint64> e;
    for (const char* name : kNames) e[QLatin1String(name)] = 0;
    const std::uint64_t blocks = (n + threads - 1) / threads;
    for (std::uint64_t b = 0; b < blocks; ++b)
        for (unsigned w0 = 0; w0 < threads; w0 += 32) {
            std::set<std::uint64_t> s[4];
            for (unsigned t = w0; t < std::min(w0 + 32, threads); ++t) {
                const std::uint64_t i = b * threads + t;
                if (i >= n) continue;
                for (unsigned c = 0; c < 3; ++c) s[c].insert((3 * i + c) / 32);
                s[3].insert(i / 32);
            }
            if (s[3].empty()) continue;
            e[kNames[0]] += 3;
            e[kNames[1]] += qint64(s[0].size() + s[1].size() + s[2].size());
            e[kNames[2]] += 1;
            e[kNames[3]] += qint64(s[3].size());
        }
    return e;
}

// matmul_naive, 2-D block bx x by: per warp with an output, K loads of A (row r, column i), K of B
// (row i, column c) and one store of C, float32.
std::map<QString, qint64> naive_expected(std::uint32_t m, std::uint32_t k, std::uint32_t n, unsigned bx, unsigned by) {
    std::map<QString, qint64> e;
    for (const char* name : kNames) e[QLatin1String(name)] = 0;
    const unsigned gx = (n + bx - 1) / bx, gy = (m + by - 1) / by, threads = bx * by;
    for (unsigned gy_i = 0; gy_i < gy; ++gy_i)
        for (unsigned gx_i = 0; gx_i < gx; ++gx_i)
            for (unsigned w0 = 0; w0 < threads; w0 += 32) {
                std::vector<std::pair<std::uint64_t, std::uint64_t>> rc;
                for (unsigned t = w0; t < std::min(w0 + 32, threads); ++t) {
                    const std::uint64_t r = std::uint64_t(gy_i) * by + t / bx, c = std::uint64_t(gx_i) * bx + t % bx;
                    if (r < m && c < n) rc.push_back({r, c});
                }
                if (rc.empty()) continue;
                for (std::uint64_t i = 0; i < k; ++i) {
                    std::set<std::uint64_t> sa, sb;
                    for (auto [r, c] : rc) {
                        sa.insert(4 * (r * k + i) / 32);
                        sb.insert(4 * (i * n + c) / 32);
                    }
                    e[kNames[0]] += 2;
                    e[kNames[1]] += qint64(sa.size() + sb.size());
                }
                std::set<std::uint64_t> sc;
                for (auto [r, c] : rc) sc.insert(4 * (r * n + c) / 32);
                e[kNames[2]] += 1;
                e[kNames[3]] += qint64(sc.size());
            }
    return e;
}

bool write_csv(const QString& path, std::uint32_t rows, std::uint32_t cols) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    for (std::uint32_t r = 0; r < rows; ++r) {
        QStringList row;
        for (std::uint32_t c = 0; c < cols; ++c) row << QString::number((r * 7 + c * 3) % 11 - 5);
        f.write(row.join(',').toUtf8() + "\n");
    }
    return true;
}

}  // namespace

class TestCliMetrics : public QObject {
    Q_OBJECT
private slots:
    void grayscale_metrics();
    void matmul_metrics();
    void bad_metrics_file_is_refused();
};

void TestCliMetrics::grayscale_metrics() {
    QTemporaryDir dir;
    QImage img(37, 23, QImage::Format_RGB888);
    img.fill(Qt::darkCyan);
    QVERIFY(img.save(dir.filePath("in.png")));
    const CliRun run = run_cli({"grayscale", dir.filePath("in.png"), dir.filePath("out.png"), "--kernel", "gray_1d",
                                "--block", "96", "--backend", "cpu", "--metrics", dir.filePath("m.json")});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QJsonObject doc = read_json(dir.filePath("m.json"));
    check_document(doc, "gray_1d 96");
    bool ok = false;
    QVERIFY(ten_metrics(doc.value("metrics").toObject(), ok) == gray_1d_expected(37 * 23, 96));
    QCOMPARE(doc.value("kernel").toString(), QStringLiteral("gray_1d"));

    // Planar gray_2d: the same document shape; loads of one plane are contiguous, fewer sectors.
    const CliRun planar = run_cli({"grayscale", dir.filePath("in.png"), dir.filePath("out.png"), "--kernel", "gray_2d",
                                   "--block", "7x3", "--layout", "planar", "--backend", "cpu", "--metrics", dir.filePath("p.json")});
    QVERIFY2(planar.code == 0, qPrintable(describe(planar)));
    check_document(read_json(dir.filePath("p.json")), "gray_2d 7x3 planar");
}

void TestCliMetrics::matmul_metrics() {
    QTemporaryDir dir;
    QVERIFY(write_csv(dir.filePath("a.csv"), 97, 33));
    QVERIFY(write_csv(dir.filePath("b.csv"), 33, 61));
    const CliRun run = run_cli({"matmul", dir.filePath("a.csv"), dir.filePath("b.csv"), dir.filePath("c.npy"), "--kernel",
                                "naive", "--block", "16x16", "--backend", "cpu", "--metrics", dir.filePath("n.json")});
    QVERIFY2(run.code == 0, qPrintable(describe(run)));
    const QJsonObject doc = read_json(dir.filePath("n.json"));
    check_document(doc, "naive 16x16");
    bool ok = false;
    QVERIFY(ten_metrics(doc.value("metrics").toObject(), ok) == naive_expected(97, 33, 61, 16, 16));

    // Tiled: shared-memory figures present and the same as the library's trace of that launch.
    const CliRun tiled = run_cli({"matmul", dir.filePath("a.csv"), dir.filePath("b.csv"), dir.filePath("c.npy"), "--kernel",
                                  "tiled", "--tile", "8", "--backend", "cpu", "--metrics", dir.filePath("t.json")});
    QVERIFY2(tiled.code == 0, qPrintable(describe(tiled)));
    const QJsonObject t = read_json(dir.filePath("t.json"));
    check_document(t, "tiled 8");
    const std::map<QString, qint64> got = ten_metrics(t.value("metrics").toObject(), ok);
    QVERIFY(got.at(kNames[4]) > 0 && got.at(kNames[6]) >= got.at(kNames[4]));
    const TraceResult lib = trace_matmul(nullptr, nullptr, 97, 33, 61, MatmulLaunch::tiled(8));
    const auto values = lib.trace.totals.nsight();
    for (std::size_t i = 0; i < 10; ++i) QCOMPARE(got.at(kNames[i]), qint64(values[i]));
}

void TestCliMetrics::bad_metrics_file_is_refused() {
    QTemporaryDir dir;
    QVERIFY(write_csv(dir.filePath("a.csv"), 5, 3));
    QVERIFY(write_csv(dir.filePath("b.csv"), 3, 4));
    const QString bad = dir.filePath("no/such/folder/m.json");
    const CliRun run = run_cli({"matmul", dir.filePath("a.csv"), dir.filePath("b.csv"), dir.filePath("c.npy"), "--backend",
                                "cpu", "--metrics", bad});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("m.json"), qPrintable(describe(run)));
    QVERIFY(!QFile::exists(bad));
    const CliRun missing = run_cli({"grayscale", "in.png", "out.png", "--metrics"});
    QCOMPARE(missing.code, 2);
}

QTEST_APPLESS_MAIN(TestCliMetrics)
#include "tst_cli_metrics.moc"
