// The image page's staged screenshots (scripts/screenshots, KernelPage::tour): a 1-D and a 2-D launch
// over the photo, occupancy and the waves on a small GPU, one block's warps, the H200's recorded
// schedule, the memory view of both pixel layouts and the source view.
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QMainWindow>

#include "app/grayscale/grayscale_session.h"
#include "app/trace/memory_trace_session.h"
#include "app/trace/schedule_replay.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/screenshot_tour.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/schedule_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/windows/schedule_actions.h"

namespace cvz {

void ImagePage::tour(ScreenshotTour& t) {
    GrayscaleSession* gray = session_;
    auto run_shape = [&](const LaunchShape& shape) {
        gray->setShape(shape);
        return t.waitFor([&] { return gray->resultShape().block == shape.block && !gray->running(); }) && t.waitIdle();
    };
    auto traced = [&] { return t.waitFor([&] { return trace_->warpTraced() && !trace_->tracing(); }) && t.waitIdle(); };
    t.raiseDock(PageDocks::Inspector);
    run_shape(LaunchShape::two_d(16, 16));
    gray->select(QPoint(200, 120));
    t.shot(QStringLiteral("main_window"));

    t.raiseDock(PageDocks::Overlay);
    run_shape(LaunchShape::one_d(256));
    t.shot(QStringLiteral("overlay_1d"));
    run_shape(LaunchShape::two_d(32, 8));
    t.shot(QStringLiteral("overlay_2d"));

    t.raiseDock(PageDocks::Occupancy);
    t.shot(QStringLiteral("occupancy"));

    // Waves on a small GPU (T4: 40 SMs), so that the grid takes several.
    t.raiseDock(PageDocks::Sms);
    QComboBox* devices = docks().occupancy->deviceBox();
    const int default_device = devices->currentIndex();
    for (int i = 0; i < devices->count(); ++i)
        if (devices->itemText(i).startsWith(QStringLiteral("T4"))) devices->setCurrentIndex(i);
    run_shape(LaunchShape::two_d(16, 16));
    QComboBox* mode = docks().animation_mode;
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
    docks().timeline->setPosition(1);
    t.settle();
    t.shot(QStringLiteral("animation"));
    // One block's warps at fit zoom, 1-D: a warp is a line a pixel or two tall, so a ring marks it.
    run_shape(LaunchShape::one_d(256));
    gray->select(QPoint(200, 120));
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Warps)));
    docks().timeline->setPosition(3);
    t.settle();
    t.shot(QStringLiteral("animation_warps"));
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Off)));
    devices->setCurrentIndex(default_device);

    // The real schedule of the H200 beside the model: the recording shipped in resources/schedules
    // (gray_2d 16x16 over 1920x1080), replayed over a 1920x1080 picture so that the grid is the
    // recording's, a third of the way through the run. Without the file, one recorded here.
    if (t.wanted(QStringLiteral("schedule"))) {
        const QString h200 = QStringLiteral(":/schedules/h200_gray2d_16x16_1920x1080.json");
        ScheduleActions* schedule = t.schedule();
        run_shape(LaunchShape::two_d(16, 16));
        const QImage before = gray->image();
        const QString before_file = gray->file();
        if (QFile::exists(h200)) {
            gray->setImage(gray->image().scaled(1920, 1080, Qt::IgnoreAspectRatio, Qt::SmoothTransformation),
                           QStringLiteral("chelsea_1920x1080.png"));
            t.waitFor([&] { return gray->plan().grid.x == 120 && !gray->running(); });
            t.waitIdle();
            zoomToFit();
            schedule->openSchedule(h200);
        } else {
            bool recorded = false;
            const QMetaObject::Connection c =
                connect(schedule, &ScheduleActions::finished, this, [&recorded](bool) { recorded = true; });
            schedule->recordSchedule();
            t.waitFor([&] { return recorded; });
            disconnect(c);
        }
        QDockWidget* dock = schedule->dock();
        if (auto* main = qobject_cast<QMainWindow*>(t.window())) main->resizeDocks({dock}, {main->height() * 2 / 5}, Qt::Vertical);
        SchedulePanel* panel = schedule->panel();
        if (panel->replay()) panel->setTime(panel->replay()->duration_ns() / 3);
        t.settle();
        t.shot(QStringLiteral("schedule"));
        dock->hide();
        // The later shots show the sample photo again, as before this one.
        if (gray->image().size() != before.size()) {
            gray->setImage(before, before_file);
            t.waitFor([&] { return gray->plan().width == std::uint32_t(before.width()) && !gray->running(); });
            t.waitIdle();
        }
    }

    // The memory view: one warp's three loads and its store, interleaved against planar pixels (1-D
    // 256: a warp reads 32 consecutive pixels), then the source view of a 2-D launch.
    t.raiseDock(PageDocks::Memory);
    t.tall();
    run_shape(LaunchShape::one_d(256));
    gray->select(QPoint(200, 120));
    gray->setLayout(PixelLayout::Interleaved);
    traced();
    t.shot(QStringLiteral("memory_interleaved"));
    gray->setLayout(PixelLayout::Planar);
    t.waitFor([&] { return gray->resultLayout() == PixelLayout::Planar && !gray->running(); });
    traced();
    t.shot(QStringLiteral("memory_planar"));
    gray->setLayout(PixelLayout::Interleaved);
    t.raiseDock(PageDocks::Source);
    run_shape(LaunchShape::two_d(16, 16));
    traced();
    t.shot(QStringLiteral("source_image"));
    t.hideDock(PageDocks::Source);
    t.restoreSize();
}

}  // namespace cvz
