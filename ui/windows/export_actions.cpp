#include "ui/windows/export_actions.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>

#include <atomic>
#include <vector>

#include "app/io/image_files.h"
#include "app/jobs/job_runner.h"
#include "app/io/result_tables.h"
#include "ui/pages/kernel_page.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/raster_overlay.h"
#include "ui/views/view_transform.h"
#include "ui/windows/animation_export.h"
#include "ui/windows/main_window.h"
#include "ui/windows/sweep_dialog.h"

namespace cvz {

namespace {

const QString kLastFolderKey = QStringLiteral("export/lastDir");

QString cannot_write(const QString& path, const QString& why) { return cannot_write_message(path, why); }

QString write_png(const QString& path, const QImage& image) {
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) != 0)
        return cannot_write(path, QStringLiteral("the name must end in .png"));
    return write_png_file(path, image);
}

// The output view's picture without a GL context: the raster twin of the shader, at the view's
// size and zoom (logical pixels).
QImage render_view(const AnimationExportRequest& s) {
    ViewTransform transform;
    transform.setImageSize(s.image.size());
    transform.setZoom(s.zoom);
    transform.setCenter(s.center);
    QImage frame = render_overlay_frame(s.overlay, transform, s.size, 1.0, s.image, s.source);
    frame.setDevicePixelRatio(1.0);
    return frame;
}

}  // namespace

ExportActions::ExportActions(MainWindow* window, JobRunner* jobs) : QObject(window), window_(window), jobs_(jobs) {
    // A job cancelled before it started never runs its continuation: answer for it here.
    connect(jobs_, &JobRunner::cancelled, this, [this](quint64 id) {
        if (!pending_.contains(id)) return;
        const Pending p = pending_.take(id);
        done(p.path, p.what, QString(), true);
    });
}

void ExportActions::addTo(QMenu* menu) {
    save_result_ = menu->addAction(tr("&Save Result As..."), this, &ExportActions::saveResultDialog);
    save_result_->setObjectName(QStringLiteral("saveResultAction"));
    save_result_->setShortcut(QKeySequence::Save);
    save_result_->setToolTip(tr("Save the kernel's output as the page's command-line twin writes it "
                                "(PNG or .npy for a picture, .npy or .csv for a matrix)"));
    QMenu* exports = menu->addMenu(tr("&Export"));
    export_view_ = exports->addAction(tr("&View as PNG (with Overlay)..."), this, [this] { exportViewDialog(true); });
    export_view_->setToolTip(tr("The kernel output view as on screen, with the launch grid drawn over it"));
    export_view_plain_ =
        exports->addAction(tr("View as PNG (&without Overlay)..."), this, [this] { exportViewDialog(false); });
    export_animation_ = exports->addAction(tr("&Animation (GIF or PNG Frames)..."), this, &ExportActions::exportAnimationDialog);
    export_animation_->setObjectName(QStringLiteral("exportAnimationAction"));
    export_animation_->setToolTip(tr("Every step of the execution animation at the view's zoom: an animated GIF at "
                                     "the animation's speed, or numbered PNG frames"));
    exports->addSeparator();
    export_timings_ = exports->addAction(tr("&Timings (CSV or JSON)..."), this, &ExportActions::exportTimingsDialog);
    export_timings_->setToolTip(tr("The last run of each page: kernel, launch, problem, backend and times"));
    export_sweep_ = exports->addAction(tr("&Sweep (CSV or JSON)..."), this, &ExportActions::exportSweepDialog);
    export_sweep_->setToolTip(tr("The block-size sweep's rows (Run > Block-Size Sweep first)"));
}

QString ExportActions::lastFolder() const {
    const QString remembered = QSettings().value(kLastFolderKey).toString();
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir()) return remembered;
    const QString file = window_->currentPage() ? window_->currentPage()->documentFile() : QString();
    if (!file.isEmpty() && !file.startsWith(QLatin1Char(':'))) return QFileInfo(file).absolutePath();
    return QDir::homePath();
}

