// The convolution family (issue 26) on the emulator: every variant against the float32 reference
// (the same bytes) and the float64 reference (a tolerance), on odd sizes (1x1, 1xN, Nx1, primes) with
// masks of side 1, 3, 7 and 15 and several block shapes, odd ones included; the named masks; bad masks
// refused with messages (shapes, values, .npy files); and the constant-memory figures of the trace:
// a broadcast costs one request and no replay, distinct addresses serialise.
#include <QtTest>

#include <QtEndian>

#include <cmath>
#include <cstring>
#include <vector>

#include "app/convolution/convolution_mask_file.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_emulated.h"
#include "kernels/convolution/convolution_mask.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_schedule.h"
#include "kernels/convolution/convolution_trace.h"
#include "kernels/convolution/convolution_variants.h"
#include "kernels/emulator/emulate.h"
#include "kernels/emulator/traced_context.h"
#include "kernels/trace/aligned_bytes.h"
#include "kernels/trace/memory_recorder.h"
#include "kernels/trace/request_cost.h"

using namespace cvz;

namespace {

// A deterministic picture: bytes from a linear congruential generator.
std::vector<std::uint8_t> picture(std::uint32_t w, std::uint32_t h, std::uint32_t seed) {
    std::vector<std::uint8_t> g(std::size_t(w) * h);
    std::uint32_t x = seed * 2654435761u + 1;
    for (auto& v : g) {
        x = x * 1664525u + 1013904223u;
        v = std::uint8_t(x >> 24);
    }
    return g;
}

// A mask of side `side` with values in [-1, 1) that are not exact in few bits, so that rounding shows.
ConvolutionMask mask_of(std::uint32_t side, std::uint32_t seed) {
    ConvolutionMask m{side, std::vector<float>(std::size_t(side) * side)};
    std::uint32_t x = seed + 17;
    for (float& v : m.values) {
        x = x * 1664525u + 1013904223u;
        v = float(int(x >> 8) % 20011 - 10005) / 10007.0f;
    }
    return m;
}

ConvolutionProblem problem(const std::vector<std::uint8_t>& g, const ConvolutionMask& m, std::vector<float>& out,
                           std::uint32_t w, std::uint32_t h) {
    out.assign(std::size_t(w) * h, -1.0f);
    ConvolutionProblem p;
    p.gray = g.data();
    p.mask = m.values.data();
    p.out = out.data();
    p.width = w;
    p.height = h;
    p.mask_side = m.side;
    return p;
}

bool same_bytes(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A .npy 1.0 file with any header dict, padded as NumPy pads it.
QByteArray npy_bytes(const QByteArray& dict, const QByteArray& data) {
    QByteArray header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    const quint16 len = qToLittleEndian(quint16(header.size()));
    bytes.append(reinterpret_cast<const char*>(&len), 2);
    return bytes + header + data;
}

template <class T>
QByteArray raw(const std::vector<T>& v) {
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(T)));
}

// One block of 32 threads whose lanes read constant memory: first every lane word 0 (a broadcast),
// then lane l word l % 4 (four distinct words).
MemoryTrace trace_constant_reads() {
    const std::vector<float> table{1.0f, 2.0f, 3.0f, 4.0f};
    AlignedBytes tb(table.data(), table.size() * sizeof(float)), sink(32 * sizeof(float));
    const float* t = tb.as<float>();
    float* s = sink.as<float>();
    const Dim3 grid{1, 1, 1}, block{32, 1, 1};
    MemoryRecorder recorder(grid, block,
                            {{"table", tb.data(), tb.size(), MemorySpace::Constant}, {"sink", sink.data(), sink.size()}},
                            0, TraceOptions{});
    EmuOptions o;
    o.host_threads = 1;
    const Status st = emulate(grid, block, o, [&](const EmuContext& ctx) {
        if (TraceThread th = recorder.begin_thread(ctx)) {
            const TracedContext<TraceThread> c(ctx, th);
            const unsigned l = c.thread_idx().x;
            const float a = c.load(t);
            const float b = c.load(t + l % 4);
            c.store(s + l, a + b);
        }
    });
    if (!st) qFatal("%s", st.message().c_str());
    return recorder.finish();
}

}  // namespace

