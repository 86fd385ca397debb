// The tensor-core views of issue 29, headless under Xvfb: the fragment view draws every element of one
// MMA's A, B and C with the lane and register mma_fragment_layout gives it, and hovering a lane picks
// out its elements in all three; the shared layout puts each element where the kernel's own staging
// puts it, and each fragment load reads what the lane's register holds, at the addresses the traced
// emulator records; the memory view draws that layout; the matrices page shows all of it for the
// tensor-core rungs only, and the inspector names an output's warp, MMA tile, lane and register.
#include <QtTest>

#include <QCheckBox>
#include <QSignalSpy>
#include <QTabWidget>

#include <algorithm>
#include <map>
#include <set>

#include "support/hover.h"
#include "support/main_window_fixtures.h"
#include "support/window_waits.h"
#include "app/io/matrix_generator.h"
#include "app/jobs/job_runner.h"
#include "app/matmul/mma_fragment_layout.h"
#include "app/matmul/mma_stage_view.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/matmul/matmul_variants.h"
#include "ui/pages/matmul/fragment_view.h"
#include "ui/pages/matmul/matmul_page.h"
#include "ui/pages/matmul/matrix_heatmap.h"
#include "ui/views/display_path.h"
#include "ui/views/memory_view.h"
#include "ui/windows/main_window.h"

using namespace cvz;

namespace {

constexpr int kRunTimeoutMs = 120000;
constexpr MmaOperand kOperands[] = {MmaOperand::A, MmaOperand::B, MmaOperand::C};

MatmulLaunch tensor_core_launch(MatmulVariant v) {
    const KernelInfo* info = matmul_variant_info(v);
    return MatmulLaunch::of(v, info ? info->fixed_block : Dim3{}, 16);
}

// The pixel a little inside a cell's top-left corner: its fill, clear of the text.
QColor fill_of(const QImage& shot, const QRectF& cell) { return shot.pixelColor((cell.topLeft() + QPointF(3, 3)).toPoint()); }

using Words = std::array<unsigned, 32>;

}  // namespace

class TestFragmentView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void view_draws_the_layout();
    void hit_test_finds_every_cell_data();
    void hit_test_finds_every_cell();
    void hover_picks_out_a_lane_in_all_three();
    void click_and_picked_output_select_a_lane();
    void shared_layout_is_the_kernels_staging_data();
    void shared_layout_is_the_kernels_staging();
    void fragment_loads_read_the_lanes_registers_data();
    void fragment_loads_read_the_lanes_registers();
    void fragment_loads_are_the_traced_addresses();
    void memory_view_draws_the_layout();
    void page_shows_tensor_cores_only_for_their_rungs();
    void inspector_names_warp_tile_lane_and_register();
    void window_memory_view_gets_the_layout();
};

void TestFragmentView::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-fragment-view-test"));  // settings of its own
    QSettings().clear();
}

// Every element of each tile once, with the lane and register of mma_fragment_layout, and its text.
void TestFragmentView::view_draws_the_layout() {
    FragmentView view;
    for (MmaOperand op : kOperands) {
        std::set<std::pair<unsigned, unsigned>> seen;
        for (const FragmentElement& e : mma_fragment_layout(op)) {
            const std::optional<FragmentElement> drawn = view.elementAt(op, e.row, e.col);
            QVERIFY(drawn);
            QCOMPARE(drawn->lane, e.lane);
            QCOMPARE(drawn->reg, e.reg);
            QCOMPARE(view.cellText(op, e.row, e.col), QStringLiteral("%1 %2%3").arg(e.lane).arg(QLatin1Char(
                                                         op == MmaOperand::A ? 'a' : op == MmaOperand::B ? 'b' : 'c')).arg(e.reg));
            seen.insert({e.row, e.col});
        }
        QCOMPARE(seen.size(), std::size_t(mma_tile_rows(op) * mma_tile_cols(op)));
        QVERIFY(!view.elementAt(op, mma_tile_rows(op), 0));
        QVERIFY(!view.elementAt(op, 0, mma_tile_cols(op)));
    }
    // The PTX figures' corners: A's (15, 7) is lane 31's a3, B's (7, 0) lane 3's b1, C's (8, 1) lane 0's c3.
    QCOMPARE(view.cellText(MmaOperand::A, 15, 7), QStringLiteral("31 a3"));
    QCOMPARE(view.cellText(MmaOperand::B, 7, 0), QStringLiteral("3 b1"));
    QCOMPARE(view.cellText(MmaOperand::C, 8, 1), QStringLiteral("0 c3"));
}

