// The README's and the user guide's screenshots of staged states, for scripts/screenshots, which also
// takes the pages as they open with `cudaviz --screenshot`. Each page stages its own states
// (KernelPage::tour: a launch, a dock raised, the wave animation, a selection, the sweep); this tool
// brings each page of the registry to the front in turn and writes every shot as `cudaviz --screenshot`
// writes one (WindowScreenshot::write), once the state it shows is reached: every wait is on the
// session's outcome, none is a fixed delay. Options: --size WxH (default 1200x720), --only NAME;
// QT_SCALE_FACTOR is honoured as usual.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QSettings>
#include <QTabWidget>

#include <functional>

#include "app/jobs/job_runner.h"
#include "ui/pages/kernel_page.h"
#include "ui/pages/screenshot_tour.h"
#include "ui/windows/main_window.h"
#include "ui/windows/schedule_actions.h"
#include "ui/windows/window_screenshot.h"
#include "ui/tools/shot_tool.h"
#include "ui/tools/tool_waits.h"

using namespace cvz;

namespace {

class Tour : public ScreenshotTour {
public:
    Tour(MainWindow& w, QString dir, QString only, QSize size) : w_(w), dir_(std::move(dir)), only_(std::move(only)), size_(size) {}

    int failures() const { return failures_; }

    bool wanted(const QString& name) const override { return only_.isEmpty() || only_ == name; }

    void shot(const QString& name, QWidget* widget) override {
        if (!wanted(name)) return;
        QWidget* target = widget ? widget : &w_;
        const QString path = QDir(dir_).filePath(name + QStringLiteral(".png"));
        target->raise();
        settle();
        const QString error = WindowScreenshot::write(*target, path);
        qInfo("%s", qPrintable(error.isEmpty() ? QStringLiteral("wrote %1 (%2x%3)").arg(path).arg(target->width()).arg(target->height())
                                               : error));
        if (!error.isEmpty()) ++failures_;
    }

    // Runs the event loop until `done` holds (or two minutes pass), then lets paint events settle.
    bool waitFor(const std::function<bool()>& done) override { return tools::wait_for(done); }

    bool waitIdle() override { return waitFor([this] { return WindowScreenshot::pageDrawn(w_) && !w_.jobs()->busy(); }); }

    void raiseDock(PageDocks::Dock which) override {
        if (QDockWidget* dock = w_.dock(which)) {
            dock->show();  // the Source dock starts closed
            dock->raise();
        }
    }

    void hideDock(PageDocks::Dock which) override {
        if (QDockWidget* dock = w_.dock(which)) dock->hide();
    }

    // A taller window, the extra height to the Memory dock rather than to the execution bar.
    void tall() override {
        w_.resize(size_.expandedTo(QSize(1560, 960)));
        settle();
        w_.resizeDocks({w_.dock(PageDocks::Memory), w_.dock(PageDocks::Timeline)}, {w_.height() * 3 / 5, 40}, Qt::Vertical);
    }

    void restoreSize() override { w_.resize(size_); }
    QWidget* window() override { return &w_; }
    ScheduleActions* schedule() override { return w_.scheduleActions(); }

    SweepDialog* openSweep() override {
        w_.openSweep();
        return w_.sweepDialog();
    }

    LadderDialog* openLadder() override {
        w_.openLadder();
        return w_.ladderDialog();
    }

private:
    MainWindow& w_;
    QString dir_, only_;
    QSize size_;
    int failures_ = 0;
};

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-screenshots"));  // settings apart from the app's
    QCommandLineParser parser;
    const tools::ShotCommandLine command_line(&parser, QStringLiteral("1200x720"));
    QCommandLineOption only_option(QStringLiteral("only"), QStringLiteral("one shot by name"), QStringLiteral("name"));
    parser.addOption(only_option);
    parser.process(app);
    const QString dir = command_line.dir();
    const QSize size = command_line.size();
    QSettings().clear();

    MainWindow w(choose_display_path(false));
    w.move(0, 0);
    w.resize(size);
    w.show();
    Tour tour(w, dir, parser.value(only_option), size);
    if (!tour.waitIdle()) return 1;
    // Every page of the registry, in its tab order, stages its own shots.
    for (KernelPage* page : w.pages()) {
        w.tabs()->setCurrentWidget(page);
        if (!tour.waitIdle()) return 1;
        page->tour(tour);
        tour.restoreSize();
    }
    return tour.failures();
}
