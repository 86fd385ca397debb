// The tensor-core layout the matrices page shows (app/matmul/mma_fragment_layout.h): the fragments of
// mma.m16n8k8 .tf32 against the PTX ISA's figures, and the owner of every output of C against the
// thread that the emulated kernel itself stores it from.
#include <QtTest>

#include <cstdint>
#include <mutex>
#include <vector>

#include "app/matmul/mma_fragment_layout.h"
#include "kernels/emulator/emulate.h"
#include "kernels/emulator/traced_context.h"
#include "kernels/matmul/matmul_variants.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::MatmulVariant)

namespace {

// Records, for every float of C stored, the block and linear thread id that stored it.
struct StoreRecorder {
    const float* c = nullptr;
    std::uint32_t count = 0;
    std::vector<Dim3> block;
    std::vector<unsigned> thread;
    std::vector<int> stores;
    std::mutex mutex;
    void on_access(const EmuContext& ctx, Access access, const void* p, std::size_t bytes) {
        const auto* f = static_cast<const float*>(p);
        if (access != Access::Store || f < c || f >= c + count) return;
        std::lock_guard lock(mutex);
        for (std::size_t i = 0; i < bytes / sizeof(float); ++i) {
            const std::size_t e = std::size_t(f - c) + i;
            block[e] = ctx.block_idx();
            thread[e] = unsigned(linear_thread_id(ctx.thread_idx(), ctx.block_dim()));
            ++stores[e];
        }
    }
    void on_sync(const EmuContext&) {}
};

}  // namespace

class TestMatmulMmaLayout : public QObject {
    Q_OBJECT
private slots:
    void fragments_are_the_ptx_figures_data();
    void fragments_are_the_ptx_figures();
    void every_element_once_and_found_back();
    void warp_tiles_cover_the_block_tile_data();
    void warp_tiles_cover_the_block_tile();
    void owner_is_the_thread_that_stores_data();
    void owner_is_the_thread_that_stores();
    void no_owner_without_tensor_cores();
};

// Rows of the PTX ISA's "MMA .m16n8k8 fragment layout" figures for .tf32 (groupID = lane >> 2,
// threadID_in_group = lane % 4).
void TestMatmulMmaLayout::fragments_are_the_ptx_figures_data() {
    QTest::addColumn<int>("operand");
    QTest::addColumn<uint>("lane");
    QTest::addColumn<uint>("reg");
    QTest::addColumn<uint>("row");
    QTest::addColumn<uint>("col");
    QTest::newRow("A a0 of T0") << int(MmaOperand::A) << 0u << 0u << 0u << 0u;
    QTest::newRow("A a1 of T0: row + 8") << int(MmaOperand::A) << 0u << 1u << 8u << 0u;
    QTest::newRow("A a2 of T1: col + 4") << int(MmaOperand::A) << 1u << 2u << 0u << 5u;
    QTest::newRow("A a3 of T31") << int(MmaOperand::A) << 31u << 3u << 15u << 7u;
    QTest::newRow("A a0 of T4: next row") << int(MmaOperand::A) << 4u << 0u << 1u << 0u;
    QTest::newRow("B b0 of T0") << int(MmaOperand::B) << 0u << 0u << 0u << 0u;
    QTest::newRow("B b0 of T3: row 3") << int(MmaOperand::B) << 3u << 0u << 3u << 0u;
    QTest::newRow("B b1 of T4: row 4, col 1") << int(MmaOperand::B) << 4u << 1u << 4u << 1u;
    QTest::newRow("B b1 of T31") << int(MmaOperand::B) << 31u << 1u << 7u << 7u;
    QTest::newRow("C c0 of T0") << int(MmaOperand::C) << 0u << 0u << 0u << 0u;
    QTest::newRow("C c1 of T1: cols 2 and 3") << int(MmaOperand::C) << 1u << 1u << 0u << 3u;
    QTest::newRow("C c2 of T5: row + 8") << int(MmaOperand::C) << 5u << 2u << 9u << 2u;
    QTest::newRow("C c3 of T31") << int(MmaOperand::C) << 31u << 3u << 15u << 7u;
}

void TestMatmulMmaLayout::fragments_are_the_ptx_figures() {
    QFETCH(int, operand);
    QFETCH(uint, lane);
    QFETCH(uint, reg);
    QFETCH(uint, row);
    QFETCH(uint, col);
    const std::vector<FragmentElement> all = mma_fragment_layout(MmaOperand(operand));
    bool found = false;
    for (const FragmentElement& e : all)
        if (e.lane == lane && e.reg == reg) {
            QCOMPARE(e.row, row);
            QCOMPARE(e.col, col);
            found = true;
        }
    QVERIFY(found);
    const std::optional<FragmentElement> at = mma_fragment_at(MmaOperand(operand), row, col);
    QVERIFY(at);
    QCOMPARE(at->lane, lane);
    QCOMPARE(at->reg, reg);
}