void TestFragmentView::hit_test_finds_every_cell_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("sideBySide");
    QTest::newRow("wide: side by side") << QSize(1000, 420) << true;
    QTest::newRow("tall: the classic diagram") << QSize(420, 900) << false;
    QTest::newRow("small: still every cell") << QSize(230, 160) << true;
}

void TestFragmentView::hit_test_finds_every_cell() {
    QFETCH(QSize, size);
    QFETCH(bool, sideBySide);
    FragmentView view;
    view.resize(size);
    QCOMPARE(view.sideBySide(), sideBySide);
    for (MmaOperand op : kOperands) {
        QVERIFY(QRectF(view.rect()).contains(view.gridRect(op)));
        for (MmaOperand other : kOperands)
            if (other != op) QVERIFY(!view.gridRect(op).intersects(view.gridRect(other)));
        for (unsigned r = 0; r < mma_tile_rows(op); ++r)
            for (unsigned c = 0; c < mma_tile_cols(op); ++c) {
                const std::optional<FragmentView::Hit> hit = view.hitTest(view.cellRect(op, r, c).center());
                QVERIFY(hit);
                QCOMPARE(int(hit->operand), int(op));
                QCOMPARE(hit->element.row, r);
                QCOMPARE(hit->element.col, c);
                QCOMPARE(hit->element.lane, view.elementAt(op, r, c)->lane);
            }
    }
    QVERIFY(!view.hitTest(QPointF(1, 1)));
}

// Hovering A's (9, 5), lane 5's a1: laneHovered(5); lane 5's cells keep their colour in all three
// tiles (4 + 2 + 4 of them), every other cell fades; leaving the grids un-hovers.
void TestFragmentView::hover_picks_out_a_lane_in_all_three() {
    FragmentView view;
    view.resize(1000, 460);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy hovered(&view, &FragmentView::laneHovered);
    const unsigned lane = mma_a_lane(9, 5);
    QCOMPARE(lane, 5u);
    // Delivered to the view itself, not through the X server's one pointer, which the suite's other
    // GUI tests share (support/hover.h): CI once saw no hover at all.
    test::hover(&view, view.cellRect(MmaOperand::A, 9, 5).center().toPoint());
    QCOMPARE(view.hoveredLane(), 5);
    QVERIFY(hovered.count() >= 1);
    QCOMPARE(hovered.last().at(0).toInt(), 5);
    QCOMPARE(view.emphasisedLane(), 5);
    const QImage shot = view.grab().toImage();
    int kept = 0;
    for (MmaOperand op : kOperands)
        for (const FragmentElement& e : mma_fragment_layout(op)) {
            const QColor fill = fill_of(shot, view.cellRect(op, e.row, e.col));
            const QColor own = FragmentView::laneColor(int(e.lane));
            if (e.lane == lane) {
                QCOMPARE(fill.rgb(), own.rgb());
                ++kept;
            } else {
                QVERIFY2(fill.rgb() != own.rgb() && fill.lightness() > own.lightness(), qPrintable(view.cellText(op, e.row, e.col)));
            }
        }
    QCOMPARE(kept, 10);
    // Another lane by moving; then off the grids: none.
    test::hover(&view, view.cellRect(MmaOperand::C, 0, 7).center().toPoint());
    QCOMPARE(view.hoveredLane(), int(mma_c_lane(0, 7)));
    test::hover(&view, QPoint(2, 2));
    QCOMPARE(view.hoveredLane(), -1);
    QCOMPARE(hovered.last().at(0).toInt(), -1);
    const QImage plain = view.grab().toImage();
    QCOMPARE(fill_of(plain, view.cellRect(MmaOperand::B, 0, 0)).rgb(), FragmentView::laneColor(int(mma_b_lane(0, 0))).rgb());
}

