// The convolution page's staged screenshots (scripts/screenshots, KernelPage::tour): the tiled kernel
// with a pixel near the border picked (its mask window, the reads that fall outside the image, the
// block's output tile and its input tile with the halo), then the memory and source views of the
// constant-memory kernel: the mask's reads are constant broadcasts.
#include "app/convolution/convolution_session.h"
#include "app/trace/memory_trace_session.h"
#include "ui/pages/convolution/convolution_page.h"
#include "ui/pages/screenshot_tour.h"

namespace cvz {

void ConvolutionPage::tour(ScreenshotTour& t) {
    ConvolutionSession* conv = session_;
    auto run = [&](ConvolutionVariant variant) {
        conv->setLaunch(ConvolutionLaunch::of(variant, Dim3{16, 16, 1}));
        return t.waitFor([&] { return conv->resultLaunch().kernel == variant && !conv->running(); }) && t.waitIdle();
    };
    auto traced = [&] { return t.waitFor([&] { return trace_->warpTraced() && !trace_->tracing(); }) && t.waitIdle(); };
    conv->setNamedMask(QStringLiteral("gauss5"));
    t.hideDock(PageDocks::Source);
    t.raiseDock(PageDocks::Inspector);
    run(ConvolutionVariant::Tiled);
    inspectPixel(QPoint(1, 17), true);  // one column of its 5x5 window is ghost cells
    frame(QRect(-6, 6, 34, 36));         // block (0, 1): its output tile, the halo around it, the window
    t.settle();
    t.shot(QStringLiteral("convolution_page"));
    zoomToFit();

    t.raiseDock(PageDocks::Memory);
    t.tall();
    run(ConvolutionVariant::Constant);
    inspectPixel(QPoint(40, 40), true);
    traced();
    t.shot(QStringLiteral("convolution_memory"));
    t.raiseDock(PageDocks::Source);
    traced();
    t.shot(QStringLiteral("convolution_source"));
    t.hideDock(PageDocks::Source);
    t.restoreSize();
}

}  // namespace cvz
