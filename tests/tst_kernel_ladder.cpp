// The optimisation ladder's kernels on the emulator: every grayscale variant byte for byte against the
// reference on tails (n not a multiple of 16), on sizes where the 16-byte path runs for planar pixels
// too, and on misaligned buffers (the scalar fallback); every matmul variant byte for byte against
// matmul_naive on odd shapes, on shapes where the float4 path runs, and on misaligned matrices. The
// traced context sees the 16-byte accesses as 16-byte accesses.
#include <QtTest>

#include <cstring>
#include <vector>

#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/emulator/emulate.h"
#include "kernels/emulator/traced_context.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/matmul/matmul_trace.h"
#include "support/random_data.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::MatmulLaunch)

namespace {

using test::random_bytes;
using test::random_floats;

// A block the variant accepts: its fixed block, else a 1-D or 2-D block that does not divide the sizes.
Dim3 block_for(const KernelInfo& k) {
    switch (k.block) {
        case BlockRule::OneD: return Dim3{96, 1, 1};
        case BlockRule::TwoD: return Dim3{16, 8, 1};
        case BlockRule::Tile: return Dim3{k.tiles.front(), k.tiles.front(), 1};
        case BlockRule::Fixed: return k.fixed_block;
    }
    return {};
}

struct CountAccesses {
    std::uint64_t wide = 0, narrow = 0;
    void on_access(const EmuContext&, Access, const void*, std::size_t bytes) { (bytes == 16 ? wide : narrow)++; }
    void on_sync(const EmuContext&) {}
};

}  // namespace

class TestKernelLadder : public QObject {
    Q_OBJECT
private slots:
    void ladder_is_in_the_catalogue();
    void grayscale_ladder_is_exact_data();
    void grayscale_ladder_is_exact();
    void vec16_trace_sees_16_byte_accesses();
    void vec16_grid_stride_covers_any_grid();
    void matmul_ladder_is_exact_data();
    void matmul_ladder_is_exact();
    void blocktiled_grid_covers_the_block_tiles();
    void double_buffer_shared_loads_are_conflict_free();
};

void TestKernelLadder::ladder_is_in_the_catalogue() {
    QVERIFY(family_catalogue(KernelFamily::Grayscale).size() >= 4);
    QVERIFY(family_catalogue(KernelFamily::Matmul).size() >= 6);
    for (const char* name : {"gray_1d_x4", "gray_vec16", "gray_vec16_waves"}) QVERIFY2(find_kernel(KernelFamily::Grayscale, name), name);
    // The waves rung: a grid of at most four waves of the H200 (132 SMs x 2048 threads), else gray_vec16's.
    QCOMPARE(find_kernel(KernelFamily::Grayscale, "gray_vec16_waves")->grid_threads, 4ull * 132 * 2048);
    QCOMPARE(find_kernel(KernelFamily::Grayscale, "gray_vec16")->grid_threads, 0ull);
    const LaunchShape waves = LaunchShape::of(GrayscaleVariant::GrayVec16Waves, Dim3{256, 1, 1});
    QCOMPARE(grayscale_grid(waves, 7680, 4320), (Dim3{4224, 1, 1}));
    QCOMPARE(grayscale_grid(waves, 37, 23), (Dim3{1, 1, 1}));
    QCOMPARE(grayscale_grid(LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{256, 1, 1}), 7680, 4320), (Dim3{8100, 1, 1}));
    for (const char* name :
         {"matmul_blocktile_1d", "matmul_blocktile_2d", "matmul_blocktile_vec", "matmul_warptile", "matmul_double_buffer"}) {
        const KernelInfo* k = find_kernel(KernelFamily::Matmul, name);
        QVERIFY2(k, name);
        QVERIFY(k->exact && k->barriers && k->block == BlockRule::Fixed);
    }
    QCOMPARE(find_kernel(KernelFamily::Grayscale, "gray_vec16")->items_per_thread, 16u);
}