void TestFragmentView::click_and_picked_output_select_a_lane() {
    FragmentView view;
    view.resize(1000, 460);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy selected(&view, &FragmentView::laneSelected);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(MmaOperand::B, 6, 3).center().toPoint());
    QCOMPARE(view.selectedLane(), int(mma_b_lane(6, 3)));  // 3 * 4 + 2 = 14
    QCOMPARE(view.selectedLane(), 14);
    QCOMPARE(selected.count(), 1);
    // An output of C picked on the page: its lane is selected, and stands out while nothing is hovered.
    view.setSelectedC(mma_fragment_at(MmaOperand::C, 10, 5));
    QCOMPARE(view.selectedLane(), int(mma_c_lane(10, 5)));
    QCOMPARE(view.emphasisedLane(), view.selectedLane());
    QCOMPARE(selected.count(), 2);
    view.setSelectedC(std::nullopt);
    QVERIFY(!view.selectedC());
}

void TestFragmentView::shared_layout_is_the_kernels_staging_data() {
    QTest::addColumn<MatmulVariant>("variant");
    QTest::newRow("matmul_tf32") << MatmulVariant::Tf32;
    QTest::newRow("matmul_3xtf32") << MatmulVariant::Tf32x3;
}

// Every element of A's and B's tiles in exactly one word of the stage, at the kernel's padded rows
// (TensorCoreTiles: A's rows LDA floats apart, B's LDB, B after A's BM rows), so in the bank
// word % 32; the rest is padding, never written.
template <class S>
static void check_staging(MatmulVariant variant) {
    const MmaStageView layout = mma_stage_view(tensor_core_launch(variant));
    QVERIFY(!layout.empty());
    QCOMPARE(layout.bm, S::BM);
    QCOMPARE(layout.bn, S::BN);
    QCOMPARE(layout.bk, S::BK);
    QCOMPARE(layout.stages, S::STAGES);
    QCOMPARE(layout.stage_words, S::STAGE_FLOATS);
    QCOMPARE(layout.words.size(), std::size_t(S::STAGE_FLOATS));
    std::size_t a = 0, b = 0;
    for (std::size_t w = 0; w < layout.words.size(); ++w) {
        const StageWord& e = layout.words[w];
        if (e.kind == StageWord::Kind::A) {
            QCOMPARE(std::size_t(e.row * S::LDA + e.col), w);
            ++a;
        } else if (e.kind == StageWord::Kind::B) {
            QCOMPARE(std::size_t(S::BM * S::LDA + e.row * S::LDB + e.col), w);
            ++b;
        }
    }
    QCOMPARE(a, std::size_t(S::BM * S::BK));
    QCOMPARE(b, std::size_t(S::BK * S::BN));
    QCOMPARE(layout.padding_words(), S::BM * (S::LDA - S::BK) + S::BK * (S::LDB - S::BN));
    QCOMPARE(*layout.word_of(MmaOperand::A, 3, 5), 3 * S::LDA + 5);
    QCOMPARE(stage_bank(*layout.word_of(MmaOperand::A, 1, 0)), S::LDA % 32);
    QVERIFY(!layout.word_of(MmaOperand::A, S::BM, 0));
    QVERIFY(!layout.word_of(MmaOperand::C, 0, 0));
    // Not a tensor-core rung: no layout.
    QVERIFY(mma_stage_view(MatmulLaunch::tiled(16)).empty());
    QVERIFY(mma_stage_view(tensor_core_launch(variant), S::WARPS).empty());
    QVERIFY(mma_stage_view(tensor_core_launch(variant), 0, 4).empty());
}

void TestFragmentView::shared_layout_is_the_kernels_staging() {
    QFETCH(MatmulVariant, variant);
    if (variant == MatmulVariant::Tf32) check_staging<MatmulTensorCoreBody<1>::Tiles>(variant);
    else check_staging<MatmulTensorCoreBody<3>::Tiles>(variant);
}

