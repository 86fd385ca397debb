// The Hopper rungs' layouts (kernels/matmul/wgmma_tf32.h, matmul_wgmma.h) and their arithmetic on the
// emulator: the 128-byte swizzle against its bit-level definition, the thread-to-chunk maps (every
// element fetched once, every 16-byte store phase free of bank conflicts), the wgmma accumulator
// layout, and matmul_tf32_wgmma's bytes against matmul_tf32's (the same chain of k8 sums per output).
// On the H200, tst_matmul_cuda compares both rungs with the emulator bit for bit.
#include <QtTest>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_variants.h"
#include "matmul_cases.h"

using namespace cvz;
using namespace cvz::test;

namespace {

using S3 = MatmulWgmmaBody<3>::Tiles;

// 16-byte chunk (0..7) of a 128-byte row that float index i of a swizzled tile falls in: the bank
// group of a 16-byte access (32 banks of 4 bytes = 8 groups of 16 bytes).
unsigned chunk_of(unsigned i) { return (i / 4) % 8; }

std::uint32_t bits_of(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

}  // namespace

class TestMatmulWgmma : public QObject {
    Q_OBJECT
private slots:
    void swizzle_is_the_hardware_pattern();
    void fetches_cover_each_tile_once();
    void store_phases_are_free_of_bank_conflicts();
    void accumulators_cover_the_warpgroup_tile();
    void shared_memory_fits_and_is_aligned();
    void tf32_wgmma_gives_the_mma_bytes_data();
    void tf32_wgmma_gives_the_mma_bytes();
    void catalogue_says_compute_capability_90();
};

// The 128-byte swizzle as the hardware and CUTLASS (Swizzle<3, 4, 3>) define it on byte offsets: bits
// 4-6 XOR bits 7-9. sw128_index must be that permutation of the plain K-major offset.
void TestMatmulWgmma::swizzle_is_the_hardware_pattern() {
    std::vector<int> seen(128 * 32, 0);
    for (unsigned r = 0; r < 128; ++r)
        for (unsigned k = 0; k < 32; ++k) {
            const unsigned plain = (r * 32 + k) * 4;
            const unsigned swizzled = plain ^ (((plain >> 7) & 7u) << 4);
            QCOMPARE(sw128_index(r, k) * 4, swizzled);
            QCOMPARE(sw128_index(r, k) / 32, r);  // stays in its row
            ++seen[sw128_index(r, k)];
        }
    for (int s : seen) QCOMPARE(s, 1);
    QCOMPARE(sw128_index(0, 5), 5u);   // row 0: no swizzle
    QCOMPARE(sw128_index(1, 0), 36u);  // row 1: chunk 0 at chunk 1
    QCOMPARE(sw128_index(9, 31), 9u * 32 + (7u ^ 1u) * 4 + 3);
}

// Every thread's A chunks and 4 x 4 block of B: the 256 threads cover the 128 x 32 tile of A and the
// 32 x 128 tile of B exactly once.
void TestMatmulWgmma::fetches_cover_each_tile_once() {
    std::vector<int> a(S3::BM * S3::BK, 0), b(S3::BK * S3::BN, 0);
    for (unsigned tid = 0; tid < S3::THREADS; ++tid) {
        for (unsigned v = 0; v < S3::A_CHUNKS; ++v) {
            const unsigned r = wgmma_a_chunk_row(tid, v, S3::THREADS), k = wgmma_a_chunk_k(tid, v, S3::THREADS);
            QVERIFY(r < S3::BM && k + 3 < S3::BK && k % 4 == 0);
            for (unsigned q = 0; q < 4; ++q) ++a[r * S3::BK + k + q];
        }
        const unsigned k0 = wgmma_b_block_k(tid), n0 = wgmma_b_block_n(tid);
        QVERIFY(k0 + 3 < S3::BK && n0 + 3 < S3::BN && k0 % 4 == 0 && n0 % 4 == 0);
        for (unsigned i = 0; i < 4; ++i)
            for (unsigned j = 0; j < 4; ++j) ++b[(k0 + i) * S3::BN + n0 + j];
    }
    for (int x : a) QCOMPARE(x, 1);
    for (int x : b) QCOMPARE(x, 1);
}

// A warp's 16-byte stores go to shared memory in phases of 8 lanes (128 bytes); a phase is free of bank
// conflicts when its 8 lanes hit 8 different 16-byte chunks. Checked for every warp, every store of A
// (v) and of B (column j of the thread's block).
void TestMatmulWgmma::store_phases_are_free_of_bank_conflicts() {
    for (unsigned warp = 0; warp < S3::THREADS / 32; ++warp)
        for (unsigned phase = 0; phase < 4; ++phase) {
            for (unsigned v = 0; v < S3::A_CHUNKS; ++v) {
                std::set<unsigned> chunks;
                for (unsigned l = 8 * phase; l < 8 * phase + 8; ++l) {
                    const unsigned tid = warp * 32 + l;
                    chunks.insert(chunk_of(sw128_index(wgmma_a_chunk_row(tid, v, S3::THREADS), wgmma_a_chunk_k(tid, v, S3::THREADS))));
                }
                QCOMPARE(chunks.size(), std::size_t(8));
            }
            for (unsigned j = 0; j < 4; ++j) {
                std::set<unsigned> chunks;
                for (unsigned l = 8 * phase; l < 8 * phase + 8; ++l) {
                    const unsigned tid = warp * 32 + l;
                    chunks.insert(chunk_of(sw128_index(wgmma_b_block_n(tid) + j, wgmma_b_block_k(tid))));
                }
                QCOMPARE(chunks.size(), std::size_t(8));
            }
        }
}

// The m64n128 accumulators of a warpgroup: 128 threads x 64 registers, each element of the 64 x 128
// tile once; warp w holds rows 16w..16w+15 (the PTX ISA's "wgmma .m64nNk8 D fragment" figure), and a
// thread's register pairs are adjacent columns (the 8-byte stores).
void TestMatmulWgmma::accumulators_cover_the_warpgroup_tile() {
    std::vector<int> seen(WgmmaShape::M * WgmmaShape::N, 0);
    for (unsigned t = 0; t < WgmmaShape::THREADS; ++t)
        for (unsigned reg = 0; reg < WgmmaShape::C_REGS; ++reg) {
            const unsigned r = wgmma_c_row(t, reg), c = wgmma_c_col(t, reg);
            QVERIFY(r < WgmmaShape::M && c < WgmmaShape::N);
            QCOMPARE(r / 16, t / 32);
            if (reg % 2 == 1) QCOMPARE(c, wgmma_c_col(t, reg - 1) + 1);
            ++seen[r * WgmmaShape::N + c];
        }
    for (int s : seen) QCOMPARE(s, 1);
    // Thread 0: rows 0 and 8 of columns 0, 1, then 8, 9; thread 5: row 1, columns 2, 3.
    QCOMPARE(wgmma_c_row(0, 2), 8u);
    QCOMPARE(wgmma_c_col(0, 4), 8u);
    QCOMPARE(wgmma_c_row(5, 0), 1u);
    QCOMPARE(wgmma_c_col(5, 1), 3u);
    QCOMPARE(wgmma_c_row(127, 63), 63u);
    QCOMPARE(wgmma_c_col(127, 63), 127u);
}

// Two stages of PARTS tiles and the raw slots fit the H200's 227 KiB a block, with room to align the
// first to 1024 bytes.
void TestMatmulWgmma::shared_memory_fits_and_is_aligned() {
    QCOMPARE(S3::SHARED_BYTES, std::size_t(2 * 6 * 16384 + 2 * 16384 + 1024));  // two stages, the raw slots
    QVERIFY(S3::SHARED_BYTES <= 227u * 1024);
    QCOMPARE(MatmulWgmmaBody<1>::Tiles::SHARED_BYTES, std::size_t(2 * 2 * 16384 + 2 * 16384 + 1024));
    QCOMPARE((S3::STAGE_FLOATS * sizeof(float)) % 1024, std::size_t(0));
}

void TestMatmulWgmma::tf32_wgmma_gives_the_mma_bytes_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    for (const Shape& s : QList<Shape>{{131, 77, 139}, {1, 33, 257}, {200, 9, 3}, {129, 64, 128}})
        QTest::newRow(qPrintable(shape_name(s))) << int(s.m) << int(s.k) << int(s.n);
}

