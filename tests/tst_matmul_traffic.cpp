// Memory traffic counted by running the kernel bodies through the traced emulator, against the
// closed forms the matrix view shows (naive: K loads per operand per output; tiled: K/TILE per thread).
#include <QtTest>

#include "app/matmul/matmul_phase_model.h"
#include "app/matmul/matmul_traffic.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/matmul/matmul_trace.h"

#include <set>
#include <utility>

using namespace cvz;

Q_DECLARE_METATYPE(cvz::MatmulLaunch)

class TestMatmulTraffic : public QObject {
    Q_OBJECT
private slots:
    void counted_equals_predicted_data();
    void counted_equals_predicted();
    void tiling_divides_global_loads_by_tile();
    void every_block_writes_the_output_tile_the_view_draws();
};

void TestMatmulTraffic::counted_equals_predicted_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    for (const MatmulLaunch& l : {MatmulLaunch::naive(16, 16), MatmulLaunch::naive(7, 3), MatmulLaunch::tiled(8),
                                  MatmulLaunch::tiled(16), MatmulLaunch::tiled(32)})
        for (auto [m, k, n] : {std::tuple{97, 33, 61}, std::tuple{5, 784, 10}, std::tuple{1, 1, 1}, std::tuple{40, 17, 9}})
            QTest::newRow(qPrintable(QString("%1 %2x%3@%3x%4").arg(QString::fromStdString(to_string(l))).arg(m).arg(k).arg(n)))
                << l << m << k << n;
}

void TestMatmulTraffic::counted_equals_predicted() {
    QFETCH(MatmulLaunch, launch);
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const MatmulTraffic c = measured_matmul_traffic(launch, m, k, n);
    const MatmulTraffic p = predicted_matmul_traffic(launch, m, k, n);
    QCOMPARE(c.global_loads, p.global_loads);
    QCOMPARE(c.global_stores, p.global_stores);
    QCOMPARE(c.shared_loads, p.shared_loads);
    QCOMPARE(c.shared_stores, p.shared_stores);
    QCOMPARE(c.max_global_loads_per_thread, p.max_global_loads_per_thread);
    QCOMPARE(c.barriers, p.barriers);
}

void TestMatmulTraffic::tiling_divides_global_loads_by_tile() {
    const std::uint32_t s = 128;  // a multiple of every tile: no padding
    const auto naive = predicted_matmul_traffic(MatmulLaunch::naive(16, 16), s, s, s);
    for (unsigned t : {8u, 16u, 32u}) {
        const auto tiled = predicted_matmul_traffic(MatmulLaunch::tiled(t), s, s, s);
        QCOMPARE(naive.global_loads / tiled.global_loads, std::uint64_t(t));
        QCOMPARE(tiled.max_global_loads_per_thread, 2ull * s / t);
    }
}

QTEST_APPLESS_MAIN(TestMatmulTraffic)
// The matrix view's output tile of a block (MatmulPhaseModel::output_tile) and the block it names for
// an element of C (matmul_thread_of_element) are the elements the block's threads really store, as
// the traced emulator records them, for every catalogue variant (the register-tiled ones cover a
// block tile larger than the block), on odd sizes, for the first block and the ragged last one.
void TestMatmulTraffic::every_block_writes_the_output_tile_the_view_draws() {
    const std::uint32_t m = 150, k = 37, n = 133;
    for (const KernelInfo& info : family_catalogue(KernelFamily::Matmul)) {
        const MatmulVariant v = MatmulVariant(info.variant);
        const MatmulLaunch launch = info.block == BlockRule::Fixed ? MatmulLaunch::of(v, info.fixed_block, 16)
                                    : info.block == BlockRule::Tile ? MatmulLaunch::of(v, Dim3{16, 16, 1}, 16)
                                                                    : MatmulLaunch::of(v, Dim3{16, 16, 1}, 16);
        const MatmulPhaseModel model(launch, m, k, n);
        QVERIFY(model.valid());
        const Dim3 grid = model.grid();
        for (const std::uint64_t id : {std::uint64_t(0), std::uint64_t(grid.x) * grid.y - 1}) {
            const Dim3 block{unsigned(id % grid.x), unsigned(id / grid.x), 0};
            TraceOptions o;
            o.keep_blocks = {id};
            const TraceResult r = trace_matmul(nullptr, nullptr, m, k, n, launch, o);
            QVERIFY2(r.status.is_ok(), r.status.message().c_str());
            std::set<std::pair<std::uint32_t, std::uint32_t>> stored;
            for (const MemoryRequest& q : r.trace.requests) {
                if (q.block != id || q.space != MemorySpace::Global || q.access != Access::Store) continue;
                QCOMPARE(QString::fromStdString(r.trace.buffers[std::size_t(q.buffer)].name), QStringLiteral("C"));
                for (const LaneAccess& a : q.lanes)
                    for (std::uint64_t byte = a.offset; byte < a.offset + a.bytes; byte += 4)
                        stored.insert({std::uint32_t(byte / 4 / n), std::uint32_t(byte / 4 % n)});
            }
            const MatrixRect tile = model.output_tile(block);
            const QString what = QStringLiteral("%1 block (%2, %3)").arg(QString::fromStdString(info.name)).arg(block.x).arg(block.y);
            QVERIFY2(stored.size() == std::size_t(tile.rows) * tile.cols,
                     qPrintable(what + QStringLiteral(": %1 stored, tile %2x%3").arg(stored.size()).arg(tile.rows).arg(tile.cols)));
            for (const auto& [row, col] : stored) {
                QVERIFY2(row >= tile.row && row < tile.row + tile.rows && col >= tile.col && col < tile.col + tile.cols,
                         qPrintable(what + QStringLiteral(": C[%1, %2] outside its tile").arg(row).arg(col)));
                const MatmulThread t = matmul_thread_of_element(launch, row, col);
                QVERIFY2(t.block.x == block.x && t.block.y == block.y, qPrintable(what + QStringLiteral(": C[%1, %2] named to another block").arg(row).arg(col)));
            }
        }
    }
}

#include "tst_matmul_traffic.moc"