void TestFragmentView::fragment_loads_read_the_lanes_registers_data() {
    QTest::addColumn<unsigned>("warp");
    QTest::addColumn<unsigned>("kStep");
    const unsigned last = unsigned(mma_warp_tiles(tensor_core_launch(MatmulVariant::Tf32)).size()) - 1;
    QTest::newRow("warp 0, k-step 0") << 0u << 0u;
    QTest::newRow("warp 1, k-step 8") << 1u << 8u;
    QTest::newRow("the last warp, k-step 0") << last << 0u;
}

// Each load of warp w: lane L's word holds the element its register holds in the MMA tile of the warp
// (mma_fragment.h), one register of one tile for all 32 lanes; the kernel's padding makes every one
// conflict-free, where packed rows would put 4 distinct words in a bank.
void TestFragmentView::fragment_loads_read_the_lanes_registers() {
    QFETCH(unsigned, warp);
    QFETCH(unsigned, kStep);
    const MatmulLaunch launch = tensor_core_launch(MatmulVariant::Tf32);
    const MmaStageView layout = mma_stage_view(launch, warp, kStep);
    QVERIFY(!layout.empty());
    QCOMPARE(layout.warp, warp);
    QCOMPARE(layout.k_step, kStep);
    const WarpTile tile = mma_warp_tiles(launch).at(warp);
    const bool by_ldmatrix = std::any_of(layout.loads.begin(), layout.loads.end(), [](const FragmentLoad& l) { return l.ldmatrix; });
    QCOMPARE(layout.loads.size(), std::size_t(tile.mma_rows * (by_ldmatrix ? 1 : 4) + tile.mma_cols * 2));
    std::set<std::tuple<int, unsigned, unsigned>> seen;
    for (const FragmentLoad& l : layout.loads) {
        QVERIFY(seen.insert({int(l.operand), l.tile, l.reg}).second);
        if (l.ldmatrix) {
            // ldmatrix.x4: lanes 8j..8j+7 point at the 8 rows of matrix j, 16 bytes each; matrix j is
            // the quarter of the tile that register aj holds (rows 8 (j % 2).., columns 4 (j / 2)..).
            QCOMPARE(int(l.operand), int(MmaOperand::A));
            QCOMPARE(l.bytes, 16u);
            for (unsigned lane = 0; lane < 32; ++lane) {
                const unsigned j = lane / 8;
                for (unsigned q = 0; q < 4; ++q) {
                    const StageWord& e = layout.words.at(l.word[lane] + q);
                    QCOMPARE(int(e.kind), int(StageWord::Kind::A));
                    const unsigned r = e.row - tile.row0 - l.tile * 16, c = e.col - kStep;
                    QCOMPARE(r, 8 * (j % 2) + lane % 8);
                    QCOMPARE(c, 4 * (j / 2) + q);
                    QCOMPARE(mma_fragment_at(MmaOperand::A, r, c)->reg, j);
                }
            }
            QCOMPARE(l.wavefronts, 4u);  // one per 8 x 4 matrix: conflict-free
            QCOMPARE(l.ideal_wavefronts, 4u);
            QVERIFY(l.unpadded_wavefronts);
            QVERIFY(*l.unpadded_wavefronts > 4u);
            continue;
        }
        for (unsigned lane = 0; lane < 32; ++lane) {
            const StageWord& e = layout.words.at(l.word[lane]);
            if (l.operand == MmaOperand::A) {
                QCOMPARE(int(e.kind), int(StageWord::Kind::A));
                QCOMPARE(e.row, tile.row0 + l.tile * 16 + mma_a_row(lane, l.reg));
                QCOMPARE(e.col, kStep + mma_a_col(lane, l.reg));
            } else {
                QCOMPARE(int(l.operand), int(MmaOperand::B));
                QCOMPARE(int(e.kind), int(StageWord::Kind::B));
                QCOMPARE(e.row, kStep + mma_b_row(lane, l.reg));
                QCOMPARE(e.col, tile.col0 + l.tile * 8 + mma_b_col(lane, l.reg));
            }
        }
        // Wavefronts: the most distinct words in one bank.
        std::map<unsigned, std::set<unsigned>> banks;
        for (unsigned w : l.word) banks[stage_bank(w)].insert(w);
        std::size_t most = 0;
        for (const auto& [bank, words] : banks) most = std::max(most, words.size());
        QCOMPARE(std::size_t(l.wavefronts), most);
        QCOMPARE(l.wavefronts, 1u);
        QCOMPARE(l.ideal_wavefronts, 1u);
        QVERIFY(l.unpadded_wavefronts);
        QCOMPARE(*l.unpadded_wavefronts, 4u);
    }
}

