// The kernel catalogue, iterated: every variant of every family, on odd non-square sizes, every layout
// it reads and several blocks of its launch rule, on the emulator, equals the family's CPU reference
// byte for byte (matmul: the reference variant's bytes, and the float64 reference within 1e-5). The
// traced emulator runs every variant too, and an unknown variant or TILE is an InvalidInput error on
// every path. A new variant added to a family's table is tested here without touching this file.
#include <QtTest>

#include <set>
#include <vector>

#include "app/models/launch_plan.h"
#include "app/matmul/matmul_traffic.h"
#include "kernels/emulator/emulate.h"
#include "kernels/emulator/traced_context.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "kernels/matmul/matmul_cuda.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"
#include "support/random_data.h"
#if CUDAVIZ_HAVE_CUDA
#include "kernels/grayscale/grayscale_device_launch.h"
#include "kernels/matmul/matmul_unvalidated.h"
#endif

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::MatmulLaunch)

namespace {

struct Size {
    std::uint32_t w, h;
};
const Size kSizes[] = {{37, 23}, {23, 37}, {1, 53}, {53, 1}, {1, 1}, {129, 3}};

// Several blocks of a launch rule (the tile rule: the variant's tiles; fixed: its block).
std::vector<Dim3> blocks_for(const KernelInfo& k) {
    switch (k.block) {
        case BlockRule::OneD: return {Dim3{1, 1, 1}, Dim3{32, 1, 1}, Dim3{96, 1, 1}, Dim3{257, 1, 1}, Dim3{1024, 1, 1}};
        case BlockRule::TwoD: return {Dim3{1, 1, 1}, Dim3{7, 3, 1}, Dim3{16, 16, 1}, Dim3{32, 8, 1}, Dim3{3, 37, 1}};
        case BlockRule::Tile: {
            std::vector<Dim3> b;
            for (unsigned t : k.tiles) b.push_back(Dim3{t, t, 1});
            return b;
        }
        case BlockRule::Fixed: return {k.fixed_block};
    }
    return {};
}

PixelLayout layout_named(const std::string& name) {
    return name == "planar" ? PixelLayout::Planar : PixelLayout::Interleaved;
}

std::vector<std::uint8_t> random_rgb(std::size_t n, unsigned seed) { return test::random_bytes(3 * n, seed); }
using test::random_floats;

QString row_name(const KernelInfo& k, Dim3 b, const QString& rest) {
    return QStringLiteral("%1 %2x%3 %4").arg(QString::fromStdString(k.name)).arg(b.x).arg(b.y).arg(rest);
}

}  // namespace

class TestKernelCatalogue : public QObject {
    Q_OBJECT
private slots:
    void catalogue_is_well_formed();
    void grayscale_variants_match_reference_data();
    void grayscale_variants_match_reference();
    void matmul_variants_match_reference_data();
    void matmul_variants_match_reference();
    void traced_emulator_runs_every_variant();
    void launch_plan_matches_every_grayscale_body();
    void unknown_variant_or_tile_is_refused();
};

void TestKernelCatalogue::catalogue_is_well_formed() {
    const std::vector<KernelInfo>& all = kernel_catalogue();
    QVERIFY(all.size() >= 4);
    std::set<std::string> names;
    for (const KernelInfo& k : all) {
        QVERIFY2(names.insert(k.name).second, k.name.c_str());  // names are unique
        QVERIFY(!k.title.empty() && !k.label.empty());
        QVERIFY(kernel_info(k.family, k.variant) == &k || kernel_info(k.family, k.variant)->name == k.name);
        QCOMPARE(find_kernel(k.family, k.name)->name, k.name);
        QVERIFY(find_kernel(k.family == KernelFamily::Grayscale ? KernelFamily::Matmul : KernelFamily::Grayscale, k.name) == nullptr);
        // A TILE variant has its tiles; a fixed block may have a list too (split-K's slices); no other.
        if (k.block == BlockRule::Tile) QVERIFY(!k.tiles.empty());
        else if (!k.tiles.empty()) QCOMPARE(int(k.block), int(BlockRule::Fixed));
        QCOMPARE(k.family == KernelFamily::Grayscale, !k.layouts.empty());
        QVERIFY(k.items_per_thread >= 1);
    }
    // Each family's variants are numbered by their place in its table; the first is the reference.
    for (KernelFamily f : {KernelFamily::Grayscale, KernelFamily::Matmul}) {
        const std::vector<KernelInfo>& fam = family_catalogue(f);
        for (std::size_t i = 0; i < fam.size(); ++i) QCOMPARE(int(fam[i].variant), int(i));
        QVERIFY(fam.front().exact);
    }
    QCOMPARE(family_catalogue(KernelFamily::Grayscale).front().name, std::string("gray_1d"));
    QCOMPARE(family_catalogue(KernelFamily::Matmul).front().name, std::string("matmul_naive"));
    QCOMPARE(find_kernel(KernelFamily::Matmul, "matmul_tiled")->tiles, (std::vector<unsigned>{8, 16, 32}));
    // The old spellings are these variants.
    QCOMPARE(int(GrayscaleVariant::OneD), int(GrayscaleVariant::Gray1d));
    QCOMPARE(int(GrayscaleVariant::TwoD), int(GrayscaleVariant::Gray2d));
    QCOMPARE(int(MatmulVariant::Tiled), int(find_kernel(KernelFamily::Matmul, "matmul_tiled")->variant));
}

