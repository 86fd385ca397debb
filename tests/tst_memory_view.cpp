// The memory view, headless under Xvfb: for a known warp of real traced launches, the lanes' bytes and
// the 32-byte sectors drawn are the addresses the kernel computes (checked against the lecture's
// index formulas, written here independently), each byte cell painted in its lane's colour and the
// unused bytes of a sector grey; interleaved pixels take three sectors per load where planar ones take
// one; shared memory is drawn as 32 bank columns with conflicts red and broadcasts marked.
#include <QtTest>

#include <algorithm>
#include <set>

#include "support/window_waits.h"
#include "kernels/grayscale/grayscale_launch_shape.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/convolution/convolution_trace.h"
#include "ui/views/memory_view.h"
#include "ui/views/trace_presentation.h"

using namespace cvz;

namespace {

bool near_color(QRgb a, QColor b, int tolerance = 2) {
    return std::abs(qRed(a) - b.red()) <= tolerance && std::abs(qGreen(a) - b.green()) <= tolerance &&
           std::abs(qBlue(a) - b.blue()) <= tolerance;
}

QImage grab(MemoryView& view) {
    view.canvas()->repaint();
    return view.canvas()->grab().toImage();
}

// The colour at the middle of a cell, in the grabbed canvas (device pixels).
QRgb at(const QImage& image, const QRect& cell) {
    const qreal dpr = image.devicePixelRatio();
    return image.pixel(int(cell.center().x() * dpr), int(cell.center().y() * dpr));
}

}  // namespace

class TestMemoryView : public QObject {
    Q_OBJECT
private slots:
    void grayscale_warp_lanes_and_sectors_data();
    void grayscale_warp_lanes_and_sectors();
    void interleaved_costs_three_sectors_per_load_planar_one();
    void shared_banks_broadcasts_and_conflicts();
    void tiled_matmul_shared_requests_drawn_in_banks();
    void constant_requests_one_pass_per_word();
    void constant_mask_reads_are_broadcasts();
    void message_when_nothing_picked();
};

void TestMemoryView::grayscale_warp_lanes_and_sectors_data() {
    QTest::addColumn<int>("layout");
    QTest::addColumn<unsigned>("block");
    QTest::addColumn<unsigned>("warp");
    QTest::newRow("interleaved block 1 warp 2") << int(PixelLayout::Interleaved) << 1u << 2u;
    QTest::newRow("planar block 1 warp 2") << int(PixelLayout::Planar) << 1u << 2u;
    // 97 x 33 = 3201 pixels: block 12 holds pixels 3072..3327, so warp 4 (3200..3231) has one lane left.
    QTest::newRow("interleaved last warp, one lane") << int(PixelLayout::Interleaved) << 12u << 4u;
}

// 1-D 256 over a 97 x 33 image: lane l of warp w of block b is pixel i = 256 b + 32 w + l; it loads
// bytes 3i, 3i+1, 3i+2 (interleaved) or i, i+n, i+2n (planar) of rgb and stores byte i of gray.
void TestMemoryView::grayscale_warp_lanes_and_sectors() {
    QFETCH(int, layout);
    QFETCH(unsigned, block);
    QFETCH(unsigned, warp);
    const std::uint32_t width = 97, height = 33;
    const std::uint64_t n = std::uint64_t(width) * height;
    TraceOptions options;
    options.keep_blocks = {block};
    const TraceResult result = trace_grayscale(nullptr, width, height, PixelLayout(layout), LaunchShape::one_d(256), options);
    QVERIFY2(result.status.is_ok(), result.status.message().c_str());
    const std::vector<const MemoryRequest*> requests = result.trace.requests_of(block, warp);
    QCOMPARE(requests.size(), std::size_t(4));  // R, G, B loads, then the store

    MemoryView view;
    view.resize(700, 900);
    view.show();
    QVERIFY(cvz::test::wait_exposed(&view));
    view.setRequests(drawn_requests(result.trace, requests));
    const QImage image = grab(view);

    for (int r = 0; r < 4; ++r) {
        std::set<std::uint64_t> expected_sectors;
        std::set<std::uint64_t> used;
        int lanes = 0;
        for (unsigned lane = 0; lane < 32; ++lane) {
            const std::uint64_t i = 256ull * block + 32ull * warp + lane;
            if (i >= n) continue;  // guarded off: absent from the request
            ++lanes;
            const std::uint64_t offset = r == 3 ? i
                                         : PixelLayout(layout) == PixelLayout::Planar ? i + std::uint64_t(r) * n
                                                                                      : 3 * i + std::uint64_t(r);
            used.insert(offset);
            expected_sectors.insert(offset / 32 * 32);
            const QRect cell = view.byteRect(r, offset);
            QVERIFY2(!cell.isNull(), qPrintable(QStringLiteral("request %1 lane %2: byte %3 not drawn").arg(r).arg(lane).arg(offset)));
            QVERIFY2(near_color(at(image, cell), MemoryView::laneColor(int(lane))),
                     qPrintable(QStringLiteral("request %1: byte %2 is not lane %3's colour").arg(r).arg(offset).arg(lane)));
        }
        QCOMPARE(view.requests()[r].lanes.size(), qsizetype(lanes));
        const QList<std::uint64_t> drawn = view.drawnSectors(r);
        QCOMPARE(std::set<std::uint64_t>(drawn.begin(), drawn.end()), expected_sectors);
        QCOMPARE(view.requests()[r].sectors, int(expected_sectors.size()));
        // Every other byte of a drawn sector was moved for nobody: grey.
        for (std::uint64_t s : expected_sectors)
            for (std::uint64_t b = s; b < s + 32; ++b)
                if (!used.count(b)) QVERIFY(near_color(at(image, view.byteRect(r, b)), MemoryView::unusedByteColor()));
    }
}