// The loads against the traced emulator: matmul_tf32 on a 45 x BK @ BK x 38 problem (one block, one
// K-tile, so stage 0 only) records warp w's shared loads; they are exactly the loads of its k-steps.
void TestFragmentView::fragment_loads_are_the_traced_addresses() {
    const MatmulLaunch launch = tensor_core_launch(MatmulVariant::Tf32);
    TraceOptions keep0;
    keep0.keep_blocks = {0};
    const unsigned bk = mma_stage_view(launch).bk;  // K = one K-tile: stage 0 only
    const TraceResult t = trace_matmul(nullptr, nullptr, 45, bk, 38, launch, keep0);
    QVERIFY2(t.status.is_ok(), t.status.message().c_str());
    const std::vector<WarpTile> warps = mma_warp_tiles(launch);
    for (unsigned warp : {0u, unsigned(warps.size() / 2), unsigned(warps.size() - 1)}) {
        // The emulator loads one 4-byte word a lane a register; where the view shows A's loads as the
        // GPU's ldmatrix.x4, those must cover the same words of A as the emulator's A loads.
        const MmaStageView stage = mma_stage_view(launch, warp, 0);
        auto in_a = [&](unsigned w) { return stage.words.at(w).kind == StageWord::Kind::A; };
        std::multiset<std::vector<unsigned>> traced, modelled;
        std::set<unsigned> traced_a, ldmatrix_a;
        bool by_ldmatrix = false;
        for (const MemoryRequest& r : t.trace.requests) {
            if (r.block != 0 || r.warp != warp || r.space != MemorySpace::Shared || r.access != Access::Load) continue;
            std::vector<unsigned> words(32, ~0u);
            for (const LaneAccess& l : r.lanes) {
                QCOMPARE(l.bytes, 4u);
                words.at(l.lane) = unsigned(l.offset / 4);
            }
            traced.insert(words);
            if (in_a(words[0])) traced_a.insert(words.begin(), words.end());
        }
        // The emulator's loads: a0..a3 of each MMA row and b0, b1 of each MMA column, per k-step of 8.
        QCOMPARE(traced.size(), std::size_t(bk / 8 * (warps[warp].mma_rows * 4 + warps[warp].mma_cols * 2)));
        for (unsigned ks = 0; ks < bk; ks += 8)
            for (const FragmentLoad& l : mma_stage_view(launch, warp, ks).loads) {
                if (l.ldmatrix) {
                    by_ldmatrix = true;
                    for (unsigned w : l.word)
                        for (unsigned q = 0; q < 4; ++q) ldmatrix_a.insert(w + q);
                } else {
                    modelled.insert(std::vector<unsigned>(l.word.begin(), l.word.end()));
                }
            }
        if (by_ldmatrix) {
            QVERIFY(traced_a == ldmatrix_a);
            for (auto it = traced.begin(); it != traced.end();) it = in_a((*it)[0]) ? traced.erase(it) : std::next(it);
        }
        QVERIFY(traced == modelled);
    }
}