void TestKernelLadder::grayscale_ladder_is_exact_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("layout");
    QTest::addColumn<quint32>("w");
    QTest::addColumn<quint32>("h");
    QTest::addColumn<int>("offset");  // bytes the buffers start past a 16-byte boundary
    // 129x32 and 48x16: n a multiple of 16 (the planar vector path); 37x23, 17x1, 1x15, 131x67: tails.
    const quint32 sizes[][2] = {{129, 32}, {48, 16}, {37, 23}, {17, 1}, {1, 15}, {131, 67}};
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const std::string& layout : k.layouts)
            for (const auto& s : sizes)
                for (int offset : {0, 1, 4})
                    QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3x%4 +%5")
                                                 .arg(QString::fromStdString(k.name), QString::fromStdString(layout))
                                                 .arg(s[0]).arg(s[1]).arg(offset)))
                        << LaunchShape::of(GrayscaleVariant(k.variant), block_for(k))
                        << int(layout == "planar" ? PixelLayout::Planar : PixelLayout::Interleaved) << s[0] << s[1] << offset;
}

void TestKernelLadder::grayscale_ladder_is_exact() {
    QFETCH(LaunchShape, shape);
    QFETCH(int, layout);
    QFETCH(quint32, w);
    QFETCH(quint32, h);
    QFETCH(int, offset);
    const std::uint64_t n = std::uint64_t(w) * h;
    const std::vector<std::uint8_t> interleaved = random_bytes(3 * n, w * 131 + h);
    const std::vector<std::uint8_t> input =
        PixelLayout(layout) == PixelLayout::Planar ? interleaved_to_planar(interleaved.data(), n) : interleaved;
    // Copies at a chosen misalignment from a 16-byte aligned base (operator new gives 16 on x86-64;
    // the test does not rely on it: it aligns by hand).
    std::vector<std::uint8_t> in_store(3 * n + 32), out_store(n + 32, 0xAB);
    auto at = [offset](std::vector<std::uint8_t>& v) {
        const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(v.data());
        return v.data() + ((16 - p % 16) % 16) + offset;
    };
    std::uint8_t* rgb = at(in_store);
    std::uint8_t* gray = at(out_store);
    std::memcpy(rgb, input.data(), input.size());
    std::vector<std::uint8_t> want(n);
    grayscale_reference(GrayscaleImage{input.data(), want.data(), w, h, PixelLayout(layout)});
    EmuOptions o;
    o.host_threads = 2;
    const Status s = grayscale_emulated(GrayscaleImage{rgb, gray, w, h, PixelLayout(layout)}, shape, o);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY(std::memcmp(gray, want.data(), n) == 0);
    QCOMPARE(gray[n], std::uint8_t(0xAB));  // nothing written past the image
}

void TestKernelLadder::vec16_trace_sees_16_byte_accesses() {
    // 40x8 interleaved: 320 pixels = 20 chunks of 16, each three 16-byte loads and one 16-byte store.
    const std::uint32_t w = 40, h = 8;
    std::vector<std::uint8_t> rgb = random_bytes(3 * w * h, 5);
    std::vector<std::uint8_t> gray(w * h), want(w * h);
    QVERIFY(is_aligned16(rgb.data()) && is_aligned16(gray.data()));  // operator new: 16 on x86-64
    const GrayscaleImage im{rgb.data(), gray.data(), w, h, PixelLayout::Interleaved};
    grayscale_reference(GrayscaleImage{rgb.data(), want.data(), w, h, PixelLayout::Interleaved});
    const LaunchShape shape = LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{8, 1, 1});
    CountAccesses count;
    EmuOptions o;
    o.host_threads = 1;  // the observer is not thread-safe
    const Status s = emulate(grayscale_grid(shape, w, h), shape.block, o, [&](const EmuContext& base) {
        GrayVec16::run(TracedContext<CountAccesses>(base, count), im);
    });
    QVERIFY2(s.is_ok(), s.message().c_str());
    QCOMPARE(count.wide, std::uint64_t(20 * 4));
    QCOMPARE(count.narrow, std::uint64_t(0));
    QVERIFY(gray == want);
}

