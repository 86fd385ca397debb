// The matrices page's staged screenshots (scripts/screenshots, KernelPage::tour): the tiled kernel
// with a thread picked, its shared memory in the memory and source views, the sweep and the ladder on
// 512 x 512 matrices, a register-tiled kernel's tiles, and a tensor-core rung's fragments, warp tiles
// and shared layout.
#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>

#include "app/trace/memory_trace_session.h"
#include "ui/pages/matmul/fragment_view.h"
#include "kernels/matmul/matmul_variants.h"
#include "ui/pages/matmul/matmul_page.h"
#include "ui/pages/screenshot_tour.h"
#include "ui/views/memory_view.h"
#include "ui/panels/timeline_bar.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"

namespace cvz {

void MatmulPage::tour(ScreenshotTour& t) {
    MatmulSession* mm = session_;
    auto traced = [&] { return t.waitFor([&] { return trace_->warpTraced() && !trace_->tracing(); }) && t.waitIdle(); };
    t.raiseDock(PageDocks::Inspector);
    setLaunch(MatmulLaunch::tiled(16));
    t.waitFor([&] { return mm->c() && mm->resultLaunch().kernel == MatmulVariant::Tiled && !mm->running(); });
    t.waitIdle();
    selectElement(20, 18);
    docks().timeline->setPosition(4);
    t.settle();
    t.shot(QStringLiteral("matmul_page"));

    // The tiled kernel's shared memory: a step that multiplies from the tiles (banks, broadcasts), and
    // the source with the step's lines highlighted.
    t.raiseDock(PageDocks::Memory);
    t.tall();
    docks().timeline->setPosition(1);
    traced();
    t.shot(QStringLiteral("matmul_memory"));
    t.raiseDock(PageDocks::Source);
    docks().timeline->setPosition(0);
    traced();
    t.shot(QStringLiteral("matmul_source"));
    t.hideDock(PageDocks::Source);
    t.restoreSize();

    // The sweep and the ladder on 512 x 512 matrices: large enough for the 128 x 128 block tiles.
    if (t.wanted(QStringLiteral("sweep")) || t.wanted(QStringLiteral("ladder")) || t.wanted(QStringLiteral("matmul_warptile"))) {
        generate(512, 512, 512, 512, 1);
        t.waitFor([&] { return mm->a() && mm->a()->rows == 512 && mm->c() && !mm->running(); });
        t.waitIdle();
    }
    if (t.wanted(QStringLiteral("sweep"))) {
        SweepDialog* sweep = t.openSweep();
        sweep->move(0, 0);
        sweep->resize(1100, 650);
        sweep->startSweep();
        t.waitFor([&] { return !sweep->isRunning(); });
        t.shot(QStringLiteral("sweep"), sweep);
    }
    if (t.wanted(QStringLiteral("ladder"))) {
        LadderDialog* ladder = t.openLadder();  // this page is in front: the matmul ladder
        ladder->move(0, 0);
        ladder->resize(1280, 440);
        fit_to_screen(ladder, ladder->frameGeometry().size() - ladder->size());
        ladder->startLadder();
        t.waitFor([&] { return !ladder->isRunning(); });
        t.shot(QStringLiteral("ladder"), ladder);
        ladder->hide();
    }
    // A register-tiled kernel in the matrix view: the 128 x 128 block tile, the selected thread's four
    // 8 x 4 sub-tiles and its warp's 64 x 64 tile, read off the block's trace.
    if (t.wanted(QStringLiteral("matmul_warptile"))) {
        t.hideDock(PageDocks::Source);
        t.tall();
        t.raiseDock(PageDocks::Inspector);
        const KernelInfo* warptile = matmul_variant_info(MatmulVariant::Warptile);
        setLaunch(MatmulLaunch::of(MatmulVariant::Warptile, warptile->fixed_block, 16));
        t.waitFor([&] { return mm->c() && mm->resultLaunch().kernel == MatmulVariant::Warptile && !mm->running(); });
        t.waitIdle();
        selectElement(200, 150);
        docks().timeline->setPosition(7);
        traced();
        t.waitFor([&] { return selectedThreadId().has_value(); });
        t.shot(QStringLiteral("matmul_warptile"));
        t.restoreSize();
    }
    // matmul_tf32 on a 200 x 300 C (2 x 3 blocks of 128 x 128): the Fragments tab with the picked
    // output's lane and another hovered, then the warp tiles on C and the shared layout in the memory view.
    if (t.wanted(QStringLiteral("matmul_fragments")) || t.wanted(QStringLiteral("matmul_shared_layout"))) {
        t.hideDock(PageDocks::Source);
        t.raiseDock(PageDocks::Inspector);
        const KernelInfo* tf32 = matmul_variant_info(MatmulVariant::Tf32);
        generate(200, 72, 72, 300, 1);
        setLaunch(MatmulLaunch::of(MatmulVariant::Tf32, tf32->fixed_block, 16));
        t.waitFor([&] { return mm->c() && mm->c()->cols == 300 && mm->resultLaunch().kernel == MatmulVariant::Tf32 && !mm->running(); });
        t.waitIdle();
        setWarpTilesShown(true);
        selectElement(150, 230);
        showView(QStringLiteral("fragments"));
        fragment_view_->setHoveredLane(13);
        t.settle();
        t.shot(QStringLiteral("matmul_fragments"));
        fragment_view_->setHoveredLane(-1);
        views_->setCurrentIndex(0);
        t.raiseDock(PageDocks::Memory);
        t.tall();
        // The banks wide enough to carry their columns' numbers: the right-hand docks widened.
        QWidget* dock = docks().memory;
        while (dock && !qobject_cast<QDockWidget*>(dock)) dock = dock->parentWidget();
        if (auto* window = qobject_cast<QMainWindow*>(t.window()); window && dock)
            window->resizeDocks({static_cast<QDockWidget*>(dock)}, {640}, Qt::Horizontal);
        showView(QStringLiteral("layout"));
        t.settle();
        t.shot(QStringLiteral("matmul_shared_layout"));
        t.restoreSize();
    }
}

}  // namespace cvz