// The memory view's layout mode: a tab beside the requests while a layout is given; word w in its
// bank's column; the selected load's conflicts listed; an empty layout takes the mode away.
void TestFragmentView::memory_view_draws_the_layout() {
    MemoryView view;
    view.resize(600, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.sharedLayoutShown());
    SharedLayoutDrawing d;
    d.title = QStringLiteral("test");
    d.words.resize(100);
    for (std::size_t i = 0; i < d.words.size(); ++i) d.words[i].color = i % 5 == 4 ? QColor() : QColor(200, 220, 220);
    d.sections.append({QStringLiteral("first"), 0, 60});
    d.sections.append({QStringLiteral("second"), 60, 40});
    SharedLayoutLoad clean, conflicted;
    for (int lane = 0; lane < 32; ++lane) {
        clean.lanes.append({lane, std::uint64_t(lane) * 4, 4});
        conflicted.lanes.append({lane, std::uint64_t(lane % 2 ? 32 + lane - 1 : lane) * 4, 4});  // odd lanes one row below the even: 2 words a bank
    }
    d.loads << clean << conflicted;
    view.setSharedLayout(d);
    view.showSharedLayout(true);
    QVERIFY(view.sharedLayoutShown());
    QTRY_VERIFY(view.layoutCanvas()->isVisible());
    const QRect w0 = view.layoutWordRect(0), w1 = view.layoutWordRect(1), w32 = view.layoutWordRect(32), w65 = view.layoutWordRect(65);
    QVERIFY(!w0.isNull() && !w65.isNull());
    QCOMPARE(w1.left() - w0.left(), w0.width());
    QCOMPARE(w32.left(), w0.left());  // word 32: bank 0 again, the next row
    QVERIFY(w32.top() > w0.top());
    QCOMPARE(w65.left(), view.layoutWordRect(1).left());  // bank 1, in the second section
    QVERIFY(w65.top() > w32.top());
    QVERIFY(view.layoutWordRect(100).isNull());
    QVERIFY(view.conflictWords().isEmpty());
    QSignalSpy loads(&view, &MemoryView::loadSelected);
    view.selectLoad(1);
    QCOMPARE(loads.count(), 1);
    QCOMPARE(view.conflictWords().size(), 16);  // the odd lanes' words 32, 34, ..: a bank's second word each
    // The conflicting words in red, a clean one in its lane's colour.
    const QImage shot = view.layoutCanvas()->grab().toImage();
    QCOMPARE(shot.pixelColor(view.layoutWordRect(32).topLeft() + QPoint(1, 1)).rgb(), MemoryView::conflictColor().rgb());
    QCOMPARE(shot.pixelColor(view.layoutWordRect(0).topLeft() + QPoint(1, 1)).rgb(), MemoryView::laneColor(0).rgb());
    view.setSharedLayout({});
    QVERIFY(!view.sharedLayoutShown());
}

// The Fragments tab, the warp-tiles box and the pattern on C are there for matmul_tf32 and
// matmul_3xtf32, and go away for another rung.
void TestFragmentView::page_shows_tensor_cores_only_for_their_rungs() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    page.setMatrices(random_matrix(45, 20, 1), random_matrix(20, 38, 2));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    page.setLaunch(MatmulLaunch::tiled(16));
    QVERIFY(!page.tensorCores());
    QVERIFY(!page.fragmentsTabShown());
    QVERIFY(page.heatmapC()->pattern().empty());
    QVERIFY(!page.showView(QStringLiteral("fragments")));
    for (MatmulVariant v : {MatmulVariant::Tf32, MatmulVariant::Tf32x3}) {
        page.setLaunch(tensor_core_launch(v));
        QVERIFY(page.tensorCores());
        QVERIFY(page.fragmentsTabShown());
        QVERIFY(page.findChild<QCheckBox*>(QStringLiteral("warpTilesBox"))->isVisible());
        const HeatmapPattern& p = page.heatmapC()->pattern();
        QCOMPARE(p.period_rows, 128);
        QCOMPARE(p.period_cols, 128);
        QCOMPARE(p.tiles.size(), qsizetype(mma_warp_tiles(page.launch()).size()));
        // The last warp's tile (the kernel's tiling: 4 warps of 64 x 64 today), labelled with its number.
        const std::vector<WarpTile> warps = mma_warp_tiles(page.launch());
        QVERIFY(warps.size() >= 2);
        const qsizetype last = qsizetype(warps.size()) - 1;
        const WarpTile& wl = warps.back();
        QVERIFY(wl.row0 > 0 || wl.col0 > 0);
        QCOMPARE(p.tiles.at(last).elements, QRect(int(wl.col0), int(wl.row0), int(wl.cols), int(wl.rows)));
        QCOMPARE(p.tiles.at(last).label, QStringLiteral("w%1").arg(last));
        QCOMPARE(p.inner_rows, 16);
        QCOMPARE(p.inner_cols, 8);
        QVERIFY(page.showView(QStringLiteral("fragments")));
        QVERIFY(page.fragmentView()->isVisible());
        page.setWarpTilesShown(false);
        QVERIFY(page.heatmapC()->pattern().empty());
        page.setWarpTilesShown(true);
        QVERIFY(!page.heatmapC()->pattern().empty());
    }
    page.setLaunch(MatmulLaunch::naive(16, 16));
    QVERIFY(!page.fragmentsTabShown());
    QVERIFY(!page.findChild<QCheckBox*>(QStringLiteral("warpTilesBox"))->isVisible());
    QVERIFY(page.heatmapC()->pattern().empty());
    QVERIFY(QTest::qWaitFor([&] { return !page.running(); }, kRunTimeoutMs));
}