class TestConvolution : public QObject {
    Q_OBJECT
private slots:
    void variants_match_references_data();
    void variants_match_references();
    void named_masks();
    void bad_mask_shapes();
    void bad_mask_files_data();
    void bad_mask_files();
    void good_mask_files();
    void launch_rules();
    void constant_request_cost_by_hand();
    void constant_broadcast_and_serialisation_in_a_trace();
    void variants_figures_by_hand();
    void emulated_schedule_covers_the_grid();
};

void TestConvolution::variants_match_references_data() {
    QTest::addColumn<int>("variant");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("side");
    QTest::addColumn<int>("bx");
    QTest::addColumn<int>("by");
    const int sizes[][2] = {{1, 1}, {37, 1}, {1, 41}, {97, 61}, {13, 7}};
    const int sides[] = {1, 3, 7, 15};
    const int blocks[][2] = {{16, 16}, {7, 5}, {32, 1}, {1, 9}};
    for (const KernelInfo& k : family_catalogue(KernelFamily::Convolution))
        for (const auto& s : sizes)
            for (int side : sides)
                for (const auto& b : blocks)
                    QTest::addRow("%s %dx%d mask %d block %dx%d", k.name.c_str(), s[0], s[1], side, b[0], b[1])
                        << int(k.variant) << s[0] << s[1] << side << b[0] << b[1];
}

void TestConvolution::variants_match_references() {
    QFETCH(int, variant);
    QFETCH(int, w);
    QFETCH(int, h);
    QFETCH(int, side);
    QFETCH(int, bx);
    QFETCH(int, by);
    const std::vector<std::uint8_t> g = picture(w, h, std::uint32_t(w * 131 + h));
    const ConvolutionMask m = mask_of(side, std::uint32_t(side));
    std::vector<float> want, got;
    convolution_reference(problem(g, m, want, w, h));
    const ConvolutionLaunch launch = ConvolutionLaunch::of(ConvolutionVariant(variant), Dim3{unsigned(bx), unsigned(by), 1});
    const Status s = convolution_emulated(problem(g, m, got, w, h), launch);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY2(same_bytes(got, want), "the emulated variant's bytes differ from the float32 reference's");
    // The float64 reference: float32 accumulation of side^2 terms, each at most 255 |M|.
    std::vector<double> exact(want.size());
    std::vector<float> unused;
    convolution_reference_f64(problem(g, m, unused, w, h), exact.data());
    double sum_abs = 0;
    for (float v : m.values) sum_abs += std::fabs(v);
    const double tolerance = double(side * side) * std::ldexp(1.0, -23) * 255.0 * sum_abs + 1e-6;
    const double err = convolution_max_abs_error(got.data(), exact.data(), exact.size());
    QVERIFY2(err <= tolerance, qPrintable(QString("error %1 > %2").arg(err).arg(tolerance)));
}

