// Screenshots of the kernel editor (issue 27) in staged states: a compile error marked at its line, a
// bounds fault (the lecture's first 1-D kernel without its guard) marked at its line, the differences
// listed, a clean run, and a file of several kernels with the chooser, on the image page,
// run on the CPU emulator. Each is written once the editor's Compile and Run has answered (its signal),
// never after a fixed delay. `cudaviz-editor-screenshots [--size WxH] DIR`; QT_SCALE_FACTOR is honoured.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QSettings>

#include <functional>

#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/editor/editor_actions.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/views/display_path.h"
#include "ui/windows/main_window.h"
#include "ui/windows/window_screenshot.h"
#include "ui/tools/shot_tool.h"
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
    const tools::ShotCommandLine command_line(&parser, QStringLiteral("1600x1000"));
    parser.process(app);
    const QString dir = command_line.dir();
    QSettings().clear();

    MainWindow w(choose_display_path(false));
    tools::show_fitted(w, command_line.size());
    if (!wait_for([&] { return w.page<ImagePage>()->session()->completedRuns() >= 1 && WindowScreenshot::pageDrawn(w); })) return 1;
    tools::choose_cpu_backend(w);
    if (!w.editorActions()->newKernel()) return 1;
    const QString lecture = w.editorActions()->panel()->editor()->text();
    tools::WindowShots shot(w, dir);

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
    return shot.failures() ? 1 : 0;
}