QString ExportActions::askPath(const QString& title, const QString& name, const QString& filter) {
    const QString path = QFileDialog::getSaveFileName(window_, title, QDir(lastFolder()).filePath(name), filter);
    if (!path.isEmpty()) QSettings().setValue(kLastFolderKey, QFileInfo(path).absolutePath());
    return path;
}

// ---- the writes (on the worker) -----------------------------------------------------------------

JobTicket ExportActions::submit(const QString& path, const QString& what,
                                std::function<QString(const JobControl&)> write) {
    static std::atomic<quint64> serial{0};
    // A tag of its own: two exports never supersede each other.
    const QString tag = QStringLiteral("export-%1").arg(++serial);
    emit message(tr("Writing %1 to %2...").arg(what, QDir::toNativeSeparators(path)), false);
    JobTicket ticket = jobs_->submit(tag, this, [this, path, what, write](JobControl& control) -> JobRunner::Continuation {
        const QString error = write(control);
        const bool cancelled = control.cancelRequested();
        return [this, id = control.id(), path, what, error, cancelled] {
            pending_.remove(id);
            done(path, what, error, cancelled);
        };
    });
    pending_.insert(ticket.id(), {path, what});
    return ticket;
}

void ExportActions::done(const QString& path, const QString& what, const QString& error, bool cancelled) {
    if (progress_) progress_->close();
    if (cancelled) emit message(tr("Export of %1 cancelled").arg(what), false);
    else if (!error.isEmpty()) emit message(error, true);
    else emit message(tr("Wrote %1 to %2").arg(what, QDir::toNativeSeparators(path)), false);
    if (!error.isEmpty() && !cancelled && window_->isVisible()) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Export"), error, QMessageBox::Ok, window_);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit finished(path, error, cancelled);
}

void ExportActions::failNow(const QString& path, const QString& error) {
    // Through the event loop, as a worker's answer would come: callers connect after calling.
    QMetaObject::invokeMethod(this, [this, path, error] { done(path, QString(), error, false); }, Qt::QueuedConnection);
}

JobTicket ExportActions::saveResult(const QString& path) {
    KernelPage* page = window_->currentPage();
    QString error = tr("there is no page in front");
    std::function<QString()> write = page ? page->resultWriter(path, &error) : std::function<QString()>();
    if (!write) {
        failNow(path, cannot_write(path, error));
        return {};
    }
    return submit(path, page->resultDescription(), [write](const JobControl&) { return write(); });
}

// The page in front's output view, as drawn; false (and a message) when it has none.
bool ExportActions::viewOfPage(const QString& path, AnimationExportRequest* request) {
    KernelPage* page = window_->currentPage();
    if (page && page->viewExport(request)) return true;
    failNow(path, cannot_write(path, tr("the page in front has no picture view to export")));
    return false;
}

JobTicket ExportActions::exportView(const QString& path, bool with_overlay) {
    AnimationExportRequest snap;
    if (!viewOfPage(path, &snap)) return {};
    if (!with_overlay) {
        snap.overlay.enabled = false;
        snap.overlay.animation = AnimationFrame{};
        snap.overlay.selected_block = -1;
        snap.overlay.selected_pixel = QPoint(-1, -1);
    }
    return submit(path, tr("the view"), [path, snap](const JobControl&) { return write_png(path, render_view(snap)); });
}