void TestConvolution::named_masks() {
    QCOMPARE(named_mask_names().size(), std::size_t(6));
    for (const std::string& name : named_mask_names()) {
        ConvolutionMask m;
        QVERIFY2(named_mask(name, &m), name.c_str());
        QVERIFY2(validate_mask(m).empty(), name.c_str());
    }
    ConvolutionMask m;
    QVERIFY(named_mask("sobel_x", &m));
    QCOMPARE(m.side, 3u);
    QCOMPARE(m.values, (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
    QVERIFY(named_mask("sobel_y", &m));
    QCOMPARE(m.values, (std::vector<float>{-1, -2, -1, 0, 0, 0, 1, 2, 1}));
    QVERIFY(named_mask("laplacian", &m));
    QCOMPARE(m.values, (std::vector<float>{0, 1, 0, 1, -4, 1, 0, 1, 0}));
    QVERIFY(named_mask("sharpen", &m));
    QCOMPARE(m.values, (std::vector<float>{0, -1, 0, -1, 5, -1, 0, -1, 0}));
    QVERIFY(named_mask("box3", &m));
    QCOMPARE(m.values, std::vector<float>(9, 1.0f / 9.0f));
    QVERIFY(named_mask("gauss5", &m));
    QCOMPARE(m.side, 5u);
    QCOMPARE(m.values[0], 1.0f / 256.0f);
    QCOMPARE(m.values[12], 36.0f / 256.0f);
    QCOMPARE(m.values[7], 24.0f / 256.0f);
    float sum = 0;
    for (float v : m.values) sum += v;
    QCOMPARE(sum, 1.0f);  // powers of two: exact
    QVERIFY(!named_mask("gauss7", &m));
    // A mask of 1 (side 1) returns the grayscale itself, as floats.
    const std::vector<std::uint8_t> g = picture(5, 3, 9);
    std::vector<float> out;
    const ConvolutionMask one{1, {1.0f}};
    QVERIFY(convolution_emulated(problem(g, one, out, 5, 3), ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{4, 2, 1})));
    for (std::size_t i = 0; i < g.size(); ++i) QCOMPARE(out[i], float(g[i]));
}

void TestConvolution::bad_mask_shapes() {
    QVERIFY(validate_mask_shape(1, 1).empty());
    QVERIFY(validate_mask_shape(15, 15).empty());
    QVERIFY(QString::fromStdString(validate_mask_shape(4, 4)).contains("odd"));
    QVERIFY(QString::fromStdString(validate_mask_shape(17, 17)).contains("at most 15"));
    QVERIFY(QString::fromStdString(validate_mask_shape(3, 5)).contains("square"));
    QVERIFY(QString::fromStdString(validate_mask_shape(0, 0)).contains("empty"));
    ConvolutionMask nan{3, std::vector<float>(9, 0.0f)};
    nan.values[5] = std::nanf("");
    QVERIFY(QString::fromStdString(validate_mask(nan)).contains("row 1, column 2"));
    const ConvolutionMask short_mask{3, std::vector<float>(8, 0.0f)};
    QVERIFY(QString::fromStdString(validate_mask(short_mask)).contains("8 values"));
    // A launch with a bad mask side is refused, not run.
    const std::vector<std::uint8_t> g = picture(5, 5, 1);
    std::vector<float> out;
    const ConvolutionMask even{2, std::vector<float>(4, 1.0f)};
    const Status s = convolution_emulated(problem(g, even, out, 5, 5), ConvolutionLaunch{});
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY(QString::fromStdString(s.message()).contains("odd"));
}

void TestConvolution::bad_mask_files_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    const std::vector<float> f4(16, 0.5f);
    QTest::newRow("even side") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", raw(f4))
                               << "side must be odd";
    const std::vector<float> f17(17 * 17, 0.5f);
    QTest::newRow("side 17") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (17, 17), }", raw(f17))
                             << "at most 15";
    const std::vector<float> f15(15, 0.5f);
    QTest::newRow("non-square") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }", raw(f15))
                                << "must be square";
    const std::vector<float> f9(9, 0.5f);
    QTest::newRow("1-D") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (9,), }", raw(f9)) << "1-D";
    const std::vector<std::int32_t> i9(9, 1);
    QTest::newRow("int32") << npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 3), }", raw(i9))
                           << "float32 or float64";
    QTest::newRow("truncated") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }", raw(f9).left(20))
                               << "truncated";
    QTest::newRow("not npy") << QByteArray("P5 3 3 255\n") << "not a usable .npy array";
    std::vector<float> inf(9, 0.5f);
    inf[4] = INFINITY;
    QTest::newRow("infinite value") << npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }", raw(inf))
                                    << "not a finite number";
}

void TestConvolution::bad_mask_files() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    const LoadedMask m = parse_mask_npy(bytes, QStringLiteral("masks/bad.npy"));
    QVERIFY(!m.ok());
    QVERIFY2(m.error.contains("masks/bad.npy"), qPrintable(m.error));
    QVERIFY2(m.error.contains(problem), qPrintable(m.error));
}

void TestConvolution::good_mask_files() {
    const std::vector<double> f8{0.25, 0.5, 0.25, 0.5, 1.0, 0.5, 0.25, 0.5, 0.1};
    const LoadedMask m = parse_mask_npy(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }", raw(f8)),
                                        QStringLiteral("m.npy"));
    QVERIFY2(m.ok(), qPrintable(m.error));
    QCOMPARE(m.mask.side, 3u);
    QCOMPARE(m.mask.values[8], 0.1f);  // float64 rounded to the nearest float32
    const std::vector<float> f1{2.0f};
    const LoadedMask one = parse_mask_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }", raw(f1)),
                                          QStringLiteral("one.npy"));
    QVERIFY2(one.ok(), qPrintable(one.error));
    QCOMPARE(one.mask.side, 1u);
    QVERIFY(resolve_mask("sobel_x").ok());
    const LoadedMask unknown = resolve_mask("emboss");
    QVERIFY(!unknown.ok());
    QVERIFY(unknown.error.contains("gauss5"));
    const LoadedMask missing = resolve_mask("/nonexistent/m.npy");
    QVERIFY(!missing.ok());
    QVERIFY(missing.error.contains("m.npy"));
}

