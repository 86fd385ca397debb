#include "ui/windows/window_screenshot.h"

#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QLayout>
#include <QFileInfo>
#include <QPixmap>
#include <QTimer>

#include "app/jobs/job_runner.h"
#include "ui/pages/kernel_page.h"
#include "ui/windows/main_window.h"

namespace cvz {

WindowScreenshot::WindowScreenshot(MainWindow* window, const QString& path, QObject* parent)
    : QObject(parent), window_(window), path_(path) {}

bool WindowScreenshot::pageDrawn(const MainWindow& w) {
    if (!w.isVisible() || w.jobs()->busy()) return false;
    // The status bar's busy indicator hides on the worker's busyChanged: until then a result may be on its way.
    if (const auto* busy = w.findChild<const QWidget*>(QStringLiteral("busyIndicator")); busy && busy->isVisible()) return false;
    return w.currentPage() && w.currentPage()->resultShown();
}

QString WindowScreenshot::write(QWidget& w, const QString& path) {
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) != 0)
        return tr("cannot write %1: the screenshot must be a .png file").arg(QDir::toNativeSeparators(path));
    // Layouts still pending (a dock whose content just grew) are applied first, or the picture shows
    // docks overlapping for the one frame before they would be.
    for (int pass = 0; pass < 3; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (w.layout()) w.layout()->activate();
    }
    // grab() renders the widgets (the GL views through their framebuffers) whether or not the window
    // is covered on the screen.
    const QPixmap shot = w.grab();
    if (shot.isNull()) return tr("cannot grab the window");
    if (!shot.save(path, "PNG"))
        return tr("cannot write %1 (is the folder there and writable?)").arg(QDir::toNativeSeparators(path));
    return {};
}

void WindowScreenshot::start() {
    MainWindow* w = window_;
    if (!w) return fail(tr("no window"));
    connect(w->jobs(), &JobRunner::busyChanged, this, &WindowScreenshot::check);
    for (KernelPage* page : w->pages()) {
        // A page's run ends in its status line: look again then.
        connect(page, &KernelPage::statusChanged, this, [this, page](const QString& text, bool error) {
            // What the picture would not show: a file that did not open, a run that failed.
            if (error && window_ && window_->currentPage() == page) return fail(text);
            check();
        });
        connect(page, &KernelPage::openFailed, this, [this, page](const QString& path, const QString& error) {
            if (window_ && window_->currentPage() == page)
                fail(tr("cannot open %1: %2").arg(QDir::toNativeSeparators(path), error));
        });
    }
    QTimer::singleShot(0, this, &WindowScreenshot::check);
}

void WindowScreenshot::check() {
    if (done_ || settling_ || !window_ || !pageDrawn(*window_)) return;
    // The result's own continuations (the docks, the labels) are posted: deliver them, then look again.
    settling_ = true;
    QTimer::singleShot(0, this, [this] {
        settling_ = false;
        if (done_ || !window_ || !pageDrawn(*window_)) return;
        const QString error = write(*window_, path_);
        done_ = true;
        emit finished(error.isEmpty(), error.isEmpty() ? tr("wrote %1").arg(QDir::toNativeSeparators(path_)) : error);
    });
}

void WindowScreenshot::fail(const QString& why) {
    if (done_) return;
    done_ = true;
    emit finished(false, why);
}

}  // namespace cvz
