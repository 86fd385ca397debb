// Screenshots of the kernel editor (issue 27) in staged states: a compile error marked at its line, a
// bounds fault (the lecture's 1-D grayscale without its guard) marked at its line, the differences
// listed, a clean run, and a file of several kernels with the chooser, on the image page,
// run on the CPU emulator. Each is written once the editor's Compile and Run has answered (its signal),
// never after a fixed delay. `cudaviz-editor-screenshots [--size WxH] DIR`; QT_SCALE_FACTOR is honoured.
#include <QApplication>
#include <QCommandLineParser>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QSettings>
#include <QThread>

#include <functional>

#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/editor/editor_actions.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/views/display_path.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/main_window.h"
#include "ui/windows/window_screenshot.h"
#include "ui/tools/tool_waits.h"

using namespace cvz;

namespace {

using tools::wait_for;

// Compile and Run with `text` in the editor; true once the run has answered.
bool compile_and_run(MainWindow& w, const QString& text) {
    EditorActions* editor = w.editorActions();
    editor->panel()->editor()->setText(text);
    bool answered = false;
    const auto c = QObject::connect(editor, &EditorActions::runFinished, [&] { answered = true; });
    editor->compileAndRun();
    const bool ok = wait_for([&] { return answered && WindowScreenshot::pageDrawn(w); });
    QObject::disconnect(c);
    return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-editor-screenshots"));  // apart from the app's
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("where to write the PNGs"));
    QCommandLineOption size_option(QStringLiteral("size"), QStringLiteral("window size"), QStringLiteral("WxH"),
                                   QStringLiteral("1600x1000"));
    parser.addOption(size_option);
    parser.process(app);
    const QString dir = parser.positionalArguments().value(0, QStringLiteral("."));
    QDir().mkpath(dir);
    const QStringList wh = parser.value(size_option).split(QLatin1Char('x'));
    const QSize size(wh.value(0).toInt(), wh.value(1).toInt());
    QSettings().clear();

    MainWindow w(choose_display_path(false));
    w.move(0, 0);
    w.resize(size);
    fit_to_screen(&w, QSize(0, 0));  // a size larger than the screen (at QT_SCALE_FACTOR=1.5) is cut to it
    w.show();
    if (!wait_for([&] { return w.page<ImagePage>()->session()->completedRuns() >= 1 && WindowScreenshot::pageDrawn(w); })) return 1;
    if (auto* backend = w.findChild<QComboBox*>(QStringLiteral("backendBox")))
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
    if (!w.editorActions()->newKernel()) return 1;
    const QString lecture = w.editorActions()->panel()->editor()->text();
    const QString suffix = QStringLiteral("_%1x%2.png").arg(w.width()).arg(w.height());
    int failures = 0;
    auto shot = [&](const QString& name) {
        const QString path = QDir(dir).filePath(name + suffix);
        const QString error = WindowScreenshot::write(w, path);
        qInfo("%s", qPrintable(error.isEmpty() ? QStringLiteral("wrote %1").arg(path) : error));
        if (!error.isEmpty()) ++failures;
    };

    // A typo: the input named y.
    QString typo = lecture;
    typo.replace(QStringLiteral("0.2989*x[i]"), QStringLiteral("0.2989*y[i]"));
    if (!compile_and_run(w, typo)) return 1;
    shot(QStringLiteral("editor_compile_error"));

    // The guard left out: the last block's threads past n read and write past the buffers' ends.
    QString unguarded = lecture;
    unguarded.replace(QStringLiteral("if (i<n) "), QString());
    if (!compile_and_run(w, unguarded)) return 1;
    shot(QStringLiteral("editor_bounds_fault"));

    // The lecture's kernel reads planar pixels: on interleaved ones the differences are listed, the
    // first selected on the output; on planar ones it matches and is "yours: ..." in the chooser.
    w.page<ImagePage>()->session()->setLayout(PixelLayout::Interleaved);
    if (!compile_and_run(w, lecture)) return 1;
    shot(QStringLiteral("editor_differences"));
    w.page<ImagePage>()->session()->setLayout(PixelLayout::Planar);
    if (!compile_and_run(w, lecture)) return 1;
    shot(QStringLiteral("editor_ran"));

    // A file of several kernels: the chooser in the editor's bar lists those that fit the family first.
    QString copy = lecture;
    copy.replace(QStringLiteral("rgb_to_grayscale_kernel"), QStringLiteral("gray_copy"));
    const QString several = QStringLiteral("__global__ void fill(float* p, int v) { p[0] = v; }\n") + lecture + copy;
    if (!compile_and_run(w, several)) return 1;
    shot(QStringLiteral("editor_kernel_choice"));
    return failures ? 1 : 0;
}
