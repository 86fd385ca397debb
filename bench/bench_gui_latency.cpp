// How long the GUI thread stalls while a user storms the launch shape during runs (run it under
// Xvfb, or on a display). The main window opens an image large enough that each emulator run is
// still going when the next change comes; a 2 ms timer then makes three changes at a time (typed
// text with Enter, a preset, the settings API, the layout box, invalid text in between), as
// tst_hostile_gui's storm does, while a 5 ms timer counts the event loop's turns. Each gap between
// two turns is what a user would feel as a frozen window. On a loaded machine part of a gap is only
// the GUI thread waiting for a CPU (the kernel's run delay, from /proc/thread-self/schedstat); the
// stall is the gap less that wait. Prints the longest stall and gap and their percentiles; with
// --json FILE writes them as JSON. Never a pass/fail test: the figure depends on the machine.
//
//   bench_gui_latency [--size WxH] [--changes N] [--rounds R] [--json FILE]
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "app/jobs/job_runner.h"
#include "ui/views/display_path.h"
#include "ui/panels/launch_shape_box.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/windows/main_window.h"

using namespace cvz;

namespace {

QImage make_image(QSize size) {
    QImage image(size, QImage::Format_RGB888);
    for (int y = 0; y < size.height(); ++y) {
        uchar* line = image.scanLine(y);
        for (int x = 0; x < size.width(); ++x) {
            line[3 * x] = uchar(x * 255 / std::max(1, size.width() - 1));
            line[3 * x + 1] = uchar(y * 255 / std::max(1, size.height() - 1));
            line[3 * x + 2] = uchar((x * 7 + y * 13) & 255);
        }
    }
    return image;
}

bool parse_size(const QString& text, QSize* out) {
    static const QRegularExpression re(QStringLiteral("^(\\d+)x(\\d+)$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) return false;
    *out = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    return !out->isEmpty();
}

// This thread's time spent runnable but waiting for a CPU, in ns; -1 where the kernel does not say.
qint64 run_delay_ns() {
    QFile f(QStringLiteral("/proc/thread-self/schedstat"));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    const QList<QByteArray> fields = f.readAll().simplified().split(' ');
    return fields.size() >= 2 ? fields[1].toLongLong() : -1;
}

// Records every gap between two turns of the event loop, and the same gap less the CPU wait.
class LoopWatch : public QObject {
public:
    LoopWatch() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, this, [this] { tick(); });
    }
    void start() {
        last_delay_ = run_delay_ns();
        clock_.start();
        timer_.start();
    }
    void stop() {
        tick();
        timer_.stop();
    }
    bool runDelayKnown() const { return last_delay_ >= 0; }
    std::vector<double> gaps_ms, stalls_ms;

private:
    void tick() {
        const double gap = double(clock_.nsecsElapsed()) / 1e6;
        clock_.restart();
        const qint64 delay = run_delay_ns();
        const double waited = (delay >= 0 && last_delay_ >= 0) ? double(delay - last_delay_) / 1e6 : 0.0;
        last_delay_ = delay;
        gaps_ms.push_back(gap);
        stalls_ms.push_back(std::max(0.0, gap - waited));
    }
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_delay_ = -1;
};

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

bool wait_for(const std::function<bool()>& done, int timeout_ms) { return QTest::qWaitFor(done, timeout_ms); }

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QSize size(1200, 800);
    int changes = 300, rounds = 3;
    QString json;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool more = i + 1 < args.size();
        if (a == QLatin1String("--size") && more && parse_size(args[i + 1], &size)) ++i;
        else if (a == QLatin1String("--changes") && more) changes = std::max(1, args[++i].toInt());
        else if (a == QLatin1String("--rounds") && more) rounds = std::max(1, args[++i].toInt());
        else if (a == QLatin1String("--json") && more) json = args[++i];
        else {
            std::fprintf(stderr, "usage: bench_gui_latency [--size WxH] [--changes N] [--rounds R] [--json FILE]\n");
            return 2;
        }
    }
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("storm.png"));
    if (!dir.isValid() || !make_image(size).save(png)) {
        std::fprintf(stderr, "bench_gui_latency: cannot write a test image\n");
        return 1;
    }
    QStandardPaths::setTestModeEnabled(true);  // the window's settings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-bench-gui-latency"));

    const DisplayPathChoice display = choose_display_path(false);
    MainWindow w(display, png);
    w.resize(1000, 600);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) {
        std::fprintf(stderr, "bench_gui_latency: the window was not shown (no display? run under xvfb-run)\n");
        return 1;
    }
    if (!wait_for([&] { return w.page<ImagePage>()->session()->completedRuns() >= 1 && !w.jobs()->busy(); }, 120000)) {
        std::fprintf(stderr, "bench_gui_latency: the first run did not finish\n");
        return 1;
    }
    auto* box = w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"));
    auto* layout = w.findChild<QComboBox*>(QStringLiteral("layoutBox"));
    if (!box || !layout) {
        std::fprintf(stderr, "bench_gui_latency: the toolbar has no launch shape box or layout box\n");
        return 1;
    }

    const QStringList valid = {"256", "16x16", "32x8", "1024", "8x8", "32x32", "64", "1x1024", "1024x1", "128", "7x3"};
    const QStringList invalid = {"1025", "33x32", "0", "x", "1x1025", "-4", "99999999999"};
    LoopWatch watch;
    QElapsedTimer wall;
    wall.start();
    const int runs_before = w.page<ImagePage>()->session()->completedRuns();
    watch.start();
    for (int round = 0; round < rounds; ++round) {
        int i = 0;
        QTimer storm;
        storm.setInterval(2);
        QObject::connect(&storm, &QTimer::timeout, &w, [&] {
            for (int burst = 0; burst < 3 && i < changes; ++burst, ++i) {
                const QString text = (i % 13 == 5) ? invalid[i % invalid.size()] : valid[i % valid.size()];
                switch (i % 4) {
                    case 0: box->setShapeText(text); break;
                    case 1:
                        box->lineEdit()->setText(text);
                        QTest::keyClick(box->lineEdit(), Qt::Key_Return);
                        break;
                    case 2: emit box->activated(i % box->count()); break;
                    case 3: layout->setCurrentIndex((i / 4) % 2); break;
                }
            }
            if (i == changes) storm.stop();
        });
        storm.start();
        if (!wait_for([&] { return i == changes && !w.jobs()->busy(); }, 600000)) {
            std::fprintf(stderr, "bench_gui_latency: round %d did not settle\n", round);
            return 1;
        }
    }
    watch.stop();
    const double seconds = double(wall.elapsed()) / 1000.0;

    const double stall_max = quantile(watch.stalls_ms, 1.0), gap_max = quantile(watch.gaps_ms, 1.0);
    std::printf("display path: %s; image %dx%d; %d rounds of %d changes in %.1f s; %d runs shown; %zu loop turns\n",
                qPrintable(to_string(display.path)), size.width(), size.height(), rounds, changes, seconds,
                w.page<ImagePage>()->session()->completedRuns() - runs_before, watch.gaps_ms.size());
    std::printf("%-8s %9s %9s %9s %9s\n", "ms", "p50", "p90", "p99", "max");
    std::printf("%-8s %9.1f %9.1f %9.1f %9.1f\n", "stall", quantile(watch.stalls_ms, 0.5), quantile(watch.stalls_ms, 0.9),
                quantile(watch.stalls_ms, 0.99), stall_max);
    std::printf("%-8s %9.1f %9.1f %9.1f %9.1f\n", "gap", quantile(watch.gaps_ms, 0.5), quantile(watch.gaps_ms, 0.9),
                quantile(watch.gaps_ms, 0.99), gap_max);
    if (!watch.runDelayKnown())
        std::printf("(no /proc/thread-self/schedstat here: the CPU wait is not known, so stall = gap)\n");

    if (!json.isEmpty()) {
        QFile out(json);
        if (!out.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "bench_gui_latency: cannot write %s\n", qPrintable(json));
            return 1;
        }
        auto figures = [](const std::vector<double>& v) {
            return QJsonObject{{QStringLiteral("p50_ms"), quantile(v, 0.5)},
                               {QStringLiteral("p90_ms"), quantile(v, 0.9)},
                               {QStringLiteral("p99_ms"), quantile(v, 0.99)},
                               {QStringLiteral("max_ms"), quantile(v, 1.0)}};
        };
        const QJsonObject doc{{QStringLiteral("benchmark"), QStringLiteral("gui_latency")},
                              {QStringLiteral("display_path"), to_string(display.path)},
                              {QStringLiteral("width"), size.width()},
                              {QStringLiteral("height"), size.height()},
                              {QStringLiteral("rounds"), rounds},
                              {QStringLiteral("changes_per_round"), changes},
                              {QStringLiteral("runs_shown"), w.page<ImagePage>()->session()->completedRuns() - runs_before},
                              {QStringLiteral("loop_turns"), int(watch.gaps_ms.size())},
                              {QStringLiteral("seconds"), seconds},
                              {QStringLiteral("run_delay_known"), watch.runDelayKnown()},
                              {QStringLiteral("stall"), figures(watch.stalls_ms)},
                              {QStringLiteral("gap"), figures(watch.gaps_ms)}};
        out.write(QJsonDocument(doc).toJson());
    }
    return 0;
}