void TestMatmulMmaLayout::every_element_once_and_found_back() {
    for (MmaOperand op : {MmaOperand::A, MmaOperand::B, MmaOperand::C}) {
        const unsigned rows = mma_tile_rows(op), cols = mma_tile_cols(op);
        const std::vector<FragmentElement> all = mma_fragment_layout(op);
        QCOMPARE(all.size(), std::size_t(rows * cols));
        std::vector<int> seen(rows * cols, 0);
        for (const FragmentElement& e : all) {
            QVERIFY(e.row < rows && e.col < cols);
            ++seen[e.row * cols + e.col];
            const std::optional<FragmentElement> back = mma_fragment_at(op, e.row, e.col);
            QVERIFY(back && back->lane == e.lane && back->reg == e.reg);
        }
        for (int s : seen) QCOMPARE(s, 1);
        QVERIFY(!mma_fragment_at(op, rows, 0) && !mma_fragment_at(op, 0, cols));
    }
    QCOMPARE(QString(to_string(MmaOperand::B)), QString("B"));
}

void TestMatmulMmaLayout::warp_tiles_cover_the_block_tile_data() {
    QTest::addColumn<MatmulVariant>("variant");
    QTest::newRow("matmul_tf32") << MatmulVariant::Tf32;
    QTest::newRow("matmul_3xtf32") << MatmulVariant::Tf32x3;
}

void TestMatmulMmaLayout::warp_tiles_cover_the_block_tile() {
    QFETCH(MatmulVariant, variant);
    const MatmulLaunch l = MatmulLaunch::of(variant, matmul_variant_info(variant)->fixed_block, 0);
    const std::vector<WarpTile> tiles = mma_warp_tiles(l);
    const Dim3 block_tile = matmul_output_tile(l);
    QCOMPARE(tiles.size(), std::size_t(l.block_shape().volume() / 32));
    std::vector<int> seen(std::size_t(block_tile.x) * block_tile.y, 0);
    for (const WarpTile& t : tiles) {
        QCOMPARE(t.rows, t.mma_rows * 16);
        QCOMPARE(t.cols, t.mma_cols * 8);
        for (unsigned r = t.row0; r < t.row0 + t.rows; ++r)
            for (unsigned c = t.col0; c < t.col0 + t.cols; ++c) ++seen[std::size_t(r) * block_tile.x + c];
    }
    for (int s : seen) QCOMPARE(s, 1);
}

void TestMatmulMmaLayout::owner_is_the_thread_that_stores_data() {
    QTest::addColumn<MatmulVariant>("variant");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    for (MatmulVariant v : {MatmulVariant::Tf32, MatmulVariant::Tf32x3}) {
        const QString name = QString::fromStdString(matmul_variant_info(v)->name);
        QTest::newRow(qPrintable(name + " 131x261")) << v << 131 << 261;  // odd n: single-float stores
        QTest::newRow(qPrintable(name + " 257x130")) << v << 257 << 130;  // even n: pairs
    }
}

void TestMatmulMmaLayout::owner_is_the_thread_that_stores() {
    QFETCH(MatmulVariant, variant);
    QFETCH(int, m);
    QFETCH(int, n);
    const std::uint32_t k = 9, um = std::uint32_t(m), un = std::uint32_t(n);
    std::vector<float> a(std::size_t(um) * k, 1.0f), b(std::size_t(k) * un, 1.0f), c(std::size_t(um) * un, 0.0f);
    const MatmulLaunch l = MatmulLaunch::of(variant, matmul_variant_info(variant)->fixed_block, 0);
    StoreRecorder rec;
    rec.c = c.data();
    rec.count = um * un;
    rec.block.assign(c.size(), Dim3{});
    rec.thread.assign(c.size(), 0);
    rec.stores.assign(c.size(), 0);
    const MatmulProblem p{a.data(), b.data(), c.data(), um, k, un};
    EmuOptions o;
    o.barriers = true;
    o.shared_bytes = l.shared_bytes();
    const Status s = with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        return emulate(matmul_grid(l, um, un), l.block_shape(), o,
                       [&](const EmuContext& ctx) { Body::run(TracedContext(ctx, rec), p); });
    });
    QVERIFY2(s.is_ok(), s.message().c_str());
    for (std::uint32_t r = 0; r < um; ++r)
        for (std::uint32_t col = 0; col < un; ++col) {
            const std::size_t e = std::size_t(r) * un + col;
            QCOMPARE(c[e], float(k));
            QCOMPARE(rec.stores[e], 1);
            const std::optional<MmaOwner> o2 = mma_owner(l, um, un, r, col);
            QVERIFY(o2);
            QVERIFY2(o2->block.x == rec.block[e].x && o2->block.y == rec.block[e].y,
                     qPrintable(QString("row %1 col %2: block").arg(r).arg(col)));
            QCOMPARE(o2->warp.warp * 32 + o2->element.lane, rec.thread[e]);
            const Dim3 bt = matmul_output_tile(l);
            QCOMPARE(o2->block.y * bt.y + o2->warp.row0 + o2->mi * 16 + o2->element.row, r);
            QCOMPARE(o2->block.x * bt.x + o2->warp.col0 + o2->ni * 8 + o2->element.col, col);
        }
    QVERIFY(!mma_owner(l, um, un, um, 0));
}

void TestMatmulMmaLayout::no_owner_without_tensor_cores() {
    const MatmulLaunch l = MatmulLaunch::naive(16, 16);
    QVERIFY(mma_warp_tiles(l).empty());
    QVERIFY(!mma_owner(l, 10, 10, 1, 1));
}

QTEST_APPLESS_MAIN(TestMatmulMmaLayout)
#include "tst_matmul_mma_layout.moc"
