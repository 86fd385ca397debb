// The matrices page's views of the tensor-core rungs (issue 29): the Fragments tab (which lane holds
// which elements of one MMA's A, B and C), the warp tiles drawn on C, and the shared layout that
// feeds the fragments in the memory view.
#include <QCheckBox>
#include <QLabel>
#include <QLocale>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "app/matmul/mma_fragment_layout.h"
#include "app/matmul/mma_stage_view.h"
#include "kernels/matmul/matmul_variants.h"
#include "ui/pages/matmul/fragment_view.h"
#include "ui/pages/matmul/matmul_page.h"
#include "ui/pages/matmul/matrix_heatmap.h"
#include "ui/views/block_colors.h"
#include "ui/views/memory_view.h"

namespace cvz {

namespace {

QString bytes(std::uint64_t n) { return QLocale(QLocale::English).toString(qulonglong(n)); }

QString load_title(const FragmentLoad& l) {
    if (l.ldmatrix) return MatmulPage::tr("A · MMA row %1 · ldmatrix.x4 → a0–a3").arg(l.tile);
    return l.operand == MmaOperand::A
               ? MatmulPage::tr("A · MMA row %1 · %2").arg(l.tile).arg(FragmentView::registerName(MmaOperand::A, l.reg))
               : MatmulPage::tr("B · MMA column %1 · %2").arg(l.tile).arg(FragmentView::registerName(MmaOperand::B, l.reg));
}

QString load_figures(const FragmentLoad& l) {
    std::vector<unsigned> banks;
    for (unsigned w : l.word) banks.push_back(stage_bank(w));
    std::sort(banks.begin(), banks.end());
    const auto distinct = unsigned(std::unique(banks.begin(), banks.end()) - banks.begin());
    QString s = l.bytes == 4 ? MatmulPage::tr("32 lanes, one word each, in %1 of the 32 banks").arg(distinct)
                             : MatmulPage::tr("32 lanes, %1 bytes each (%2 lanes at a time)").arg(l.bytes).arg(32 / (l.bytes / 4));
    s += MatmulPage::tr(": %1 wavefront%2 (ideal %3)").arg(l.wavefronts).arg(l.wavefronts == 1 ? QString() : QStringLiteral("s")).arg(l.ideal_wavefronts);
    s += l.wavefronts > l.ideal_wavefronts
             ? MatmulPage::tr(" — %1 bank conflicts").arg(l.wavefronts - l.ideal_wavefronts)
             : MatmulPage::tr(" — conflict-free");
    if (l.unpadded_wavefronts)
        s += MatmulPage::tr(". Without the padding (rows packed) the same load would take %1 wavefront%2.")
                 .arg(*l.unpadded_wavefronts).arg(*l.unpadded_wavefronts == 1 ? QString() : QStringLiteral("s"));
    return s;
}

// Rows of A in two teals, rows of B in two ambers (every other row darker, so the rows and where
// the padding puts them show); padding has no colour (hatched).
QColor word_color(const StageWord& w) {
    if (w.kind == StageWord::Kind::A) return w.row % 2 ? QColor(150, 205, 205) : QColor(195, 232, 232);
    if (w.kind == StageWord::Kind::B) return w.row % 2 ? QColor(240, 200, 130) : QColor(250, 228, 180);
    return {};
}

}  // namespace

bool MatmulPage::tensorCores() const { return !mma_warp_tiles(session_->launch()).empty(); }

bool MatmulPage::fragmentsTabShown() const { return views_->indexOf(fragments_tab_) >= 0; }

bool MatmulPage::warpTilesShown() const { return warp_tiles_box_->isChecked(); }

void MatmulPage::setWarpTilesShown(bool shown) { warp_tiles_box_->setChecked(shown); }

QString MatmulPage::fragmentCaption() const { return fragment_caption_->text(); }

QWidget* MatmulPage::buildFragmentsTab() {
    auto* tab = new QWidget(this);
    tab->setObjectName(QStringLiteral("fragmentsTab"));
    tab->hide();
    auto* v = new QVBoxLayout(tab);
    v->setContentsMargins(4, 4, 4, 4);
    auto* intro = new QLabel(tab);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    // Short, so that the grids keep their room with every dock open; the whole story in the tooltip.
    intro->setText(tr("<b>One mma.sync m16n8k8 (TF32)</b>: each lane holds 4 elements of A (a0–a3), 2 of B (b0, b1) and "
                      "4 of C (c0–c3). Colour and number: the lane; hover to pick one."));
    intro->setToolTip(tr("The 32 lanes of a warp together hold a 16 × 8 tile of A, an 8 × 8 tile of B and the 16 × 8 tile "
                         "of C they accumulate into, as the PTX ISA lays them out for .tf32 (groupID = lane / 4 picks the "
                         "row of A and C and the column of B). Hover an element to see its lane's elements in all three; "
                         "click to keep that lane. An output of C clicked on the Matrices tab is outlined in orange."));
    fragment_view_ = new FragmentView(tab);
    fragment_caption_ = new QLabel(tab);
    fragment_caption_->setObjectName(QStringLiteral("fragmentCaption"));
    fragment_caption_->setWordWrap(true);
    fragment_caption_->setTextFormat(Qt::PlainText);
    fragment_caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(intro);
    v->addWidget(fragment_view_, 1);
    v->addWidget(fragment_caption_);
    connect(fragment_view_, &FragmentView::laneHovered, this, &MatmulPage::refreshFragmentCaption);
    connect(fragment_view_, &FragmentView::laneSelected, this, &MatmulPage::refreshFragmentCaption);
    refreshFragmentCaption();
    return tab;
}

// The line under the grids: the lane that stands out and what it holds, and the output picked on C.
void MatmulPage::refreshFragmentCaption() {
    const int lane = fragment_view_->emphasisedLane();
    QStringList lines;
    if (lane >= 0) lines << FragmentView::laneSummary(unsigned(lane));
    if (session_->selectedRow() >= 0)
        if (const std::optional<MmaOwner> o = mma_owner(session_->launch(), session_->model().m(), session_->model().n(),
                                                        std::uint32_t(session_->selectedRow()), std::uint32_t(session_->selectedCol())))
            lines << tr("C[%1, %2], picked on the Matrices tab: block (%3, %4), warp %5, MMA tile (%6, %7), its element (%8, %9): "
                        "lane %10, register c%11 (outlined orange)")
                         .arg(session_->selectedRow()).arg(session_->selectedCol()).arg(o->block.x).arg(o->block.y)
                         .arg(o->warp.warp).arg(o->mi).arg(o->ni).arg(o->element.row).arg(o->element.col)
                         .arg(o->element.lane).arg(o->element.reg);
    fragment_caption_->setText(lines.join(QLatin1Char('\n')));
    fragment_caption_->setVisible(!lines.isEmpty());
}

void MatmulPage::refreshTensorCores() {
    const std::vector<WarpTile> warps = mma_warp_tiles(session_->launch());
    const bool tc = !warps.empty();
    // The Fragments tab only for the tensor-core rungs; the matrices in front when it goes.
    if (tc && !fragmentsTabShown()) views_->addTab(fragments_tab_, tr("Fragments (tensor cores)"));
    if (!tc && fragmentsTabShown()) views_->removeTab(views_->indexOf(fragments_tab_));
    warp_tiles_box_->setVisible(tc);
    HeatmapPattern pattern;
    if (tc && warp_tiles_box_->isChecked()) {
        const Dim3 per = matmul_output_tile(session_->launch());
        pattern.period_rows = int(per.y);
        pattern.period_cols = int(per.x);
        pattern.inner_rows = int(MmaShape::M);
        pattern.inner_cols = int(MmaShape::N);
        for (const WarpTile& w : warps) {
            QColor c = color_for_id(w.warp);
            c.setAlpha(45);
            pattern.tiles.append({QRect(int(w.col0), int(w.row0), int(w.cols), int(w.rows)), c, QStringLiteral("w%1").arg(w.warp)});
        }
    }
    c_view_->setPattern(pattern);
    refreshFragmentSelection();
}

void MatmulPage::refreshFragmentSelection() {
    if (!fragment_view_) return;
    std::optional<MmaOwner> owner;
    if (session_->selectedRow() >= 0 && session_->model().valid())
        owner = mma_owner(session_->launch(), session_->model().m(), session_->model().n(), std::uint32_t(session_->selectedRow()),
                          std::uint32_t(session_->selectedCol()));
    fragment_view_->setSelectedC(owner ? std::optional<FragmentElement>(owner->element) : std::nullopt);
    refreshFragmentCaption();  // the picked output may have moved without its lane changing
    refreshSharedLayout();
}

// The memory view's shared layout: one stage of the rung's A and B tiles over the banks, and the
// fragment loads of the picked output's warp (warp 0 without one) at the first k-step.
void MatmulPage::refreshSharedLayout() {
    if (!isBound()) return;
    const MatmulLaunch l = session_->launch();
    int warp = 0;
    std::optional<MmaOwner> owner;
    if (session_->selectedRow() >= 0 && session_->model().valid())
        owner = mma_owner(l, session_->model().m(), session_->model().n(), std::uint32_t(session_->selectedRow()),
                          std::uint32_t(session_->selectedCol()));
    if (owner) warp = int(owner->warp.warp);
    if (layout_variant_ == int(l.kernel) && layout_warp_ == warp) return;
    layout_variant_ = int(l.kernel);
    layout_warp_ = warp;
    const MmaStageView layout = mma_stage_view(l, unsigned(warp), 0);
    if (layout.empty()) {
        docks().memory->setSharedLayout({});
        return;
    }
    SharedLayoutDrawing d;
    const KernelInfo* info = matmul_variant_info(l.kernel);
    const bool ldmatrix = std::any_of(layout.loads.begin(), layout.loads.end(), [](const FragmentLoad& fl) { return fl.ldmatrix; });
    // One short line (the dock may be small); the rest in the tooltip.
    d.title = tr("%1 · a stage: A %2 × %3, B %4 × %5, %6 padding words (hatched) · warp %7's loads, k-step 0")
                  .arg(info ? QString::fromStdString(info->name) : QString())
                  .arg(layout.bm).arg(layout.bk).arg(layout.bk).arg(layout.bn).arg(layout.padding_words()).arg(warp);
    d.tip = tr("One of the %1 shared-memory stages (%2 bytes each) the K-tiles cycle through, as the kernel's own staging "
               "fills it, over the 32 banks (word w is in bank w mod 32). Marked: one fragment load of warp %3 (the "
               "picked output's warp, else warp 0) at the first k-step, each lane's word in its colour, a bank's second "
               "word red.%4")
                .arg(layout.stages).arg(bytes(std::uint64_t(layout.stage_words) * 4)).arg(warp)
                .arg(ldmatrix ? tr(" A's loads are the GPU's ldmatrix.x4 (16 bytes a lane, 8 lanes a wavefront); the "
                                   "emulator's lanes read the same elements one by one.")
                              : QString());
    d.words.reserve(layout.words.size());
    for (const StageWord& w : layout.words) {
        SharedLayoutWord out;
        out.color = word_color(w);
        if (w.kind != StageWord::Kind::Padding) {
            const bool a = w.kind == StageWord::Kind::A;
            out.text = QString::number(w.col);
            out.tip = a ? tr("A[%1, %2]: row %1 of the block's A tile, column %2 of the K-tile").arg(w.row).arg(w.col)
                        : tr("B[%1, %2]: row %1 of the K-tile, column %2 of the block's B tile").arg(w.row).arg(w.col);
        }
        d.words.push_back(out);
    }
    // A section per operand, from its first word to its last (the padding inside it included).
    for (StageWord::Kind kind : {StageWord::Kind::A, StageWord::Kind::B}) {
        int first = -1, last = -1;
        for (std::size_t i = 0; i < layout.words.size(); ++i)
            if (layout.words[i].kind == kind) {
                if (first < 0) first = int(i);
                last = int(i);
            }
        if (first < 0) continue;
        const bool a = kind == StageWord::Kind::A;
        const MmaOperand op = a ? MmaOperand::A : MmaOperand::B;
        const std::optional<unsigned> r0 = layout.word_of(op, 0, 0), r1 = layout.word_of(op, 1, 0);
        const unsigned cols = a ? layout.bk : layout.bn;
        QString title = a ? tr("A's tile: %1 rows of %2 floats").arg(layout.bm).arg(cols) : tr("B's tile: %1 rows of %2 floats").arg(layout.bk).arg(cols);
        if (r0 && r1 && *r1 > *r0)
            title += *r1 - *r0 > cols ? tr(", rows %1 words apart (+%2 padding): a row starts %3 banks on").arg(*r1 - *r0).arg(*r1 - *r0 - cols).arg((*r1 - *r0) % 32)
                                      : tr(", rows packed");
        d.sections.append({title, first, last - first + 1});
    }
    int selected = 0;
    for (std::size_t i = 0; i < layout.loads.size(); ++i) {
        const FragmentLoad& fl = layout.loads[i];
        SharedLayoutLoad out;
        out.title = load_title(fl);
        out.figures = load_figures(fl);
        for (unsigned lane = 0; lane < 32; ++lane) out.lanes.append({int(lane), std::uint64_t(fl.word[lane]) * 4, int(fl.bytes)});
        out.wavefronts = int(fl.wavefronts);
        out.ideal_wavefronts = int(fl.ideal_wavefronts);
        if (owner && fl.operand == MmaOperand::A && fl.tile == owner->mi && fl.reg == 0) selected = int(i);
        d.loads.append(out);
    }
    d.selected_load = selected;
    const bool shown = docks().memory->sharedLayoutShown();
    docks().memory->setSharedLayout(d);
    docks().memory->showSharedLayout(shown);
    docks().memory->selectLoad(selected);
}

QStringList MatmulPage::viewNames() const { return {QStringLiteral("fragments"), QStringLiteral("layout")}; }

bool MatmulPage::showView(const QString& name) {
    if (name == QLatin1String("fragments")) {
        if (!fragmentsTabShown()) return false;
        views_->setCurrentWidget(fragments_tab_);
        return true;
    }
    if (name == QLatin1String("layout")) {
        if (!isBound() || docks().memory->sharedLayout().empty()) return false;
        docks().memory->showSharedLayout(true);
        return true;
    }
    return false;
}

}  // namespace cvz