void TestConvolution::launch_rules() {
    const ConvolutionLaunch tiled = ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{16, 8, 1});
    QCOMPARE(convolution_grid(tiled, 97, 61).x, 7u);
    QCOMPARE(convolution_grid(tiled, 97, 61).y, 8u);
    QCOMPARE(convolution_input_tile(tiled, 5).x, 20u);
    QCOMPARE(convolution_input_tile(tiled, 5).y, 12u);
    QCOMPARE(convolution_shared_bytes(tiled, 5), std::size_t(20 * 12 * 4));
    const ConvolutionLaunch cached = ConvolutionLaunch::of(ConvolutionVariant::TiledCached, Dim3{16, 8, 1});
    QCOMPARE(convolution_input_tile(cached, 5).x, 16u);
    QCOMPARE(convolution_shared_bytes(cached, 5), std::size_t(16 * 8 * 4));
    QCOMPARE(convolution_input_tile(ConvolutionLaunch::of(ConvolutionVariant::Constant, Dim3{16, 8, 1}), 5).x, 0u);
    QVERIFY(!convolution_mask_in_constant(ConvolutionVariant::Naive));
    QVERIFY(convolution_mask_in_constant(ConvolutionVariant::Constant));
    QVERIFY(convolution_mask_in_constant(ConvolutionVariant::Tiled));
    QVERIFY(convolution_mask_in_constant(ConvolutionVariant::TiledCached));
    QCOMPARE(to_string(tiled), std::string("tiled 16x8"));
    // A block whose halo tile passes 48 KiB of shared memory is refused (1024x1 with a 15x15 mask).
    const std::string big = validate_convolution_launch(ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{1024, 1, 1}), 2000, 20, 15);
    QVERIFY2(QString::fromStdString(big).contains("shared memory"), big.c_str());
    QVERIFY(!validate_convolution_launch(ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{64, 32, 1}), 9, 9, 3).empty());
    QVERIFY(!validate_convolution_launch(ConvolutionLaunch{}, 0, 9, 3).empty());
    QVERIFY(!validate_convolution_launch(ConvolutionLaunch::of(ConvolutionVariant(9), Dim3{8, 8, 1}), 9, 9, 3).empty());
    QCOMPARE(ConvolutionLaunch::of(ConvolutionVariant::TiledCached, Dim3{8, 8, 1}).ref().family, KernelFamily::Convolution);
}

void TestConvolution::constant_request_cost_by_hand() {
    std::vector<LaneAccess> broadcast, four, two_sizes;
    for (std::uint32_t l = 0; l < 32; ++l) {
        broadcast.push_back({l, 4, 36});
        four.push_back({l, 4, 4 * (l % 4)});
    }
    RequestCost c = constant_request_cost(broadcast);
    QCOMPARE(c.wavefronts, 1u);
    QCOMPARE(c.ideal_wavefronts, 1u);
    c = constant_request_cost(four);
    QCOMPARE(c.wavefronts, 4u);
    QCOMPARE(c.ideal_wavefronts, 1u);
    // Every lane its own word: 32 passes.
    for (std::uint32_t l = 0; l < 32; ++l) two_sizes.push_back({l, 4, 4 * l});
    QCOMPARE(constant_request_cost(two_sizes).wavefronts, 32u);
    QCOMPARE(constant_request_cost(std::vector<LaneAccess>{}).ideal_wavefronts, 0u);
}

