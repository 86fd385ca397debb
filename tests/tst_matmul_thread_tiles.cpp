// The thread and warp tiles of C the matrix view draws (app/matmul_thread_tiles.h), read off the
// traced stores: checked against the kernels' own index formulas (the lecture's r = by*bdy + ty,
// c = bx*bdx + tx; the blocktiled bodies' rows ty*TM.., columns tx*TN..), and for every catalogue
// variant on odd sizes: each element of a block's tile has exactly one thread, a thread's tile
// holds items_per_thread outputs inside the block, a warp's tile is its lanes' tiles together.
#include <QtTest>

#include "app/matmul/matmul_thread_tiles.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/index_math.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/matmul/matmul_trace.h"

#include <set>
#include <utility>

using namespace cvz;

namespace {

using Cells = std::set<std::pair<std::uint32_t, std::uint32_t>>;

Cells cells_of(const std::vector<MatrixRect>& rects) {
    Cells cells;
    for (const MatrixRect& r : rects)
        for (std::uint32_t i = 0; i < r.rows; ++i)
            for (std::uint32_t j = 0; j < r.cols; ++j)
                if (!cells.insert({r.row + i, r.col + j}).second) return {};  // overlapping rectangles
    return cells;
}

MatmulLaunch launch_of(const KernelInfo& info) {
    const MatmulVariant v = MatmulVariant(info.variant);
    return info.block == BlockRule::Fixed ? MatmulLaunch::of(v, info.fixed_block, 16) : MatmulLaunch::of(v, Dim3{16, 16, 1}, 16);
}

MatmulThreadTiles traced_tiles(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n,
                               std::uint64_t block) {
    TraceOptions o;
    o.keep_blocks = {block};
    const TraceResult r = trace_matmul(nullptr, nullptr, m, k, n, launch, o);
    if (!r.status.is_ok()) return {};
    return MatmulThreadTiles::of_block(r.trace, block, n);
}

}  // namespace

class TestMatmulThreadTiles : public QObject {
    Q_OBJECT
private slots:
    void rects_cover_cells_exactly();
    void lecture_kernels_follow_the_index_formula();
    void blocktiled_threads_own_their_register_tile();
    void every_variant_partitions_its_block_tile();
    void untraced_block_is_empty();
};

