// The guided path (issue 28) walked as a learner walks it, a screenshot per step: Help > Lessons, then
// Next from the first step to the last, each shot written once the step's page has drawn its result;
// then a kernel step's starter checked (the failure with its reason and hint) and an act step answered
// right in the launch panel (passed). Every wait is on the app's own signals and state, never a fixed
// delay. `cudaviz-lesson-screenshots [--size WxH] [--only ID[,ID...]] DIR`; QT_SCALE_FACTOR is honoured.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QSettings>

#include <functional>

#include "app/lessons/lesson.h"
#include "ui/editor/editor_actions.h"
#include "ui/editor/kernel_store.h"
#include "ui/lessons/lesson_actions.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/launch_shape_box.h"
#include "ui/views/display_path.h"
#include "ui/windows/main_window.h"
#include "ui/windows/window_screenshot.h"
#include "ui/tools/shot_tool.h"
#include "ui/tools/tool_waits.h"

using namespace cvz;

namespace {

using tools::wait_for;

// Check pressed in the dock; true once the check has answered.
bool check(LessonDock* dock, bool* passed) {
    bool answered = false;
    const auto c = QObject::connect(dock, &LessonDock::checkFinished, [&](bool ok) {
        answered = true;
        *passed = ok;
    });
    dock->check();
    const bool ok = wait_for([&] { return answered; });
    QObject::disconnect(c);
    return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-lesson-screenshots"));  // apart from the app's
    QCommandLineParser parser;
    const tools::ShotCommandLine command_line(&parser, QStringLiteral("1600x1000"));
    QCommandLineOption only_option(QStringLiteral("only"), QStringLiteral("these steps only (ids, comma-separated)"),
                                   QStringLiteral("ID[,ID...]"));
    parser.addOption(only_option);
    parser.process(app);
    const QString dir = command_line.dir();
    const QStringList only = parser.value(only_option).split(QLatin1Char(','), Qt::SkipEmptyParts);
    // A learner's first walk: no progress, no kernels kept (this tool's own folders, not the app's).
    QSettings().clear();
    for (const QString& kept : QDir(KernelStore::defaultFolder()).entryList({QStringLiteral("*.cu")}, QDir::Files))
        QFile::remove(QDir(KernelStore::defaultFolder()).filePath(kept));

    MainWindow w(choose_display_path(false));
    tools::show_fitted(w, command_line.size());
    if (!wait_for([&] { return WindowScreenshot::pageDrawn(w); })) return 1;
    tools::choose_cpu_backend(w);

    LessonActions* lessons = w.lessonActions();
    LessonDock* dock = lessons->panel();
    if (dock->steps().empty()) {
        qWarning("no lessons: %s", qPrintable(dock->loadError()));
        return 1;
    }
    tools::WindowShots shot(w, dir);
    auto settled = [&] { return wait_for([&] { return WindowScreenshot::pageDrawn(w) && !dock->checking(); }); };

    lessons->showDock();  // Help > Lessons: the first step, applied
    for (std::size_t i = 0; i < dock->steps().size(); ++i) {
        if (i > 0) dock->next();
        const lessons::LessonStep& step = dock->steps()[i];
        if (!settled()) return 1;
        for (const QString& problem : dock->applyProblems()) {
            qWarning("%s: %s", qPrintable(step.id), qPrintable(problem));
            shot.addFailure();
        }
        if (only.isEmpty() || only.contains(step.id))
            shot(QStringLiteral("lesson_%1_%2").arg(i + 1, 2, 10, QLatin1Char('0')).arg(step.id));
    }

    // A kernel step's starter checked: it fails, with the reason and the hint.
    bool passed = false;
    if (only.isEmpty() || only.contains(QStringLiteral("check"))) {
        if (!lessons->openStep(QStringLiteral("grayscale-1d")) || !settled() || !check(dock, &passed)) return 1;
        if (passed) shot.addFailure();
        shot(QStringLiteral("lesson_check_failed"));
        // An act step answered in the launch panel: 32 x 8 blocks tile the 96 x 40 picture exactly.
        if (!lessons->openStep(QStringLiteral("flexible-blocks")) || !settled()) return 1;
        w.launchPanel()->shapeBox()->setShapeText(QStringLiteral("32x8"));
        if (!settled() || !check(dock, &passed)) return 1;
        if (!passed) shot.addFailure();
        shot(QStringLiteral("lesson_check_passed"));
    }
    return shot.failures() ? 1 : 0;
}