// One warp's R load: 32 interleaved pixels span 96 bytes (3 sectors, 32 bytes used); planar, 32 (1).
void TestMemoryView::interleaved_costs_three_sectors_per_load_planar_one() {
    for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
        TraceOptions options;
        options.keep_blocks = {0};
        const TraceResult result = trace_grayscale(nullptr, 64, 9, layout, LaunchShape::one_d(256), options);
        QVERIFY(result.status.is_ok());
        MemoryView view;
        view.resize(600, 800);
        view.setRequests(drawn_requests(result.trace, result.trace.requests_of(0, 0)));
        const int per_load = layout == PixelLayout::Interleaved ? 3 : 1;
        for (int r = 0; r < 3; ++r) {
            QCOMPARE(view.drawnSectors(r).size(), qsizetype(per_load));
            QCOMPARE(view.requests()[r].ideal_sectors, 1);
        }
        QCOMPARE(view.drawnSectors(3).size(), qsizetype(1));  // the store: 32 consecutive grey bytes
    }
}

// Lanes reading 4-byte words: lane l at word 32 l (all in bank 0: 32 words, 31 of them conflicts),
// and a broadcast request (every lane the same word).
void TestMemoryView::shared_banks_broadcasts_and_conflicts() {
    DrawnRequest conflict;
    conflict.shared = true;
    conflict.buffer = QStringLiteral("shared");
    conflict.wavefronts = 32;
    conflict.ideal_wavefronts = 1;
    DrawnRequest broadcast = conflict;
    broadcast.wavefronts = 1;
    for (int lane = 0; lane < 32; ++lane) {
        conflict.lanes << DrawnLane{lane, std::uint64_t(lane) * 32 * 4, 4};
        broadcast.lanes << DrawnLane{lane, 12, 4};  // word 3, bank 3
    }
    MemoryView view;
    view.resize(700, 1200);
    view.show();
    QVERIFY(cvz::test::wait_exposed(&view));
    view.setRequests({conflict, broadcast});
    const QImage image = grab(view);
    const QRect first = view.wordRect(0, 0);
    QVERIFY(!first.isNull());
    QVERIFY(near_color(at(image, first), MemoryView::laneColor(0)));
    for (int lane = 1; lane < 32; ++lane) {
        const QRect cell = view.wordRect(0, std::uint64_t(lane) * 128);
        QCOMPARE(cell.left(), first.left());                 // the same bank column
        QCOMPARE(cell.top(), first.top() + lane * first.height());  // one row per wavefront
        QVERIFY2(near_color(at(image, cell), MemoryView::conflictColor()), qPrintable(QString::number(lane)));
    }
    // The broadcast: one cell in bank 3's column, marked by a white dot in its middle.
    const QRect word = view.wordRect(1, 12);
    QVERIFY(!word.isNull());
    QCOMPARE(word.left(), first.left() + 3 * first.width());
    QVERIFY(near_color(at(image, word), Qt::white));
}

