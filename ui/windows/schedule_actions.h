#pragma once
#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

#include "app/jobs/job_ticket.h"
#include "kernels/core/block_schedule.h"

class QAction;
class QDockWidget;
class QMenu;

namespace cvz {

class JobRunner;
class MainWindow;
class GrayscaleSession;
class ScheduleOverlay;
class SchedulePanel;
class ScheduleReplay;

// The recorded block schedule in the window: File > Open Schedule... reads a JSON recording (from
// `cudaviz-cli ... --schedule`, or the H200 one shipped in resources/schedules), Run > Record Schedule
// records the image page's current launch on its backend (the emulator here, the GPU where there is
// one) on the worker. Either shows the Schedule dock (SchedulePanel: recorded SMs beside the model,
// time, speed, jump to the tail, the differences) and, when the recording is of the image page's
// current grid, replays it over the output image (ScheduleOverlay).
class ScheduleActions : public QObject {
    Q_OBJECT
public:
    ScheduleActions(MainWindow* window, JobRunner* jobs);

    void addToFileMenu(QMenu* file_menu);
    void addToRunMenu(QMenu* run_menu);
    void createDock();  // after the window's other docks

    // Reads and shows `path`; empty on success, else the message (naming the file and the problem),
    // which is also shown in the status bar and a message box.
    QString openSchedule(const QString& path);
    // Records the image page's current launch on the worker; finished() follows.
    JobTicket recordSchedule();

    SchedulePanel* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    ScheduleOverlay* overlay() const;
    // Why the replay is not drawn over the image (another grid: image size, block shape, variant),
    // or an empty string when it is.
    QString mismatchText() const;

signals:
    void message(const QString& text, bool error);
    void failed(const QString& text);  // worth a message box
    void finished(bool ok);            // a recording came back

private:
    void show(std::shared_ptr<const ScheduleReplay> replay, const QString& source);
    void attachOverlay();
    int modelSlots(const BlockSchedule& schedule, Dim3 grid) const;
    GrayscaleSession* session() const;  // the image page's: schedules are recorded and replayed there

    MainWindow* window_;
    JobRunner* jobs_;
    SchedulePanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QPointer<ScheduleOverlay> overlay_;
    QString last_folder_;
};

}  // namespace cvz
