#pragma once
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include "app/jobs/job_ticket.h"

class QAction;
class QMenu;
class QProgressDialog;

namespace cvz {

class JobRunner;
class MainWindow;
struct AnimationExportRequest;

// File > Save Result As and the exports, for whichever page is in front (KernelPage says what it has):
// its result (as its command-line twin writes it, so the same bytes), its output view as PNG with or
// without the overlay, the execution animation (numbered PNG frames or an animated GIF through
// giflib), every page's last run's timings and the last sweep as CSV or JSON. Every file is written on the worker
// (JobRunner): the long ones show progress with a Cancel button and the window stays live. Errors
// name the file and the problem. The folder of the last export is remembered (QSettings).
class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(MainWindow* window, JobRunner* jobs);

    // Adds the entries to `file_menu` (Save Result As is Ctrl+S).
    void addTo(QMenu* file_menu);

    // Without dialogs (tests, scripts): each queues the write and returns its ticket; finished()
    // follows. The page in front's document is what they write.
    JobTicket saveResult(const QString& path);                 // .png or .npy
    JobTicket exportView(const QString& path, bool with_overlay);  // .png
    JobTicket exportAnimation(const QString& path);            // .gif, or .png for numbered frames
    JobTicket exportTimings(const QString& path);              // .csv or .json
    JobTicket exportSweep(const QString& path);                // .csv or .json

    // Where the save dialogs open: the folder of the last export, else next to the open file.
    QString lastFolder() const;

    QAction* saveResultAction() const { return save_result_; }
    QAction* exportAnimationAction() const { return export_animation_; }

signals:
    // After each write: `error` empty on success; `cancelled` when the user stopped it.
    void finished(const QString& path, const QString& error, bool cancelled);
    void message(const QString& text, bool error);  // for the status bar

private:
    void saveResultDialog();
    void exportViewDialog(bool with_overlay);
    void exportAnimationDialog();
    void exportTimingsDialog();
    void exportSweepDialog();
    QString baseName() const;
    bool viewOfPage(const QString& path, AnimationExportRequest* request);
    QString askPath(const QString& title, const QString& name, const QString& filter);
    JobTicket submit(const QString& path, const QString& what, std::function<QString(const JobControl&)> write);
    void done(const QString& path, const QString& what, const QString& error, bool cancelled);
    void failNow(const QString& path, const QString& error);

    MainWindow* window_;
    JobRunner* jobs_;
    QAction* save_result_ = nullptr;
    QAction* export_view_ = nullptr;
    QAction* export_view_plain_ = nullptr;
    QAction* export_animation_ = nullptr;
    QAction* export_timings_ = nullptr;
    QAction* export_sweep_ = nullptr;
    QPointer<QProgressDialog> progress_;
    struct Pending {
        QString path, what;
    };
    QHash<quint64, Pending> pending_;  // submitted, not answered: a job cancelled while queued never runs
};

}  // namespace cvz