void TestKernelCatalogue::grayscale_variants_match_reference_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<int>("layout");
    QTest::addColumn<quint32>("w");
    QTest::addColumn<quint32>("h");
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const Dim3& b : blocks_for(k))
            for (const std::string& layout : k.layouts)
                for (const Size& s : kSizes)
                    QTest::newRow(qPrintable(row_name(k, b, QStringLiteral("%1 %2x%3").arg(QString::fromStdString(layout)).arg(s.w).arg(s.h))))
                        << LaunchShape::of(GrayscaleVariant(k.variant), b) << int(layout_named(layout)) << quint32(s.w)
                        << quint32(s.h);
}

void TestKernelCatalogue::grayscale_variants_match_reference() {
    QFETCH(LaunchShape, shape);
    QFETCH(int, layout);
    QFETCH(quint32, w);
    QFETCH(quint32, h);
    const std::uint64_t n = std::uint64_t(w) * h;
    const std::vector<std::uint8_t> interleaved = random_rgb(n, w * 31 + h);
    const std::vector<std::uint8_t> input =
        PixelLayout(layout) == PixelLayout::Planar ? interleaved_to_planar(interleaved.data(), n) : interleaved;
    std::vector<std::uint8_t> want(n), got(n, 0xAB);
    grayscale_reference(GrayscaleImage{input.data(), want.data(), w, h, PixelLayout(layout)});
    QVERIFY2(validate_grayscale_launch(shape, w, h).empty(), validate_grayscale_launch(shape, w, h).c_str());
    EmuOptions o;
    o.host_threads = 2;
    const Status s = grayscale_emulated(GrayscaleImage{input.data(), got.data(), w, h, PixelLayout(layout)}, shape, o);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY(got == want);
}

void TestKernelCatalogue::matmul_variants_match_reference_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    QTest::addColumn<quint32>("m");
    QTest::addColumn<quint32>("k");
    QTest::addColumn<quint32>("n");
    const quint32 shapes[][3] = {{37, 23, 19}, {1, 45, 33}, {33, 45, 1}, {40, 1, 17}, {17, 70, 9}};
    for (const KernelInfo& info : family_catalogue(KernelFamily::Matmul))
        for (const Dim3& b : blocks_for(info))
            for (const auto& s : shapes)
                QTest::newRow(qPrintable(row_name(info, b, QStringLiteral("%1x%2@%2x%3").arg(s[0]).arg(s[1]).arg(s[2]))))
                    << MatmulLaunch::of(MatmulVariant(info.variant), b, info.block == BlockRule::Tile ? b.x : 0) << s[0]
                    << s[1] << s[2];
}

