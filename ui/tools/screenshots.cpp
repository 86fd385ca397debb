// The README's screenshots of staged states (a 1-D launch, a dock raised, the wave animation, the
// sweep), for scripts/screenshots, which also takes the pages as they open with `cudaviz --screenshot`.
// Each shot is written as `cudaviz --screenshot` writes one (WindowScreenshot::write), after the state
// it shows has been reached: every wait is on the session's outcome, none is a fixed delay. Options:
// --size WxH (default 1200x720), --only NAME; QT_SCALE_FACTOR is honoured as usual.
#include <QApplication>
#include <QCommandLineParser>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QElapsedTimer>
#include <QSettings>
#include <QTabWidget>
#include <QThread>

#include <functional>

#include "app/grayscale/grayscale_choice.h"
#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/matmul/matmul_choice.h"
#include "app/matmul/matmul_session.h"
#include "app/trace/memory_trace_session.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"
#include "kernels/matmul/matmul_variants.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/windows/main_window.h"
#include "ui/windows/schedule_actions.h"
#include "ui/panels/schedule_panel.h"
#include "app/trace/schedule_replay.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"
#include "ui/windows/window_screenshot.h"

using namespace cvz;

namespace {

// Runs the event loop until `done` holds (or 60 s pass), then lets paint events settle.
bool wait_for(const std::function<bool()>& done) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > 60000) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    for (int i = 0; i < 20; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return true;
}

bool idle(MainWindow& w) {
    return WindowScreenshot::pageDrawn(w) && !w.session()->running() && !w.matmulPage()->session()->running();
}

bool save(QWidget* window, const QString& path) {
    window->raise();
    wait_for([] { return true; });
    const QString error = WindowScreenshot::write(*window, path);
    qInfo("%s", qPrintable(error.isEmpty() ? QStringLiteral("wrote %1 (%2x%3)").arg(path).arg(window->width()).arg(window->height()) : error));
    return error.isEmpty();
}

