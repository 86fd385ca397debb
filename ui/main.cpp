// cudaviz: the GUI. `cudaviz [FILE] [--page NAME] [--show PANEL[,PANEL...]] [--lesson ID] [--screenshot FILE.png]
// [--raster] [--list-pages]`.
#include <QApplication>
#include <QCommandLineParser>
#include <QTabWidget>

#include <cstdio>

#include "ui/lessons/lesson_actions.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/pages/kernel_page.h"
#include "ui/views/display_path.h"
#include "ui/windows/main_window.h"
#include "ui/windows/window_screenshot.h"

int main(int argc, char* argv[]) {
    // Views may be reparented or live in several windows; shared contexts keep their GL resources valid.
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDAVIZ_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("cudaviz"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("See CUDA's execution model: the lecture's kernels on the GPU or a CPU emulator."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Image to open (default: the bundled sample)."),
                                 QStringLiteral("[FILE]"));
    const QCommandLineOption raster(QStringLiteral("raster"),
                                    QStringLiteral("Draw without OpenGL (also: CUDAVIZ_RASTER=1)."));
    const QCommandLineOption page(QStringLiteral("page"),
                                  QStringLiteral("The page to open, by name (--list-pages) or by its tab's first word."),
                                  QStringLiteral("NAME"), QStringLiteral("image"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Open the page, wait until its result is drawn, write the window to FILE.png and exit "
                       "(status 0, or 1 with a message if it cannot)."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption show(
        QStringLiteral("show"),
        QStringLiteral("Open these panels and dialogs (comma-separated) before the screenshot: %1; and views of the "
                       "page in front that it names itself.")
            .arg(cvz::MainWindow::panelNames().join(QStringLiteral(", "))),
        QStringLiteral("PANEL[,PANEL...]"));
    const QCommandLineOption list_pages(QStringLiteral("list-pages"), QStringLiteral("Print the pages' names and exit."));
    const QCommandLineOption lesson(
        QStringLiteral("lesson"),
        QStringLiteral("Open the Lessons panel at step ID with its state applied (page, input, kernel, block, panels); "
                       "the steps are listed by `cudaviz-cli lessons`."),
        QStringLiteral("ID"));
    parser.addOptions({raster, page, show, screenshot, list_pages, lesson});
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    cvz::MainWindow window(cvz::choose_display_path(parser.isSet(raster)), files.value(0));
    // A page by its name ("convolution"), or by the first word of its tab ("matrices").
    const QString page_name = parser.value(page).toLower();
    cvz::KernelPage* chosen = window.findPage(page_name);
    QStringList names;
    for (cvz::KernelPage* p : window.pages()) names << p->pageName();
    if (parser.isSet(list_pages)) {
        std::printf("%s\n", qPrintable(names.join(QLatin1Char('\n'))));
        return 0;
    }
    if (!chosen) {
        std::fprintf(stderr, "cudaviz: unknown --page '%s': use %s\n", qPrintable(page_name),
                     qPrintable(names.join(QStringLiteral(", "))));
        return 2;
    }
    window.tabs()->setCurrentWidget(chosen);
    window.show();
    // The step first: the panels asked for with --show are opened on top of its state.
    if (parser.isSet(lesson)) {
        cvz::LessonActions* lessons = window.lessonActions();
        if (!lessons->openStep(parser.value(lesson))) {
            QStringList ids;
            for (const auto& step : lessons->panel()->steps()) ids << step.id;
            const QString why = ids.isEmpty() ? lessons->panel()->loadError() : QStringLiteral("the steps are ") + ids.join(QStringLiteral(", "));
            std::fprintf(stderr, "cudaviz: unknown --lesson '%s': %s\n", qPrintable(parser.value(lesson)), qPrintable(why));
            return 2;
        }
        for (const QString& problem : lessons->panel()->applyProblems())
            std::fprintf(stderr, "cudaviz: --lesson %s: %s\n", qPrintable(parser.value(lesson)), qPrintable(problem));
    }
    if (parser.isSet(show)) {
        const QString error = window.showPanels(parser.value(show).split(QLatin1Char(','), Qt::SkipEmptyParts));
        if (!error.isEmpty()) {
            std::fprintf(stderr, "cudaviz: --show: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (!parser.isSet(screenshot)) return app.exec();

    cvz::WindowScreenshot shot(&window, parser.value(screenshot));
    int status = 1;
    QObject::connect(&shot, &cvz::WindowScreenshot::finished, &app, [&status](bool ok, const QString& message) {
        std::fprintf(ok ? stdout : stderr, "cudaviz: %s\n", qPrintable(message));
        status = ok ? 0 : 1;
        QCoreApplication::quit();
    });
    shot.start();
    app.exec();
    return status;
}