// The grid-stride loop: a grid smaller than the image (as a grid sized in waves of the device is)
// gives the same bytes, on both layouts, with a tail.
void TestKernelLadder::vec16_grid_stride_covers_any_grid() {
    const std::uint32_t w = 333, h = 17;  // 5661 pixels: 353 chunks of 16 and a tail of 13
    const std::uint64_t n = std::uint64_t(w) * h;
    const std::vector<std::uint8_t> interleaved = random_bytes(3 * n, 11);
    for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
        const std::vector<std::uint8_t> input =
            layout == PixelLayout::Planar ? interleaved_to_planar(interleaved.data(), n) : interleaved;
        std::vector<std::uint8_t> want(n);
        grayscale_reference(GrayscaleImage{input.data(), want.data(), w, h, layout});
        for (unsigned blocks : {1u, 3u, 7u}) {
            std::vector<std::uint8_t> gray(n, 0xAB);
            const GrayscaleImage im{input.data(), gray.data(), w, h, layout};
            EmuOptions o;
            o.host_threads = 2;
            const Status s = emulate(Dim3{blocks, 1, 1}, Dim3{32, 1, 1}, o, [&im](const EmuContext& ctx) { GrayVec16::run(ctx, im); });
            QVERIFY2(s.is_ok(), s.message().c_str());
            QVERIFY2(gray == want, qPrintable(QStringLiteral("%1 blocks").arg(blocks)));
        }
    }
}

void TestKernelLadder::matmul_ladder_is_exact_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<quint32>("m");
    QTest::addColumn<quint32>("k");
    QTest::addColumn<quint32>("n");
    QTest::addColumn<int>("offset");  // floats the matrices start past a 16-byte boundary
    // Odd shapes, rows and columns, several block tiles in each direction (129x67x131, 257x9x130,
    // 67x45x129), and multiples of 4 where the float4 path runs (132x68x136, 64x8x32; 260x36x132: K
    // two phases of 16 and a part phase for the double-buffered kernel, N past one block tile).
    const quint32 shapes[][3] = {{37, 23, 41}, {1, 45, 77}, {77, 45, 1}, {129, 67, 131}, {257, 9, 130}, {67, 45, 129},
                                 {132, 68, 136}, {64, 8, 32}, {260, 36, 132}, {3, 1, 5}};
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul))
        for (const auto& s : shapes)
            for (int offset : {0, 1})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2x%3x%4 +%5").arg(QString::fromStdString(k.name))
                                             .arg(s[0]).arg(s[1]).arg(s[2]).arg(offset)))
                    << MatmulLaunch::of(MatmulVariant(k.variant), block_for(k), k.block == BlockRule::Tile ? k.tiles.front() : 0)
                    << s[0] << s[1] << s[2] << offset;
}

void TestKernelLadder::matmul_ladder_is_exact() {
    QFETCH(MatmulLaunch, launch);
    QFETCH(quint32, m);
    QFETCH(quint32, k);
    QFETCH(quint32, n);
    QFETCH(int, offset);
    const std::vector<float> a0 = random_floats(std::size_t(m) * k, m + 7 * k), b0 = random_floats(std::size_t(k) * n, n + 3 * k);
    std::vector<float> a_store(a0.size() + 8), b_store(b0.size() + 8), c_store(std::size_t(m) * n + 8, -7.0f);
    auto at = [offset](std::vector<float>& v) {
        const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(v.data());
        return v.data() + ((16 - p % 16) % 16) / sizeof(float) + offset;
    };
    float* a = at(a_store);
    float* b = at(b_store);
    float* c = at(c_store);
    std::memcpy(a, a0.data(), a0.size() * sizeof(float));
    std::memcpy(b, b0.data(), b0.size() * sizeof(float));
    std::vector<float> base(std::size_t(m) * n);
    EmuOptions o;
    o.host_threads = 2;
    QVERIFY(matmul_emulated(MatmulProblem{a0.data(), b0.data(), base.data(), m, k, n}, MatmulLaunch::naive(16, 16), o).is_ok());
    QVERIFY2(validate_matmul_launch(launch, m, k, n).empty(), validate_matmul_launch(launch, m, k, n).c_str());
    const Status s = matmul_emulated(MatmulProblem{a, b, c, m, k, n}, launch, o);
    QVERIFY2(s.is_ok(), s.message().c_str());
    if (matmul_variant_info(launch.kernel)->exact) {
        QVERIFY(std::memcmp(c, base.data(), base.size() * sizeof(float)) == 0);  // byte for byte
    } else {  // the tensor-core rungs: their own bytes whatever the alignment, and close to naive's
        std::vector<float> own(base.size());
        QVERIFY(matmul_emulated(MatmulProblem{a0.data(), b0.data(), own.data(), m, k, n}, launch, o).is_ok());
        QVERIFY(std::memcmp(c, own.data(), own.size() * sizeof(float)) == 0);
        QVERIFY(matmul_max_relative_error(c, base.data(), base.size()) < matmul_test_tolerance(launch.kernel, k));
    }
    QCOMPARE(c[base.size()], -7.0f);  // nothing written past C
}

