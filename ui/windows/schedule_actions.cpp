#include "ui/windows/schedule_actions.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/io/schedule_json.h"
#include "app/trace/schedule_replay.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/kernel_page.h"
#include "ui/panels/schedule_panel.h"
#include "ui/views/image_surface.h"
#include "ui/views/schedule_overlay.h"
#include "ui/windows/dock_scroll_area.h"
#include "ui/windows/main_window.h"

namespace cvz {

GrayscaleSession* ScheduleActions::session() const { return window_->page<ImagePage>()->session(); }

ScheduleActions::ScheduleActions(MainWindow* window, JobRunner* jobs) : QObject(window), window_(window), jobs_(jobs) {}

void ScheduleActions::addToFileMenu(QMenu* file_menu) {
    QAction* open = file_menu->addAction(tr("Open Sc&hedule..."), this, [this] {
        const QString start = last_folder_.isEmpty() ? QDir::homePath() : last_folder_;
        const QString path = QFileDialog::getOpenFileName(window_, tr("Open Block Schedule"), start,
                                                          tr("Block schedules (*.json);;All files (*)"));
        if (!path.isEmpty()) openSchedule(path);
    });
    open->setObjectName(QStringLiteral("openScheduleAction"));
    open->setToolTip(tr("Replay a recorded block schedule (cudaviz-cli grayscale --schedule FILE.json) beside the model"));
    // Recordings made on the H200 and shipped with the app (resources/schedules), so that the replay
    // can be seen without a GPU.
    QMenu* samples = file_menu->addMenu(tr("Open Sample Sche&dule"));
    samples->setObjectName(QStringLiteral("sampleSchedulesMenu"));
    samples->addAction(tr("H200, gray_2d 16x16 over 1920x1080 (8,160 blocks)"), this,
                       [this] { openSchedule(QStringLiteral(":/schedules/h200_gray2d_16x16_1920x1080.json")); });
    samples->addAction(tr("H200, gray_2d 16x16 over the sample photo (551 blocks)"), this,
                       [this] { openSchedule(QStringLiteral(":/schedules/h200_gray2d_16x16_451x300.json")); });
}

void ScheduleActions::addToRunMenu(QMenu* run_menu) {
    QAction* record = run_menu->addAction(tr("Record &Schedule"), this, [this] { recordSchedule(); });
    record->setObjectName(QStringLiteral("recordScheduleAction"));
    record->setToolTip(tr("Run the current page's launch once more, recording which SM (or host worker) ran each block "
                          "and when, and replay it beside the model"));
}

void ScheduleActions::createDock() {
    panel_ = new SchedulePanel(window_);
    panel_->setObjectName(QStringLiteral("schedulePanel"));
    dock_ = new QDockWidget(tr("Schedule"), window_);
    dock_->setObjectName(QStringLiteral("scheduleDock"));
    dock_->setWidget(new DockScrollArea(panel_, window_));  // scrolls when short: the window stays on screen
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    // A tab beside the execution timeline: the bottom area's whole width for the two SM views.
    if (QDockWidget* timeline = window_->dock(PageDocks::Timeline)) window_->tabifyDockWidget(timeline, dock_);
    dock_->hide();  // until there is a schedule to show
    // In View > Panels like every dock, so that a closed Schedule panel can be opened again.
    if (QMenu* panels = window_->panelsMenu()) panels->addAction(dock_->toggleViewAction());
    connect(panel_, &SchedulePanel::timeChanged, this, [this](std::uint64_t t) {
        if (overlay_) overlay_->setTime(t);
    });
    // Closing the panel ends the replay over the image (its frozen running blocks would hide the
    // output); opening it again draws it again. The action, not visibilityChanged: a tab behind the
    // Execution bar is not closed.
    connect(dock_->toggleViewAction(), &QAction::toggled, this, [this](bool open) {
        if (open) {
            if (panel_->replay()) attachOverlay();
            return;
        }
        panel_->setPlaying(false);
        delete overlay_;
    });
    // A new launch (another block shape, another picture) has another grid: the overlay follows.
    connect(session(), &GrayscaleSession::planChanged, this, [this] {
        if (panel_->replay() && !dock_->isHidden()) attachOverlay();
    });
}

QString ScheduleActions::openSchedule(const QString& path) {
    const LoadedSchedule loaded = read_schedule_json(path);
    if (!loaded.ok()) {
        emit message(loaded.error, true);
        emit failed(loaded.error);
        return loaded.error;
    }
    if (!path.startsWith(QLatin1Char(':'))) last_folder_ = QFileInfo(path).absolutePath();
    show(std::make_shared<const ScheduleReplay>(loaded.schedule, loaded.grid, modelSlots(loaded.schedule, loaded.grid)),
         QFileInfo(path).fileName());
    const QString opened = tr("Opened the block schedule %1: %2 blocks recorded on %3")
                               .arg(QDir::toNativeSeparators(path))
                               .arg(qulonglong(loaded.schedule.blocks.size()))
                               .arg(QString::fromStdString(loaded.schedule.device));
    // A recording of another launch replays in its panel only: say so, and how the two differ.
    const QString mismatch = mismatchText();
    emit message(mismatch.isEmpty() ? opened : opened + QStringLiteral(". ") + mismatch, false);
    return {};
}

JobTicket ScheduleActions::recordSchedule() {
    // The page in front's own job: its chosen variant's schedule, or your kernel's when it is chosen.
    const KernelPage* page = window_->currentPage();
    const std::function<ScheduleRun()> job = page ? page->scheduleJob() : nullptr;
    if (!job) {
        emit message(tr("Nothing to record on the %1 page yet: open its input first").arg(page ? page->title() : QString()), true);
        return {};
    }
    emit message(tr("Recording the schedule of the %1 page's launch...").arg(page->title()), false);
    return jobs_->submit(QStringLiteral("schedule"), this, [this, job]() -> JobRunner::Continuation {
        // Worker thread.
        ScheduleRun run = job();
        run.output.clear();
        return [this, run] {
            if (!run.status) {
                const QString e = tr("Recording the schedule failed: %1").arg(QString::fromStdString(run.status.message()));
                emit message(e, true);
                emit finished(false);
                return;
            }
            Dim3 grid;
            check_block_schedule(run.schedule, &grid);
            show(std::make_shared<const ScheduleReplay>(run.schedule, grid, modelSlots(run.schedule, grid)),
                 tr("recorded just now"));
            emit message(tr("Recorded the schedule of %1 blocks on %2")
                             .arg(qulonglong(run.schedule.blocks.size()))
                             .arg(QString::fromStdString(run.schedule.device)),
                         false);
            emit finished(true);
        };
    });
}

void ScheduleActions::show(std::shared_ptr<const ScheduleReplay> replay, const QString& source) {
    panel_->setReplay(std::move(replay), source);
    dock_->show();
    dock_->raise();
    attachOverlay();
}

ScheduleOverlay* ScheduleActions::overlay() const { return overlay_; }

QString ScheduleActions::mismatchText() const {
    const std::shared_ptr<const ScheduleReplay> replay = panel_->replay();
    const GrayscaleSession* session = this->session();
    if (!replay || replay->empty()) return {};
    const Dim3 recorded = replay->grid();
    auto grid_text = [](Dim3 g) {
        return g.z > 1 ? tr("%1 × %2 × %3").arg(g.x).arg(g.y).arg(g.z) : tr("%1 × %2").arg(g.x).arg(g.y);
    };
    if (!session->hasPlan())
        return tr("It is not drawn over the image: no image is open (the recording's grid is %1 blocks).").arg(grid_text(recorded));
    const LaunchPlan& plan = session->plan();
    if (plan.grid == recorded) return {};
    // The schedule file holds the grid only: the launch it came from is told by its shape. A 1-D grid
    // against a 2-D one is another variant; otherwise another image size or block shape.
    const bool recorded_1d = recorded.y == 1 && recorded.z == 1, current_1d = plan.grid.y == 1 && plan.grid.z == 1;
    QString how;
    if (recorded_1d != current_1d)
        how = tr("another variant: a %1 grid, and the image page runs a %2 one")
                  .arg(recorded_1d ? tr("1-D") : tr("2-D"), current_1d ? tr("1-D") : tr("2-D"));
    else
        how = tr("another image size or block shape");
    return tr("It does not match the image page's launch, so it replays in the Schedule panel only, not over the image: "
              "it was recorded for a grid of %1 blocks, the image page's %2 over %3 × %4 pixels has %5 (%6).")
        .arg(grid_text(recorded), QString::fromStdString(to_string(session->shape())))
        .arg(plan.width)
        .arg(plan.height)
        .arg(grid_text(plan.grid), how);
}

int ScheduleActions::modelSlots(const BlockSchedule& schedule, Dim3 grid) const {
    // The occupancy model's blocks per SM apply when the recording is of the image page's launch on a
    // GPU with the profile's SM count; otherwise the model takes the recording's own concurrency.
    const GrayscaleSession* session = this->session();
    const bool same_launch = session->plan().blocks > 0 && session->plan().grid == grid;
    const bool same_gpu = schedule.backend == "cuda" && session->waves().sm_count == schedule.sms;
    return same_launch && same_gpu ? session->waves().blocks_per_sm : 0;
}

void ScheduleActions::attachOverlay() {
    ImageSurface* view = window_->page<ImagePage>()->resultView();
    if (!view) return;
    if (overlay_ && overlay_->parentWidget() != view->widget()) delete overlay_;  // the view was replaced
    if (!overlay_) overlay_ = new ScheduleOverlay(view);
    overlay_->setReplay(panel_->replay(), session()->plan());
    overlay_->setTime(panel_->time());
    panel_->setNote(mismatchText());
}

}  // namespace cvz