JobTicket ExportActions::exportAnimation(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("gif") && suffix != QLatin1String("png")) {
        failNow(path, cannot_write(path, tr("the name must end in .gif (an animated GIF) or .png (numbered frames)")));
        return {};
    }
    AnimationExportRequest request;
    if (!viewOfPage(path, &request)) return {};
    request.steps_per_second = window_->timeline()->stepsPerSecond();
    request.path = path;
    const std::uint64_t frames = animation_export_frames(request);
    JobTicket ticket = submit(path, tr("the animation (%1 frames)").arg(frames), [request](const JobControl& control) {
        return export_animation(request, control).error;
    });
    // Progress with a Cancel button, not modal: the window stays usable while the worker writes.
    if (window_->isVisible() && ticket.isValid()) {
        if (progress_) progress_->close();
        progress_ = new QProgressDialog(tr("Writing %1 frames to %2...").arg(frames).arg(QFileInfo(path).fileName()),
                                        tr("Cancel"), 0, 1000, window_);
        progress_->setAttribute(Qt::WA_DeleteOnClose);
        progress_->setWindowTitle(tr("Export Animation"));
        progress_->setAutoClose(false);
        progress_->setAutoReset(false);
        progress_->setMinimumDuration(0);
        progress_->setWindowModality(Qt::NonModal);
        const quint64 id = ticket.id();
        connect(jobs_, &JobRunner::progress, progress_, [this, id](quint64 job, double fraction) {
            if (job == id && progress_) progress_->setValue(int(fraction * 1000));
        });
        connect(progress_, &QProgressDialog::canceled, this, [this, id] { jobs_->cancel(id); });
        progress_->show();
    }
    return ticket;
}

JobTicket ExportActions::exportTimings(const QString& path) {
    std::vector<RunTiming> runs;
    for (const KernelPage* page : window_->pages())
        if (std::optional<RunTiming> run = page->lastRunTiming()) runs.push_back(*run);
    if (runs.empty()) {
        failNow(path, cannot_write(path, tr("no kernel has run yet")));
        return {};
    }
    return submit(path, tr("the timings"), [path, runs](const JobControl&) { return write_run_timings(path, runs); });
}

JobTicket ExportActions::exportSweep(const QString& path) {
    SweepDialog* sweep = window_->sweepDialog();
    if (!sweep || sweep->result().rows.empty()) {
        failNow(path, cannot_write(path, tr("there is no sweep yet: open Run > Block-Size Sweep first")));
        return {};
    }
    const SweepResult result = sweep->result();
    return submit(path, tr("the sweep"), [path, result](const JobControl&) { return write_sweep(path, result); });
}

// ---- the dialogs --------------------------------------------------------------------------------

void ExportActions::saveResultDialog() {
    KernelPage* page = window_->currentPage();
    if (!page || page->resultFileFilter().isEmpty()) {
        emit message(tr("This page has nothing to save"), true);
        return;
    }
    const QString path = askPath(tr("Save Result As"), page->resultFileName(), page->resultFileFilter());
    if (!path.isEmpty()) saveResult(path);
}

// "chelsea" from the page's document, else "cudaviz": the start of an export's suggested name.
QString ExportActions::baseName() const {
    const QString file = window_->currentPage() ? window_->currentPage()->documentFile() : QString();
    const QString base = QFileInfo(file).completeBaseName();
    return base.isEmpty() ? QStringLiteral("cudaviz") : base;
}

void ExportActions::exportViewDialog(bool with_overlay) {
    const QString path = askPath(with_overlay ? tr("Export View with Overlay") : tr("Export View"),
                                 baseName() + (with_overlay ? QStringLiteral("-view.png") : QStringLiteral("-plain.png")),
                                 tr("PNG image (*.png)"));
    if (!path.isEmpty()) exportView(path, with_overlay);
}

void ExportActions::exportAnimationDialog() {
    const QString path = askPath(tr("Export Animation"), baseName() + QStringLiteral("-waves.gif"),
                                 tr("Animated GIF (*.gif);;PNG frames, numbered (*.png)"));
    if (!path.isEmpty()) exportAnimation(path);
}

void ExportActions::exportTimingsDialog() {
    const QString path = askPath(tr("Export Timings"), QStringLiteral("timings.csv"), tr("CSV (*.csv);;JSON (*.json)"));
    if (!path.isEmpty()) exportTimings(path);
}

void ExportActions::exportSweepDialog() {
    const QString path = askPath(tr("Export Sweep"), QStringLiteral("sweep.csv"), tr("CSV (*.csv);;JSON (*.json)"));
    if (!path.isEmpty()) exportSweep(path);
}

}  // namespace cvz