// The tiled kernel's multiply: a warp of a 16 x 16 block is two rows ty; as[ty*16 + i] is one word per
// row (two words, banks 16 apart: broadcasts, no conflict), bs[i*16 + tx] 16 words read by two lanes each.
void TestMemoryView::tiled_matmul_shared_requests_drawn_in_banks() {
    const std::uint32_t m = 37, k = 45, n = 29;
    TraceOptions options;
    options.keep_blocks = {0};
    const TraceResult result = trace_matmul(nullptr, nullptr, m, k, n, MatmulLaunch::tiled(16), options);
    QVERIFY2(result.status.is_ok(), result.status.message().c_str());
    std::vector<const MemoryRequest*> shared_loads;
    for (const MemoryRequest* r : result.trace.requests_of(0, 1))
        if (r->space == MemorySpace::Shared && r->access == Access::Load) shared_loads.push_back(r);
    QVERIFY(shared_loads.size() >= 2);
    MemoryView view;
    view.resize(700, 900);
    view.setRequests(drawn_requests(result.trace, {shared_loads[0], shared_loads[1]}));
    for (int r = 0; r < 2; ++r) {
        QCOMPARE(view.requests()[r].wavefronts, 1);
        std::set<int> rows;
        for (const DrawnLane& l : view.requests()[r].lanes) {
            const QRect cell = view.wordRect(r, l.offset);
            QVERIFY(!cell.isNull());
            rows.insert(cell.top());
        }
        QCOMPARE(rows.size(), std::size_t(1));  // one wavefront: every word in the first row
    }
}

// Constant memory serves one word a pass: lanes reading three words take three passes, drawn as three
// rows one under the other, each with the lanes it serves in their colours.
void TestMemoryView::constant_requests_one_pass_per_word() {
    DrawnRequest r;
    r.constant = true;
    r.buffer = QStringLiteral("mask");
    r.wavefronts = 3;
    r.ideal_wavefronts = 1;
    for (int lane = 0; lane < 32; ++lane) r.lanes << DrawnLane{lane, lane < 10 ? 0u : lane < 20 ? 4u : 20u, 4};
    MemoryView view;
    view.resize(700, 600);
    view.show();
    QVERIFY(cvz::test::wait_exposed(&view));
    view.setRequests({r});
    const QImage image = grab(view);
    const QRect a = view.passRect(0, 0), b = view.passRect(0, 4), c = view.passRect(0, 22);  // 22: inside word 5
    QVERIFY(!a.isNull() && !b.isNull() && !c.isNull());
    QCOMPARE(b.top(), a.top() + a.height());  // one row a pass, in address order
    QCOMPARE(c.top(), b.top() + b.height());
    QVERIFY(view.passRect(0, 8).isNull());    // a word no lane reads takes no pass
    const int cell = a.width() / 32;
    auto lane_cell = [&](const QRect& row, int lane) { return QRect(row.left() + lane * cell, row.top(), cell, row.height()); };
    QVERIFY(near_color(at(image, lane_cell(a, 3)), MemoryView::laneColor(3)));
    QVERIFY(near_color(at(image, lane_cell(b, 12)), MemoryView::laneColor(12)));
    QVERIFY(near_color(at(image, lane_cell(c, 31)), MemoryView::laneColor(31)));
    QVERIFY(!near_color(at(image, lane_cell(a, 12)), MemoryView::laneColor(12)));  // lane 12 waits for the second pass
}

// conv_constant's mask reads, traced: every lane of a warp reads the same M[i][j], one pass each, and
// the view names them as constant memory.
void TestMemoryView::constant_mask_reads_are_broadcasts() {
    TraceOptions options;
    options.keep_blocks = {0};
    const TraceResult result =
        trace_convolution(nullptr, nullptr, 3, 37, 23, ConvolutionLaunch::of(ConvolutionVariant::Constant, Dim3{16, 16, 1}), options);
    QVERIFY2(result.status.is_ok(), result.status.message().c_str());
    std::vector<const MemoryRequest*> constant;
    for (const MemoryRequest* r : result.trace.requests_of(0, 0))
        if (r->space == MemorySpace::Constant) constant.push_back(r);
    QCOMPARE(constant.size(), std::size_t(9));  // a 3x3 mask, one read a tap
    MemoryView view;
    view.resize(700, 1200);
    view.setRequests(drawn_requests(result.trace, constant));
    for (int i = 0; i < 9; ++i) {
        const DrawnRequest& d = view.requests()[i];
        QVERIFY(d.constant && !d.shared);
        QVERIFY2(d.title.contains(QStringLiteral("constant memory")), qPrintable(d.title));
        QCOMPARE(d.wavefronts, 1);
        QCOMPARE(d.lanes.size(), 32);
        QVERIFY(!view.passRect(i, std::uint64_t(i) * 4).isNull());  // M[i / 3][i % 3]: word i
    }
}

void TestMemoryView::message_when_nothing_picked() {
    MemoryView view;
    QVERIFY(view.message().contains(QStringLiteral("Pick a warp")));
    QVERIFY(view.requests().isEmpty());
    QVERIFY(view.drawnSectors(0).isEmpty());
    QVERIFY(view.byteRect(0, 0).isNull());
}

QTEST_MAIN(TestMemoryView)
#include "tst_memory_view.moc"