// Exact variants give the reference variant's bytes (matmul_naive, 16x16); all stay within their
// tolerance of float64 (1e-5 for fp32 products, matmul_test_tolerance).
void TestKernelCatalogue::matmul_variants_match_reference() {
    QFETCH(MatmulLaunch, launch);
    QFETCH(quint32, m);
    QFETCH(quint32, k);
    QFETCH(quint32, n);
    const std::vector<float> a = random_floats(std::size_t(m) * k, m + 7 * k), b = random_floats(std::size_t(k) * n, n + 3 * k);
    std::vector<float> ref(std::size_t(m) * n), base(ref.size()), got(ref.size(), -1.0f);
    matmul_reference(MatmulProblem{a.data(), b.data(), ref.data(), m, k, n});
    EmuOptions o;
    o.host_threads = 2;
    QVERIFY(matmul_emulated(MatmulProblem{a.data(), b.data(), base.data(), m, k, n}, MatmulLaunch::naive(16, 16), o).is_ok());
    const Status s = matmul_emulated(MatmulProblem{a.data(), b.data(), got.data(), m, k, n}, launch, o);
    QVERIFY2(s.is_ok(), s.message().c_str());
    const KernelInfo* info = matmul_variant_info(launch.kernel);
    QVERIFY(info);
    if (info->exact) QVERIFY(got == base);
    QVERIFY(matmul_max_relative_error(got.data(), ref.data(), ref.size()) < matmul_test_tolerance(launch.kernel, k));
}

// The third execution: the traced context runs every matmul variant's body, writes each output once,
// and the lecture's two match their closed forms.
void TestKernelCatalogue::traced_emulator_runs_every_variant() {
    const std::uint32_t m = 21, k = 35, n = 13;
    for (const KernelInfo& info : family_catalogue(KernelFamily::Matmul))
        for (const Dim3& b : blocks_for(info)) {
            const MatmulLaunch l = MatmulLaunch::of(MatmulVariant(info.variant), b, info.block == BlockRule::Tile ? b.x : 0);
            const MatmulTraffic t = measured_matmul_traffic(l, m, k, n);
            // split-K writes each slice's outputs, then C once more from their sum
            const unsigned slices = matmul_grid(l, m, n).z;
            QVERIFY2(t.global_stores == std::uint64_t(m) * n * (slices > 1 ? slices + 1 : 1), to_string(l).c_str());
            QVERIFY2(t.global_loads > 0, to_string(l).c_str());
            QCOMPARE(t.barriers > 0, info.barriers);
            if (info.name == "matmul_naive" || info.name == "matmul_tiled") {
                const MatmulTraffic p = predicted_matmul_traffic(l, m, k, n);
                QCOMPARE(t.global_loads, p.global_loads);
                QCOMPARE(t.shared_loads, p.shared_loads);
                QCOMPARE(t.barriers, p.barriers);
            }
        }
}

namespace {

// Records which thread stores each grey pixel (serial launch: no locking needed).
struct StoreRecorder {
    const std::uint8_t* gray = nullptr;
    std::vector<std::pair<Dim3, Dim3>> writer;  // per pixel: block, thread
    std::set<std::pair<std::uint64_t, std::uint64_t>> threads;
    void on_access(const EmuContext& c, Access a, const void* p, std::size_t bytes) {
        if (a != Access::Store) return;
        // A wide store (gray_vec16's 16 bytes) writes every pixel it covers.
        const std::size_t i = std::size_t(static_cast<const std::uint8_t*>(p) - gray);
        for (std::size_t j = 0; j < bytes; ++j) writer[i + j] = {c.block_idx(), c.thread_idx()};
        threads.insert({linear_block_id(c.block_idx(), c.grid_dim()), linear_thread_id(c.thread_idx(), c.block_dim())});
    }
    void on_sync(const EmuContext&) {}
};

}  // namespace

// The launch plan (the overlay's and inspector's source) names, for every pixel, the thread the body
// itself makes write it, and counts the threads that write: for every variant, from its rule and
// items per thread, without a line of its own per variant.
void TestKernelCatalogue::launch_plan_matches_every_grayscale_body() {
    const Size sizes[] = {{37, 23}, {53, 1}, {1, 29}, {129, 3}};
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const Dim3& b : blocks_for(k))
            for (const Size& sz : sizes) {
                const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), b);
                const std::uint64_t n = std::uint64_t(sz.w) * sz.h;
                std::vector<std::uint8_t> rgb(3 * n, 1), gray(n);
                const GrayscaleImage im{rgb.data(), gray.data(), sz.w, sz.h, PixelLayout::Interleaved};
                StoreRecorder rec;
                rec.gray = gray.data();
                rec.writer.assign(n, {Dim3{~0u, 0, 0}, Dim3{}});
                EmuOptions o;
                o.host_threads = 1;
                const Dim3 grid = grayscale_grid(shape, sz.w, sz.h);
                const Status s = with_grayscale_variant(shape.kind, [&](auto body) {
                    using Body = decltype(body);
                    return emulate(grid, b, o, [&](const EmuContext& ctx) { Body::run(TracedContext(ctx, rec), im); });
                });
                QVERIFY2(s.is_ok(), s.message().c_str());
                const LaunchPlan plan = plan_grayscale_launch(shape, sz.w, sz.h);
                const QString what = row_name(k, b, QStringLiteral("%1x%2").arg(sz.w).arg(sz.h));
                QVERIFY2(plan.grid == grid, qPrintable(what));
                QVERIFY2(plan.active_threads == rec.threads.size(), qPrintable(what + QStringLiteral(": plan %1 active, body %2")
                                                                                   .arg(plan.active_threads)
                                                                                   .arg(rec.threads.size())));
                for (std::uint32_t y = 0; y < sz.h; ++y)
                    for (std::uint32_t x = 0; x < sz.w; ++x) {
                        const ThreadOfPixel t = plan.thread_of_pixel(x, y);
                        const auto& w = rec.writer[std::size_t(y) * sz.w + x];
                        QVERIFY2(t.block == w.first && t.thread == w.second,
                                 qPrintable(what + QStringLiteral(" pixel (%1, %2)").arg(x).arg(y)));
                        QVERIFY(plan.thread_active(t.block, t.thread));
                    }
            }
}