void TestConvolution::constant_broadcast_and_serialisation_in_a_trace() {
    const MemoryTrace t = trace_constant_reads();
    // Two constant requests: the broadcast (1 wavefront) and the 4 distinct words (4 wavefronts).
    QCOMPARE(t.totals.constant_ld.requests, std::uint64_t(2));
    QCOMPARE(t.totals.constant_ld.wavefronts, std::uint64_t(5));
    QCOMPARE(t.totals.constant_ld.ideal_wavefronts, std::uint64_t(2));
    QCOMPARE(t.totals.constant_ld.bank_conflicts(), std::uint64_t(3));  // the replays
    // The constant reads are not global loads; the store is the one global request.
    QCOMPARE(t.totals.global_ld.requests, std::uint64_t(0));
    QCOMPARE(t.totals.global_st.requests, std::uint64_t(1));
    QCOMPARE(t.buffers.front().space, MemorySpace::Constant);
    QCOMPARE(t.unmapped_accesses, std::uint64_t(0));
}

// conv_naive and conv_constant on a 64x8 image, 32x4 blocks (2x2 blocks of 4 full warps: 16 warps), a
// 3x3 mask: 9 mask reads per thread, each a warp-wide broadcast. conv_naive makes them 144 global
// requests of one sector; conv_constant 144 constant requests of one wavefront, no replay, and 144
// fewer global load requests. The stores: one per warp, 128 bytes = 4 sectors.
void TestConvolution::variants_figures_by_hand() {
    const TraceResult naive = trace_convolution(nullptr, nullptr, 3, 64, 8, ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{32, 4, 1}));
    const TraceResult constant =
        trace_convolution(nullptr, nullptr, 3, 64, 8, ConvolutionLaunch::of(ConvolutionVariant::Constant, Dim3{32, 4, 1}));
    QVERIFY(naive.status && constant.status);
    const MemoryMetrics& n = naive.trace.totals;
    const MemoryMetrics& c = constant.trace.totals;
    QCOMPARE(n.constant_ld.requests, std::uint64_t(0));
    QCOMPARE(c.constant_ld.requests, std::uint64_t(144));
    QCOMPARE(c.constant_ld.wavefronts, std::uint64_t(144));
    QCOMPARE(c.constant_ld.bank_conflicts(), std::uint64_t(0));
    QCOMPARE(n.global_ld.requests - c.global_ld.requests, std::uint64_t(144));
    QCOMPARE(n.global_ld.sectors - c.global_ld.sectors, std::uint64_t(144));
    QCOMPARE(n.global_st.requests, std::uint64_t(16));
    QCOMPARE(n.global_st.sectors, std::uint64_t(64));
    QCOMPARE(c.global_st.sectors, std::uint64_t(64));
    QCOMPARE(n.shared_ld.requests + n.shared_st.requests, std::uint64_t(0));
    // conv_tiled: every window read comes from shared memory (9 a thread: 144 warp requests), and the
    // gray pixels from global memory only when the tile is staged.
    const TraceResult tiled = trace_convolution(nullptr, nullptr, 3, 64, 8, ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{32, 4, 1}));
    QVERIFY(tiled.status);
    QCOMPARE(tiled.trace.totals.shared_ld.requests, std::uint64_t(144));
    QCOMPARE(tiled.trace.totals.constant_ld.requests, std::uint64_t(144));
    // Each block stages a 34x6 tile = 204 floats with 128 threads: 2 rounds, 4 + 3 warp stores (the
    // second round's 76 elements), 7 a block, 28 in all.
    QCOMPARE(tiled.trace.totals.shared_st.requests, std::uint64_t(28));
    QCOMPARE(tiled.trace.buffers.at(1).name, std::string("mask"));
    QCOMPARE(tiled.trace.buffers.at(1).space, MemorySpace::Constant);
    QCOMPARE(naive.trace.buffers.at(1).space, MemorySpace::Global);
}

void TestConvolution::emulated_schedule_covers_the_grid() {
    const std::vector<std::uint8_t> g = picture(37, 11, 3);
    const ConvolutionMask m = mask_of(5, 5);
    std::vector<float> out, want;
    BlockSchedule schedule;
    const ConvolutionLaunch l = ConvolutionLaunch::of(ConvolutionVariant::TiledCached, Dim3{8, 4, 1});
    QVERIFY(convolution_emulated_schedule(problem(g, m, out, 37, 11), l, &schedule));
    QCOMPARE(schedule.blocks.size(), std::size_t(5 * 3));
    convolution_reference(problem(g, m, want, 37, 11));
    QVERIFY(same_bytes(out, want));
}

QTEST_GUILESS_MAIN(TestConvolution)
#include "tst_convolution.moc"