// C[150, 230] of a 200 x 300 C under matmul_tf32: block (1, 1) (128 x 128 tiles), its (22, 102): warp
// 3 (warps along N first: rows 0..63, columns 96..127 of the tile), MMA tile (mi, ni) = (22 / 16,
// (102 - 96) / 8) = (1, 0), element (6, 6): lane 6 * 4 + 6 / 2 = 27, register c0; thread 3 * 32 + 27. The fragment view selects that lane and outlines the output.
void TestFragmentView::inspector_names_warp_tile_lane_and_register() {
    JobRunner runner;
    MatmulPage page(&runner);
    page.resize(1200, 750);
    page.setMatrices(random_matrix(200, 9, 3), random_matrix(9, 300, 4));
    page.setLaunch(tensor_core_launch(MatmulVariant::Tf32));
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    QVERIFY(QTest::qWaitFor([&] { return !page.running(); }, kRunTimeoutMs));
    MatrixHeatmap* c = page.heatmapC();
    QTest::mouseClick(c, Qt::LeftButton, {}, c->elementToWidget(QPointF(230.5, 150.5)).toPoint());
    QCOMPARE(page.selectedRow(), 150);
    QCOMPARE(page.selectedCol(), 230);
    const QString text = page.inspectorText();
    const std::optional<MmaOwner> o = mma_owner(page.launch(), 200, 300, 150, 230);
    QVERIFY(o);
    const unsigned r0 = 128 + o->warp.row0, c0 = 128 + o->warp.col0, thread = o->warp.warp * 32 + o->element.lane;
    QVERIFY2(text.contains(QStringLiteral("block (1, 1), warp %1 computes C rows %2–%3, columns %4–%5")
                               .arg(o->warp.warp).arg(r0).arg(r0 + o->warp.rows - 1).arg(c0).arg(c0 + o->warp.cols - 1)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("MMA tile (%1, %2) of the warp: C rows %3–%4, columns %5–%6; this output is its element (6, 6)")
                               .arg(o->mi).arg(o->ni).arg(r0 + o->mi * 16).arg(r0 + o->mi * 16 + 15).arg(c0 + o->ni * 8).arg(c0 + o->ni * 8 + 7)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("lane 27 in register c0 (thread %1 of the block)").arg(thread)), qPrintable(text));
    QCOMPARE(o->element.lane, 27u);  // (22, 102) of the block: row 22 % 16 = 6, column 102 % 8 = 6 of an MMA tile
    QCOMPARE(o->element.row, 6u);
    if (o->warp.rows == 64 && o->warp.cols == 32) {  // the 2 x 4 warps of 64 x 32 worked out above
        QCOMPARE(o->warp.warp, 3u);
        QCOMPARE(o->mi, 1u);
        QCOMPARE(o->ni, 0u);
    }
    QCOMPARE(page.fragmentView()->selectedLane(), 27);
    QVERIFY(page.fragmentView()->selectedC());
    QCOMPARE(page.fragmentView()->selectedC()->row, 6u);
    QCOMPARE(page.fragmentView()->selectedC()->col, 6u);
    QVERIFY2(page.fragmentCaption().contains(QStringLiteral("warp %1, MMA tile (%2, %3)").arg(o->warp.warp).arg(o->mi).arg(o->ni)),
             qPrintable(page.fragmentCaption()));
    // The trace's storing thread agrees (read off the block's stores, as for the register-tiled rungs).
    QTRY_VERIFY_WITH_TIMEOUT(page.selectedThreadId().has_value(), kRunTimeoutMs);
    QCOMPARE(*page.selectedThreadId(), thread);
}