void TestMatmulThreadTiles::rects_cover_cells_exactly() {
    // An L, a lone cell, two runs that line up over three rows, and a duplicate.
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> in{
        {0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {5, 7}, {7, 3}, {7, 4}, {8, 3}, {8, 4}, {9, 3}, {9, 4}, {0, 0}};
    const std::vector<MatrixRect> rects = cover_with_rects(in);
    QCOMPARE(cells_of(rects), Cells(in.begin(), in.end()));
    // (0..1, 0) merges into a 2x1 column; row 2 is a 1x3 run; rows 7..9 x columns 3..4 one 3x2 rectangle.
    QCOMPARE(rects.size(), std::size_t(4));
    bool found_block = false;
    for (const MatrixRect& r : rects) found_block |= r.row == 7 && r.col == 3 && r.rows == 3 && r.cols == 2;
    QVERIFY(found_block);
    QVERIFY(cover_with_rects({}).empty());
}

void TestMatmulThreadTiles::lecture_kernels_follow_the_index_formula() {
    const std::uint32_t m = 37, k = 19, n = 29;
    for (const MatmulLaunch& launch : {MatmulLaunch::naive(16, 16), MatmulLaunch::naive(7, 3), MatmulLaunch::naive(32, 1),
                                       MatmulLaunch::tiled(8), MatmulLaunch::tiled(16)}) {
        const Dim3 grid = matmul_grid(launch, m, n), bd = launch.block_shape();
        for (const std::uint64_t id : {std::uint64_t(0), std::uint64_t(grid.x) * grid.y - 1}) {
            const Dim3 block{unsigned(id % grid.x), unsigned(id / grid.x), 0};
            const MatmulThreadTiles tiles = traced_tiles(launch, m, k, n, id);
            QVERIFY(!tiles.empty());
            std::size_t active = 0;
            for (unsigned ty = 0; ty < bd.y; ++ty)
                for (unsigned tx = 0; tx < bd.x; ++tx) {
                    const Dim3 th{tx, ty, 0};
                    const std::uint64_t r = global_row(block, th, bd), c = global_col(block, th, bd);
                    const std::uint32_t t = tx + ty * bd.x;
                    if (r >= m || c >= n) {  // guarded off: stores nothing
                        QCOMPARE(tiles.outputs_of_thread(t), std::size_t(0));
                        continue;
                    }
                    ++active;
                    QCOMPARE(tiles.thread_of(std::uint32_t(r), std::uint32_t(c)), std::optional<std::uint32_t>(t));
                    const std::vector<MatrixRect> own = tiles.thread_tile(t);
                    QCOMPARE(own.size(), std::size_t(1));
                    QCOMPARE(own[0].row, std::uint32_t(r));
                    QCOMPARE(own[0].col, std::uint32_t(c));
                    QCOMPARE(own[0].rows * own[0].cols, 1u);
                }
            QCOMPARE(tiles.outputs(), active);
        }
        // Warp 0 of a 16x16 block: threads 0..31 = two rows of 16 outputs.
        if (bd.x == 16 && bd.y == 16) {
            const std::vector<MatrixRect> w = traced_tiles(launch, m, k, n, 0).warp_tile(0);
            QCOMPARE(w.size(), std::size_t(1));
            QCOMPARE(w[0].rows, 2u);
            QCOMPARE(w[0].cols, 16u);
        }
    }
}

void TestMatmulThreadTiles::blocktiled_threads_own_their_register_tile() {
    // The bodies' own rule: thread (tx, ty) of a (BN/TN) x (BM/TM) block stores rows ty*TM.. and
    // columns tx*TN.. of the block's BM x BN tile (TN = 1 for 1-D blocktiling).
    const std::uint32_t m = 150, k = 37, n = 133;
    struct Case {
        MatmulVariant variant;
        unsigned tm, tn;
    };
    for (const Case& c : {Case{MatmulVariant::Blocktile1d, MatmulBlocktile1dBody::TM, 1},
                          Case{MatmulVariant::Blocktile2d, MatmulBlocktile2dBody::TM, MatmulBlocktile2dBody::TN},
                          Case{MatmulVariant::BlocktileVec, MatmulBlocktileVecBody::TM, MatmulBlocktileVecBody::TN}}) {
        const KernelInfo* info = matmul_variant_info(c.variant);
        QVERIFY(info);
        const MatmulLaunch launch = launch_of(*info);
        const Dim3 bd = launch.block_shape(), per = matmul_output_tile(launch);
        QCOMPARE(bd.x * c.tn, per.x);
        QCOMPARE(bd.y * c.tm, per.y);
        const MatmulThreadTiles tiles = traced_tiles(launch, m, k, n, 0);  // block (0, 0): a full tile
        for (unsigned ty = 0; ty < bd.y; ++ty)
            for (unsigned tx = 0; tx < bd.x; ++tx) {
                const std::uint32_t t = tx + ty * bd.x;
                const std::vector<MatrixRect> own = tiles.thread_tile(t);
                QVERIFY2(own.size() == 1, qPrintable(QString::fromStdString(info->name)));
                QCOMPARE(own[0].row, ty * c.tm);
                QCOMPARE(own[0].col, tx * c.tn);
                QCOMPARE(own[0].rows, c.tm);
                QCOMPARE(own[0].cols, c.tn);
            }
    }
}

void TestMatmulThreadTiles::every_variant_partitions_its_block_tile() {
    const std::uint32_t m = 150, k = 37, n = 261;  // wider than the double buffer's 256: a full block 0
    for (const KernelInfo& info : family_catalogue(KernelFamily::Matmul)) {
        const MatmulLaunch launch = launch_of(info);
        const MatmulPhaseModel model(launch, m, k, n);
        QVERIFY(model.valid());
        const Dim3 grid = model.grid(), bd = launch.block_shape();
        const std::uint32_t threads = bd.x * bd.y * bd.z;
        for (const std::uint64_t id : {std::uint64_t(0), std::uint64_t(grid.x) * grid.y - 1}) {
            const Dim3 block{unsigned(id % grid.x), unsigned(id / grid.x), 0};
            const QString what = QStringLiteral("%1 block %2").arg(QString::fromStdString(info.name)).arg(id);
            const MatmulThreadTiles tiles = traced_tiles(launch, m, k, n, id);
            const MatrixRect tile = model.output_tile(block);
            QVERIFY2(tiles.outputs() == std::size_t(tile.rows) * tile.cols, qPrintable(what));
            Cells by_threads, by_warps;
            for (std::uint32_t t = 0; t < threads; ++t) {
                const Cells own = cells_of(tiles.thread_tile(t));
                QCOMPARE(own.size(), tiles.outputs_of_thread(t));
                // A full block: every thread stores items_per_thread outputs.
                if (id == 0) QVERIFY2(own.size() == info.items_per_thread, qPrintable(what + QStringLiteral(" thread %1").arg(t)));
                for (const auto& [row, col] : own) {
                    QVERIFY2(row >= tile.row && row < tile.row + tile.rows && col >= tile.col && col < tile.col + tile.cols,
                             qPrintable(what));
                    QCOMPARE(tiles.thread_of(row, col), std::optional<std::uint32_t>(t));
                    QVERIFY2(by_threads.insert({row, col}).second, qPrintable(what + QStringLiteral(": two threads store one element")));
                }
            }
            for (std::uint32_t w = 0; w < (threads + 31) / 32; ++w) {
                Cells lanes;
                for (std::uint32_t t = w * 32; t < std::min(threads, w * 32 + 32); ++t) {
                    const Cells own = cells_of(tiles.thread_tile(t));
                    lanes.insert(own.begin(), own.end());
                }
                QCOMPARE(cells_of(tiles.warp_tile(w)), lanes);
                by_warps.insert(lanes.begin(), lanes.end());
            }
            QCOMPARE(by_warps, by_threads);
            QCOMPARE(by_threads.size(), tiles.outputs());
        }
    }
}

void TestMatmulThreadTiles::untraced_block_is_empty() {
    const MatmulLaunch launch = MatmulLaunch::tiled(16);
    TraceOptions o;
    o.keep_blocks = {1};
    const TraceResult r = trace_matmul(nullptr, nullptr, 40, 9, 40, launch, o);
    QVERIFY(r.status.is_ok());
    QVERIFY(MatmulThreadTiles::of_block(r.trace, 0, 40).empty());
    const MatmulThreadTiles kept = MatmulThreadTiles::of_block(r.trace, 1, 40);
    QCOMPARE(kept.outputs(), std::size_t(16 * 16));
    QVERIFY(!kept.thread_of(0, 0));           // block 0's element
    QCOMPARE(kept.thread_of(0, 16), std::optional<std::uint32_t>(0));  // block (1, 0)'s first
}

QTEST_APPLESS_MAIN(TestMatmulThreadTiles)
#include "tst_matmul_thread_tiles.moc"