// Per output, matmul_tf32's mma.sync and matmul_tf32_wgmma's wgmma make the same chain of k8 sums from
// the same TF32 operands: the same bytes, though the tiles, the fragments and the shared layouts differ.
void TestMatmulWgmma::tf32_wgmma_gives_the_mma_bytes() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const Shape s{std::uint32_t(m), std::uint32_t(k), std::uint32_t(n)};
    const auto a = random_matrix(std::uint64_t(m) * k, 41), b = random_matrix(std::uint64_t(k) * n, 42);
    const auto run = [&](MatmulVariant v) {
        std::vector<float> c(std::size_t(m) * n, NAN);
        const Status st = matmul_emulated({a.data(), b.data(), c.data(), s.m, s.k, s.n},
                                          MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, 0));
        if (!st) qFatal("%s", st.message().c_str());
        return c;
    };
    const std::vector<float> mma = run(MatmulVariant::Tf32), wgmma = run(MatmulVariant::Tf32Wgmma);
    for (std::size_t i = 0; i < mma.size(); ++i)
        QVERIFY2(bits_of(mma[i]) == bits_of(wgmma[i]),
                 qPrintable(QString("row %1 col %2: %3 vs %4").arg(i / n).arg(i % n).arg(double(mma[i]), 0, 'g', 9).arg(double(wgmma[i]), 0, 'g', 9)));
}

// The catalogue tells the launchers and the panels that the GPU runs them on 9.0 only; the other rungs
// run anywhere.
void TestMatmulWgmma::catalogue_says_compute_capability_90() {
    for (const KernelInfo& info : matmul_catalogue()) {
        const bool wgmma = info.name == "matmul_tf32_wgmma" || info.name == "matmul_3xtf32_wgmma";
        QCOMPARE(info.arch_specific, wgmma ? 90u : 0u);
        if (wgmma) {
            QVERIFY(!info.exact);
            QCOMPARE(info.fixed_block.volume(), 256u);
            QCOMPARE(matmul_tensor_core_passes(MatmulLaunch::of(MatmulVariant(info.variant), info.fixed_block, 0)),
                     info.name == "matmul_tf32_wgmma" ? 1u : 3u);
        }
    }
}

QTEST_APPLESS_MAIN(TestMatmulWgmma)
#include "tst_matmul_wgmma.moc"