void TestKernelCatalogue::unknown_variant_or_tile_is_refused() {
    const std::uint32_t w = 9, h = 5;
    std::vector<std::uint8_t> rgb(3 * w * h, 7), gray(w * h);
    const GrayscaleImage im{rgb.data(), gray.data(), w, h, PixelLayout::Interleaved};
    const LaunchShape no_variant = LaunchShape::of(GrayscaleVariant(200), Dim3{32, 1, 1});
    QVERIFY(!validate_grayscale_launch(no_variant, w, h).empty());
    QCOMPARE(grayscale_emulated(im, no_variant).kind(), ErrorKind::InvalidInput);
    QCOMPARE(with_grayscale_variant(GrayscaleVariant(200), [](auto) {}).kind(), ErrorKind::InvalidInput);

    std::vector<float> a(8 * 8, 1.0f), b(8 * 8, 1.0f), c(8 * 8);
    const MatmulProblem p{a.data(), b.data(), c.data(), 8, 8, 8};
    for (unsigned tile : {0u, 4u, 12u, 64u}) {
        const MatmulLaunch bad = MatmulLaunch::tiled(tile);
        QVERIFY(!validate_matmul_launch(bad, 8, 8, 8).empty());
        QCOMPARE(matmul_emulated(p, bad).kind(), ErrorKind::InvalidInput);
        // Before the catalogue the GPU launcher fell back to TILE = 32 here; now it refuses, with or
        // without a device, before touching one.
        QCOMPARE(matmul_cuda(p, bad).kind(), CUDAVIZ_HAVE_CUDA ? ErrorKind::InvalidInput : ErrorKind::Unavailable);
        const Status s = with_matmul_variant(bad, [](auto) {});
        QCOMPARE(s.kind(), ErrorKind::InvalidInput);
        QVERIFY2(QString::fromStdString(s.message()).contains("8, 16, 32"), s.message().c_str());
        const MatmulTraffic t = measured_matmul_traffic(bad, 8, 8, 8);
        QCOMPARE(t.global_loads + t.global_stores + t.shared_loads, std::uint64_t(0));
    }
    const MatmulLaunch no_matmul = MatmulLaunch::of(MatmulVariant(77), Dim3{16, 16, 1}, 16);
    QVERIFY(!validate_matmul_launch(no_matmul, 8, 8, 8).empty());
    QCOMPARE(matmul_emulated(p, no_matmul).kind(), ErrorKind::InvalidInput);
    QCOMPARE(no_matmul.shared_bytes(), std::size_t(0));
#if CUDAVIZ_HAVE_CUDA
    // The unvalidated launchers refuse only what has no kernel, and do so before any CUDA call.
    QCOMPARE(launch_matmul_unvalidated(p, MatmulLaunch::tiled(12), Dim3{1, 1, 1}, Dim3{12, 12, 1}, 0, nullptr).kind(),
             ErrorKind::InvalidInput);
    QCOMPARE(launch_grayscale_unvalidated(im, GrayscaleVariant(200), Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, nullptr).kind(),
             ErrorKind::InvalidInput);
#endif
}

QTEST_APPLESS_MAIN(TestKernelCatalogue)
#include "tst_kernel_catalogue.moc"