void TestKernelLadder::blocktiled_grid_covers_the_block_tiles() {
    // 2-D blocktile: 128 x 128 outputs a block, so 129 x 131 needs 2 x 2 blocks of 16 x 16 threads.
    const MatmulLaunch bt = MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{}, 0);
    QCOMPARE(bt.block_shape(), (Dim3{16, 16, 1}));
    QCOMPARE(matmul_grid(bt, 129, 131), (Dim3{2, 2, 1}));
    QCOMPARE(matmul_grid(bt, 128, 128), (Dim3{1, 1, 1}));
    // 1-D blocktile: 64 rows x 32 columns a block.
    const MatmulLaunch b1 = MatmulLaunch::of(MatmulVariant::Blocktile1d, Dim3{}, 0);
    QCOMPARE(matmul_grid(b1, 65, 33), (Dim3{2, 2, 1}));
    // Warptile: 128 threads (four warps) for 128 x 128 outputs.
    const MatmulLaunch wt = MatmulLaunch::of(MatmulVariant::Warptile, Dim3{}, 0);
    QCOMPARE(wt.block_shape(), (Dim3{128, 1, 1}));
    QCOMPARE(matmul_grid(wt, 257, 129), (Dim3{2, 3, 1}));
    QCOMPARE(bt.shared_bytes(), std::size_t(2 * 128 * 8 * sizeof(float)));
    // Double buffer: 256 threads for 128 x 256 outputs, two buffers of a 16 x 132 (padded) A tile and a
    // 16 x 256 B tile.
    const MatmulLaunch db = MatmulLaunch::of(MatmulVariant::DoubleBuffer, Dim3{}, 0);
    QCOMPARE(db.block_shape(), (Dim3{256, 1, 1}));
    QCOMPARE(matmul_grid(db, 257, 129), (Dim3{1, 3, 1}));
    QCOMPARE(matmul_grid(db, 257, 257), (Dim3{2, 3, 1}));
    QCOMPARE(db.shared_bytes(), std::size_t(2 * (16 * 132 + 16 * 256) * sizeof(float)));
    // Split-K: the same loop on 128 x 128 tiles.
    const MatmulLaunch sk = MatmulLaunch::of(MatmulVariant::SplitK, Dim3{}, 1);
    QCOMPARE(matmul_grid(sk, 257, 129), (Dim3{2, 3, 1}));
    QCOMPARE(sk.shared_bytes(), std::size_t(2 * (16 * 132 + 16 * 128) * sizeof(float)));
    // A fixed-block variant launches its own block whatever the launch's block field says.
    QCOMPARE(MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{8, 8, 1}, 0).block_shape(), (Dim3{16, 16, 1}));
}

// The double-buffered kernel's layout choices, seen in the trace: the 4 x 4 sub-tiles make a warp's
// float4 shared loads read consecutive words (or broadcast): no load needs more wavefronts than its
// ideal. Its transposed A-tile stores are padded (rows of 132), which at BK = 16 still leaves lanes 8 k
// apart on one bank: at most 2 wavefronts a store request, never more.
void TestKernelLadder::double_buffer_shared_loads_are_conflict_free() {
    TraceOptions keep0;
    keep0.keep_blocks = {0};
    const TraceResult db = trace_matmul(nullptr, nullptr, 128, 48, 256, MatmulLaunch::of(MatmulVariant::DoubleBuffer, Dim3{}, 0), keep0);
    QVERIFY2(db.status.is_ok(), db.status.message().c_str());
    const RequestCounts& ld = db.trace.totals.shared_ld;
    const RequestCounts& st = db.trace.totals.shared_st;
    QVERIFY(ld.requests > 0 && st.requests > 0);
    QCOMPARE(ld.bank_conflicts(), 0ull);
    QVERIFY(st.wavefronts <= 2 * st.ideal_wavefronts);
}

QTEST_APPLESS_MAIN(TestKernelLadder)
#include "tst_kernel_ladder.moc"