// In the window: the matrices page in front with matmul_tf32 gives the Memory dock its shared layout
// (warp 0's loads until an output is picked, then the output's warp, its MMA row's a0 selected); the
// layout goes when another rung is chosen, and when another page comes to the front.
void TestFragmentView::window_memory_view_gets_the_layout() {
    MainWindow w(choose_display_path(true));
    QVERIFY(test::show_and_wait(w, {1400, 800}, kRunTimeoutMs));
    auto* page = w.page<MatmulPage>();
    QVERIFY(page);
    w.tabs()->setCurrentWidget(page);
    auto* memory = w.findChild<MemoryView*>();
    QVERIFY(memory);
    page->setMatrices(random_matrix(200, 9, 3), random_matrix(9, 300, 4));
    page->setLaunch(tensor_core_launch(MatmulVariant::Tf32));
    QVERIFY(!memory->sharedLayout().empty());
    const MmaStageView stage = mma_stage_view(page->launch());
    QCOMPARE(memory->sharedLayout().loads.size(), qsizetype(stage.loads.size()));  // 4 x 4 of A (or 4 ldmatrix.x4), 4 x 2 of B
    QVERIFY(memory->sharedLayout().title.contains(QStringLiteral("warp 0")));
    QCOMPARE(memory->sharedLayout().words.size(), std::size_t(MatmulTensorCoreBody<1>::Tiles::STAGE_FLOATS));
    QCOMPARE(memory->sharedLayout().sections.size(), qsizetype(2));
    QVERIFY(w.showPanels({QStringLiteral("memory"), QStringLiteral("layout")}).isEmpty());
    QVERIFY(memory->sharedLayoutShown());
    page->selectElement(150, 230);
    const std::optional<MmaOwner> owner = mma_owner(page->launch(), 200, 300, 150, 230);
    QVERIFY(owner);
    QVERIFY(memory->sharedLayout().title.contains(QStringLiteral("warp %1").arg(owner->warp.warp)));
    const QList<SharedLayoutLoad>& loads = memory->sharedLayout().loads;
    const auto row1 = std::find_if(loads.begin(), loads.end(), [&](const SharedLayoutLoad& l) {
        return l.title.startsWith(QStringLiteral("A · MMA row %1 · ").arg(owner->mi)) &&
               (l.title.endsWith(QStringLiteral("a0")) || l.title.contains(QStringLiteral("ldmatrix")));
    });
    QVERIFY(row1 != loads.end());
    QCOMPARE(memory->selectedLoad(), int(row1 - loads.begin()));  // A's MMA row 1: its a0 (or its ldmatrix.x4)
    QVERIFY(memory->sharedLayoutShown());
    QVERIFY(row1->figures.contains(QStringLiteral("conflict-free")));
    // An unknown view is an error; the page's own are known.
    QVERIFY(!w.showPanels({QStringLiteral("nonesuch")}).isEmpty());
    QVERIFY(w.showPanels({QStringLiteral("fragments")}).isEmpty());
    QCOMPARE(page->viewTabs()->currentIndex(), 1);
    page->setLaunch(MatmulLaunch::tiled(16));
    QVERIFY(memory->sharedLayout().empty());
    QVERIFY(!memory->sharedLayoutShown());
    page->setLaunch(tensor_core_launch(MatmulVariant::Tf32x3));
    QVERIFY(!memory->sharedLayout().empty());
    w.tabs()->setCurrentIndex(0);  // the image page
    QVERIFY(memory->sharedLayout().empty());
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kRunTimeoutMs);
}

QTEST_MAIN(TestFragmentView)
#include "tst_fragment_view.moc"