void raise_dock(MainWindow& w, PageDocks::Dock which) {
    if (QDockWidget* dock = w.dock(which)) {
        dock->show();  // the Source dock starts closed
        dock->raise();
    }
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-screenshots"));  // settings apart from the app's
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("where to write the PNGs"));
    QCommandLineOption size_option(QStringLiteral("size"), QStringLiteral("window size"), QStringLiteral("WxH"),
                                   QStringLiteral("1200x720"));
    QCommandLineOption only_option(QStringLiteral("only"), QStringLiteral("one shot by name"), QStringLiteral("name"));
    parser.addOption(size_option);
    parser.addOption(only_option);
    parser.process(app);
    const QString dir = parser.positionalArguments().value(0, QStringLiteral("."));
    QDir().mkpath(dir);
    const QStringList wh = parser.value(size_option).split(QLatin1Char('x'));
    const QSize size(wh.value(0).toInt(), wh.value(1).toInt());
    const QString only = parser.value(only_option);
    auto wanted = [&](const QString& name) { return only.isEmpty() || only == name; };
    QSettings().clear();

    MainWindow w(choose_display_path(false));
    w.move(0, 0);
    w.resize(size);
    w.show();
    if (!wait_for([&] { return w.completedRuns() >= 1 && idle(w); })) return 1;
    int failures = 0;
    auto shot = [&](const QString& name, QWidget* window) {
        if (wanted(name) && !save(window, QDir(dir).filePath(name + QStringLiteral(".png")))) ++failures;
    };

    GrayscaleSession* gray = w.session();
    auto run_shape = [&](const LaunchShape& shape) {
        w.launchPanel()->setChoice(grayscale_choice(shape));
        return wait_for([&] { return w.session()->resultShape().block == shape.block && idle(w); });
    };
    raise_dock(w, PageDocks::Inspector);
    run_shape(LaunchShape::two_d(16, 16));
    gray->select(QPoint(200, 120));
    shot(QStringLiteral("main_window"), &w);

    raise_dock(w, PageDocks::Overlay);
    run_shape(LaunchShape::one_d(256));
    shot(QStringLiteral("overlay_1d"), &w);
    run_shape(LaunchShape::two_d(32, 8));
    shot(QStringLiteral("overlay_2d"), &w);

    raise_dock(w, PageDocks::Occupancy);
    shot(QStringLiteral("occupancy"), &w);

    // Waves on a small GPU (T4: 40 SMs), so that the grid takes several.
    raise_dock(w, PageDocks::Sms);
    QComboBox* devices = w.occupancyPanel()->deviceBox();
    const int default_device = devices->currentIndex();
    for (int i = 0; i < devices->count(); ++i)
        if (devices->itemText(i).startsWith(QStringLiteral("T4"))) devices->setCurrentIndex(i);
    run_shape(LaunchShape::two_d(16, 16));
    QComboBox* mode = w.animationModeBox();
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
    w.timeline()->setPosition(1);
    wait_for([] { return true; });
    shot(QStringLiteral("animation"), &w);
    // One block's warps at fit zoom, 1-D: a warp is a line a pixel or two tall, so a ring marks it.
    run_shape(LaunchShape::one_d(256));
    gray->select(QPoint(200, 120));
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Warps)));
    w.timeline()->setPosition(3);
    wait_for([] { return true; });
    shot(QStringLiteral("animation_warps"), &w);
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Off)));
    devices->setCurrentIndex(default_device);

    // The real schedule of the H200 beside the model: the recording shipped in resources/schedules
    // (gray_2d 16x16 over 1920x1080), replayed over a 1920x1080 picture so that the grid is the
    // recording's, a third of the way through the run. Without the file, one recorded here.
    if (wanted(QStringLiteral("schedule"))) {
        const QString h200 = QStringLiteral(":/schedules/h200_gray2d_16x16_1920x1080.json");
        ScheduleActions* schedule = w.scheduleActions();
        run_shape(LaunchShape::two_d(16, 16));
        const QImage before = gray->image();
        const QString before_file = gray->file();
        if (QFile::exists(h200)) {
            gray->setImage(gray->image().scaled(1920, 1080, Qt::IgnoreAspectRatio, Qt::SmoothTransformation), QStringLiteral("chelsea_1920x1080.png"));
            wait_for([&] { return w.session()->plan().grid.x == 120 && idle(w); });
            w.zoomToFit();
            schedule->openSchedule(h200);
        } else {
            bool recorded = false;
            QObject::connect(schedule, &ScheduleActions::finished, [&](bool) { recorded = true; });
            schedule->recordSchedule();
            wait_for([&] { return recorded; });
        }
        QDockWidget* dock = schedule->dock();
        w.resizeDocks({dock}, {w.height() * 2 / 5}, Qt::Vertical);
        SchedulePanel* panel = schedule->panel();
        if (panel->replay()) panel->setTime(panel->replay()->duration_ns() / 3);
        wait_for([] { return true; });
        shot(QStringLiteral("schedule"), &w);
        dock->hide();
        // The later shots show the sample photo again, as before this one.
        if (gray->image().size() != before.size()) {
            gray->setImage(before, before_file);
            wait_for([&] { return w.session()->plan().width == std::uint32_t(before.width()) && idle(w); });
        }
    }

    // The memory view: one warp's three loads and its store, interleaved against planar pixels (1-D
    // 256: a warp reads 32 consecutive pixels), then the source view of a 2-D launch.
    MemoryTraceSession* image_trace = w.imagePage()->traceSession();
    auto traced = [&](MemoryTraceSession* t) { return wait_for([&] { return t->warpTraced() && !t->tracing() && idle(w); }); };
    // A taller window, so the Memory tab under the launch panel shows several requests.
    w.resize(size.expandedTo(QSize(1560, 960)));
    // The extra height to the Memory tab, not to the execution bar.
    auto tall_memory = [&] {
        wait_for([] { return true; });
        w.resizeDocks({w.dock(PageDocks::Memory), w.dock(PageDocks::Timeline)}, {w.height() * 3 / 5, 40}, Qt::Vertical);
    };
    raise_dock(w, PageDocks::Memory);
    tall_memory();
    run_shape(LaunchShape::one_d(256));
    gray->select(QPoint(200, 120));
    gray->setLayout(PixelLayout::Interleaved);
    traced(image_trace);
    shot(QStringLiteral("memory_interleaved"), &w);
    gray->setLayout(PixelLayout::Planar);
    wait_for([&] { return gray->resultLayout() == PixelLayout::Planar && idle(w); });
    traced(image_trace);
    shot(QStringLiteral("memory_planar"), &w);
    gray->setLayout(PixelLayout::Interleaved);
    raise_dock(w, PageDocks::Source);
    run_shape(LaunchShape::two_d(16, 16));
    traced(image_trace);
    shot(QStringLiteral("source_image"), &w);
    if (QDockWidget* source = w.dock(PageDocks::Source)) source->hide();
    w.resize(size);

    w.tabs()->setCurrentWidget(w.matmulPage());
    raise_dock(w, PageDocks::Inspector);
    MatmulSession* mm = w.matmulPage()->session();
    w.launchPanel()->setChoice(matmul_choice(MatmulLaunch::tiled(16)));
    wait_for([&] { return mm->c() && mm->resultLaunch().kernel == MatmulKernel::Tiled && idle(w); });
    mm->selectElement(20, 18);
    w.timeline()->setPosition(4);
    wait_for([] { return true; });
    shot(QStringLiteral("matmul_page"), &w);

    // The tiled kernel's shared memory: a step that multiplies from the tiles (banks, broadcasts), and
    // the source with the step's lines highlighted.
    MemoryTraceSession* mm_trace = w.matmulPage()->traceSession();
    w.resize(size.expandedTo(QSize(1560, 960)));
    raise_dock(w, PageDocks::Memory);
    tall_memory();
    w.timeline()->setPosition(1);
    traced(mm_trace);
    shot(QStringLiteral("matmul_memory"), &w);
    raise_dock(w, PageDocks::Source);
    w.timeline()->setPosition(0);
    traced(mm_trace);
    shot(QStringLiteral("matmul_source"), &w);
    w.resize(size);

    // The sweep and the ladder on 512 x 512 matrices: large enough for the 128 x 128 block tiles.
    if (wanted(QStringLiteral("sweep")) || wanted(QStringLiteral("ladder")) || wanted(QStringLiteral("matmul_warptile"))) {
        mm->generate(512, 512, 512, 512, 1);
        wait_for([&] { return mm->a() && mm->a()->rows == 512 && mm->c() && idle(w); });
    }
    if (wanted(QStringLiteral("sweep"))) {
        w.openSweep();
        SweepDialog* sweep = w.sweepDialog();
        sweep->move(0, 0);
        sweep->resize(1100, 650);
        sweep->startSweep();
        wait_for([&] { return !sweep->isRunning(); });
        shot(QStringLiteral("sweep"), sweep);
    }
    if (wanted(QStringLiteral("ladder"))) {
        w.openLadder();  // the matrices page is in front: the matmul ladder
        LadderDialog* ladder = w.ladderDialog();
        ladder->move(0, 0);
        ladder->resize(1280, 440);
        fit_to_screen(ladder, ladder->frameGeometry().size() - ladder->size());
        ladder->startLadder();
        wait_for([&] { return !ladder->isRunning(); });
        shot(QStringLiteral("ladder"), ladder);
        ladder->hide();
    }
    // A register-tiled kernel in the matrix view: the 128 x 128 block tile, the selected thread's four
    // 8 x 4 sub-tiles and its warp's 64 x 64 tile, read off the block's trace.
    if (wanted(QStringLiteral("matmul_warptile"))) {
        if (QDockWidget* source = w.dock(PageDocks::Source)) source->hide();
        w.resize(size.expandedTo(QSize(1560, 960)));
        raise_dock(w, PageDocks::Inspector);
        const KernelInfo* warptile = matmul_variant_info(MatmulVariant::Warptile);
        w.launchPanel()->setChoice(matmul_choice(MatmulLaunch::of(MatmulVariant::Warptile, warptile->fixed_block, 16)));
        wait_for([&] { return mm->c() && mm->resultLaunch().kernel == MatmulVariant::Warptile && idle(w); });
        mm->selectElement(200, 150);
        w.timeline()->setPosition(7);
        traced(mm_trace);
        wait_for([&] { return w.matmulPage()->selectedThreadId().has_value(); });
        shot(QStringLiteral("matmul_warptile"), &w);
    }
    return failures;
}
