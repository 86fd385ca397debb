// The Lessons dock (issue 28), under Xvfb: Help > Lessons opens it with the path's steps; going to a
// step puts the window in its state (page, input, kernel, block, layout, panels) without closing what
// was open, and Back returns to a step with its state applied again; a kernel step opens its starter
// once and gives the learner's own text back after; answers read from the app (typed text, the launch
// panel's layout, the picked thread) are checked on the dock's worker, wrong then right; progress is
// remembered by a new window; Show Solution comes after three failed checks (a kernel step's solution
// opens as a new kernel, the learner's kept); a kernel check can be cancelled. No sleeps: every wait is
// on a signal or a condition.
#include <QtTest>

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBrowser>

#include "app/lessons/lesson.h"
#include "tests/support/main_window_fixtures.h"
#include "ui/editor/editor_actions.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/editor/kernel_store.h"
#include "ui/lessons/lesson_actions.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/lessons/lesson_progress.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"
#include "ui/panels/launch_panel.h"
#include "ui/windows/main_window.h"

using namespace cvz;
using lessons::AnswerFrom;
using lessons::LessonStep;
using lessons::TaskKind;

namespace {

constexpr int kTimeoutMs = 120000;  // only for a hang
const QSize kWindowSize(1500, 900);

LessonStep act_step(const QString& id, const QString& page) {
    LessonStep s;
    s.id = id;
    s.title = id;
    s.topic = QStringLiteral("blocks");
    s.kind = TaskKind::Act;
    s.answer_from = AnswerFrom::Block;
    s.body = QStringLiteral("Body of ") + id;
    s.task = QStringLiteral("Task of ") + id;
    s.state.page = page;
    return s;
}

QString kernel_name(const MainWindow& w) {
    const KernelInfo* info = w.launchPanel()->variantInfo();
    return info ? QString::fromStdString(info->name) : QString();
}

bool page_idle(const MainWindow& w) { return w.currentPage()->resultShown() && !w.jobs()->busy(); }

}  // namespace

class TestLessonDock : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void help_lessons_opens_the_path();
    void steps_apply_their_state_back_and_next();
    void generated_picture_replaces_the_startup_sample();
    void kernel_step_opens_starter_once();
    void typed_answer_wrong_then_right_and_remembered();
    void layout_and_picked_thread_answers();
    void solution_after_three_failures();
    void kernel_solution_is_a_new_kernel();
    void kernel_check_cancelled();
    void every_step_applies_and_kernel_solutions_pass();
    void window_fits_with_lessons_open();

private:
    DisplayPathChoice raster_{DisplayPath::Raster, QStringLiteral("the lessons test")};
};

void TestLessonDock::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // settings and the kernels folder go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-lesson-dock-test"));
}

void TestLessonDock::init() {
    QSettings().clear();
    QDir(KernelStore::defaultFolder()).removeRecursively();
}

void TestLessonDock::help_lessons_opens_the_path() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    QVERIFY(lessons->dock()->isHidden());
    QCOMPARE(lessons->lessonsAction()->shortcut(), QKeySequence(QKeySequence::HelpContents));
    QSignalSpy applied(lessons->panel(), &LessonDock::stepApplied);
    lessons->lessonsAction()->trigger();
    QVERIFY(lessons->dock()->isVisible());
    LessonDock* dock = lessons->panel();
    QVERIFY2(dock->loadError().isEmpty(), qPrintable(dock->loadError()));
    // The path: at least twelve steps, every topic of issue 28 among them, each listed as new.
    QVERIFY(dock->steps().size() >= 12);
    QSet<QString> topics;
    for (const LessonStep& s : dock->steps()) topics.insert(s.topic);
    for (const QString& topic : lessons::topic_ids()) QVERIFY2(topics.contains(topic), qPrintable(topic));
    QCOMPARE(dock->stepList()->count(), int(dock->steps().size()));
    QVERIFY(dock->stepList()->item(0)->text().startsWith(QStringLiteral("\u25CB")));
    // The first step, applied once: its text and task shown, its page in front.
    QCOMPARE(applied.count(), 1);
    QCOMPARE(dock->currentIndex(), 0);
    const LessonStep& first = dock->steps().front();
    QVERIFY(dock->textView()->toPlainText().contains(first.task.left(20)));
    if (!first.state.page.isEmpty()) QCOMPARE(w.currentPage(), w.findPage(first.state.page));
    QVERIFY(!dock->backButton()->isEnabled());
    QVERIFY(dock->nextButton()->isEnabled());
    lessons->lessonsAction()->trigger();  // again: shown, not applied again
    QCOMPARE(applied.count(), 1);
}

void TestLessonDock::steps_apply_their_state_back_and_next() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonStep tiled = act_step(QStringLiteral("t-tiled"), QStringLiteral("matrices"));
    tiled.state.matrices = QStringLiteral("33x17x29");
    tiled.state.kernel = QStringLiteral("matmul_tiled");
    tiled.state.block = QStringLiteral("16x16");
    LessonStep planar = act_step(QStringLiteral("t-planar"), QStringLiteral("image"));
    planar.state.image = QStringLiteral("37x23");
    planar.state.kernel = QStringLiteral("gray_1d");
    planar.state.block = QStringLiteral("128");
    planar.state.layout = QStringLiteral("planar");
    planar.state.show = QStringList{QStringLiteral("occupancy")};
    LessonStep two_d = act_step(QStringLiteral("t-2d"), QStringLiteral("image"));
    two_d.state.kernel = QStringLiteral("gray_2d");
    two_d.state.block = QStringLiteral("32x8");
    LessonStep bad = act_step(QStringLiteral("t-bad"), QStringLiteral("nowhere"));

    // What the learner had open stays open.
    QDockWidget* overlay = w.dock(PageDocks::Overlay);
    overlay->show();
    LessonDock* dock = w.lessonActions()->panel();
    dock->setSteps({tiled, planar, two_d, bad});
    w.lessonActions()->showDock();  // applies the first step

    QCOMPARE(w.currentPage(), w.findPage(QStringLiteral("matmul")));
    QCOMPARE(kernel_name(w), QStringLiteral("matmul_tiled"));
    QCOMPARE(w.launchPanel()->choice().ref.tile, 16u);
    auto* matmul = w.page<MatmulPage>();
    QTRY_VERIFY_WITH_TIMEOUT(matmul->matrixA() && matmul->matrixA()->rows == 33 && matmul->matrixA()->cols == 17 &&
                                 matmul->matrixB()->cols == 29 && page_idle(w),
                             kTimeoutMs);
    QCOMPARE(matmul->launch().block_shape(), (Dim3{16, 16, 1}));
    QVERIFY(dock->applyProblems().isEmpty());

    dock->nextButton()->click();
    auto* image = w.page<ImagePage>();
    QCOMPARE(w.currentPage(), image);
    QCOMPARE(kernel_name(w), QStringLiteral("gray_1d"));
    QCOMPARE(launched_block(w.launchPanel()->choice()), (Dim3{128, 1, 1}));
    QCOMPARE(image->option(QStringLiteral("layout")), QStringLiteral("planar"));
    QVERIFY(w.dock(PageDocks::Occupancy)->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(image->session()->imageSize() == QSize(37, 23) && page_idle(w), kTimeoutMs);
    QCOMPARE(image->session()->resultShape().block, (Dim3{128, 1, 1}));
    QCOMPARE(image->session()->resultLayout(), PixelLayout::Planar);
    QVERIFY(!overlay->isHidden());
    QVERIFY(dock->applyProblems().isEmpty());

    dock->nextButton()->click();
    QCOMPARE(kernel_name(w), QStringLiteral("gray_2d"));
    QCOMPARE(launched_block(w.launchPanel()->choice()), (Dim3{32, 8, 1}));
    QTRY_VERIFY_WITH_TIMEOUT(image->session()->resultShape().block == (Dim3{32, 8, 1}) && page_idle(w), kTimeoutMs);
    QCOMPARE(image->session()->imageSize(), QSize(37, 23));  // a step that names no input keeps it

    // The learner changes the launch, goes back: the step's state comes again.
    QVERIFY(w.launchPanel()->chooseKernel(QStringLiteral("gray_2d")));
    dock->backButton()->click();
    QCOMPARE(dock->currentIndex(), 1);
    QCOMPARE(kernel_name(w), QStringLiteral("gray_1d"));
    QCOMPARE(launched_block(w.launchPanel()->choice()), (Dim3{128, 1, 1}));

    // A step naming what the window lacks says so, and changes nothing else.
    dock->openIndex(3);
    QCOMPARE(dock->applyProblems().size(), 1);
    QVERIFY(dock->applyProblems().front().contains(QStringLiteral("nowhere")));
    QVERIFY(dock->resultText().contains(QStringLiteral("nowhere")));
    QVERIFY(!dock->nextButton()->isEnabled());
    QCOMPARE(w.currentPage(), image);
}

// `cudaviz --lesson ID` applies the step while the window's own sample is still loading on the worker:
// the step's generated picture must stay, not be replaced by the sample when its load ends.
void TestLessonDock::generated_picture_replaces_the_startup_sample() {
    MainWindow w(raster_);
    LessonStep step = act_step(QStringLiteral("t-generated"), QStringLiteral("image"));
    step.state.image = QStringLiteral("96x40");
    w.lessonActions()->panel()->setSteps({step});
    QVERIFY(w.lessonActions()->openStep(QStringLiteral("t-generated")));
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    auto* image = w.page<ImagePage>();
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy() && image->resultShown(), kTimeoutMs);
    QCOMPARE(image->session()->imageSize(), QSize(96, 40));
    QCOMPARE(image->resultImage().size(), QSize(96, 40));
    QCOMPARE(image->currentFile(), QStringLiteral(":/generated/96x40"));
}

void TestLessonDock::kernel_step_opens_starter_once() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    QVERIFY(lessons->openStep(QStringLiteral("grayscale-1d")));
    const LessonStep* step = lessons->panel()->currentStep();
    QCOMPARE(step->kind, TaskKind::Kernel);
    KernelEditorPanel* editor = w.editorActions()->panel();
    QVERIFY(w.editorActions()->dock()->isVisible());
    const QString kept = QDir(KernelStore::defaultFolder()).filePath(QStringLiteral("grayscale-1d.cu"));
    QCOMPARE(QFileInfo(editor->file()).absoluteFilePath(), QFileInfo(kept).absoluteFilePath());
    const QString starter = lessons::starter_text(*step, lessons::lessons_dir());
    QVERIFY(!starter.isEmpty());
    QCOMPARE(editor->editor()->text(), starter);
    QVERIFY(QFileInfo::exists(kept));  // kept at once: coming back finds it

    // The learner edits it, goes on, comes back: their text, not the starter again.
    editor->editor()->setText(QStringLiteral("// mine\n") + starter);
    lessons->panel()->next();
    lessons->panel()->back();
    QCOMPARE(QFileInfo(editor->file()).absoluteFilePath(), QFileInfo(kept).absoluteFilePath());
    QVERIFY(editor->editor()->text().startsWith(QStringLiteral("// mine\n")));
    // And in a new window, from the store.
    editor->save();
}

void TestLessonDock::typed_answer_wrong_then_right_and_remembered() {
    {
        MainWindow w(raster_);
        QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
        LessonActions* lessons = w.lessonActions();
        QVERIFY(lessons->openStep(QStringLiteral("flatten")));
        LessonDock* dock = lessons->panel();
        QCOMPARE(dock->currentStep()->answer_from, AnswerFrom::Text);
        QVERIFY(dock->answerEdit()->isVisible());
        QSignalSpy finished(dock, &LessonDock::checkFinished);

        // Nothing typed: said at once, nothing checked.
        dock->checkButton()->click();
        QCOMPARE(finished.count(), 0);
        QVERIFY(!dock->checking());

        dock->answerEdit()->setText(QStringLiteral("907"));  // the red index, not the green
        dock->checkButton()->click();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QVERIFY2(dock->resultText().contains(QStringLiteral("Not yet")), qPrintable(dock->resultText()));
        QVERIFY(dock->resultText().contains(QStringLiteral("Hint")));
        QCOMPARE(dock->progress().mark(QStringLiteral("flatten")), LessonProgress::Mark::Tried);
        QVERIFY(dock->stepList()->item(dock->currentIndex())->text().startsWith(QStringLiteral("\u2717")));

        dock->answerEdit()->setText(QStringLiteral("136207"));
        dock->checkButton()->click();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QVERIFY2(dock->resultText().contains(QStringLiteral("Passed")), qPrintable(dock->resultText()));
        QCOMPARE(dock->progress().mark(QStringLiteral("flatten")), LessonProgress::Mark::Passed);
    }
    // A new window: the marks and the step the learner was on.
    MainWindow again(raster_);
    QVERIFY(test::show_and_wait(again, kWindowSize, kTimeoutMs));
    LessonDock* dock = again.lessonActions()->panel();
    QCOMPARE(dock->currentStep()->id, QStringLiteral("flatten"));
    QVERIFY(dock->stepList()->item(dock->currentIndex())->text().startsWith(QStringLiteral("\u2713")));
    QVERIFY(!again.lessonActions()->panel()->applied());  // shown, not applied, until asked
}

void TestLessonDock::layout_and_picked_thread_answers() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    LessonDock* dock = lessons->panel();
    QSignalSpy finished(dock, &LessonDock::checkFinished);

    // The layout step starts interleaved (three sectors a request): wrong; planar: right.
    QVERIFY(lessons->openStep(QStringLiteral("coalescing")));
    QCOMPARE(dock->currentStep()->answer_from, AnswerFrom::Layout);
    QVERIFY(!dock->answerEdit()->isVisible());
    QCOMPARE(w.currentPage()->option(QStringLiteral("layout")), QStringLiteral("interleaved"));
    dock->checkButton()->click();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.takeFirst().at(0).toBool(), false);
    QVERIFY(w.currentPage()->setOption(QStringLiteral("layout"), QStringLiteral("planar")).isEmpty());
    dock->checkButton()->click();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.takeFirst().at(0).toBool(), true);

    // The thread step: no thread picked is said without a check; the pixel's thread, picked by a click.
    QVERIFY(lessons->openStep(QStringLiteral("simulate-loop")));
    QCOMPARE(dock->currentStep()->answer_from, AnswerFrom::Pixel);
    QTRY_VERIFY_WITH_TIMEOUT(page_idle(w) && w.page<ImagePage>()->session()->imageSize() == QSize(451, 300), kTimeoutMs);
    w.page<ImagePage>()->clearSelection();
    dock->checkButton()->click();
    QVERIFY(!dock->checking());
    QVERIFY(dock->resultText().contains(QStringLiteral("no thread is picked")));
    w.page<ImagePage>()->inspectPixel(QPoint(99, 1), true);  // column 99: a neighbour's thread
    QCOMPARE(w.currentPage()->pickedThread(), QStringLiteral("2,0,38,0"));
    dock->checkButton()->click();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.takeFirst().at(0).toBool(), false);
    w.page<ImagePage>()->inspectPixel(QPoint(100, 1), true);  // row 1, column 100
    QCOMPARE(w.currentPage()->pickedThread(), QStringLiteral("2,0,39,0"));
    dock->checkButton()->click();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.takeFirst().at(0).toBool(), true);
}

void TestLessonDock::solution_after_three_failures() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    LessonDock* dock = lessons->panel();
    QVERIFY(lessons->openStep(QStringLiteral("guard-cdiv")));
    QSignalSpy finished(dock, &LessonDock::checkFinished);
    for (int attempt = 1; attempt <= LessonProgress::kTriesBeforeSolution; ++attempt) {
        QVERIFY(!dock->solutionButton()->isEnabled());
        dock->answerEdit()->setText(QString::number(attempt));
        dock->checkButton()->click();
        QVERIFY(dock->checking());
        QVERIFY(!dock->checkButton()->isVisible() && !dock->cancelButton()->isHidden());
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
    }
    QVERIFY(dock->solutionButton()->isEnabled());
    QVERIFY(!dock->textView()->toPlainText().contains(QStringLiteral("Solution")));
    dock->solutionButton()->click();
    QVERIFY(dock->textView()->toPlainText().contains(QStringLiteral("Solution")));
    QVERIFY(dock->textView()->toPlainText().contains(QStringLiteral("124")));
}

void TestLessonDock::kernel_solution_is_a_new_kernel() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    LessonDock* dock = lessons->panel();
    QVERIFY(lessons->openStep(QStringLiteral("grayscale-1d")));
    KernelEditorPanel* editor = w.editorActions()->panel();
    const QString mine = editor->file();
    editor->editor()->setText(QStringLiteral("// my attempt\n"));
    // Three failures recorded (the checks themselves are tested above): the button comes.
    LessonProgress progress;
    for (int i = 0; i < LessonProgress::kTriesBeforeSolution; ++i) progress.record(QStringLiteral("grayscale-1d"), false);
    dock->openStep(QStringLiteral("grayscale-1d"));
    QVERIFY(dock->solutionButton()->isEnabled());
    dock->solutionButton()->click();
    QVERIFY(editor->file() != mine);
    QVERIFY(QFileInfo(editor->file()).fileName().startsWith(QStringLiteral("grayscale-1d-solution")));
    QVERIFY(editor->editor()->text().contains(QStringLiteral("if (i<n)")));
    QVERIFY(!editor->editor()->text().contains(QStringLiteral("```")));
    // The learner's text was saved, not lost.
    QFile file(mine);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), QStringLiteral("// my attempt\n"));
}

void TestLessonDock::kernel_check_cancelled() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    LessonDock* dock = lessons->panel();
    QVERIFY(lessons->openStep(QStringLiteral("grayscale-1d")));
    QSignalSpy cancelled(dock, &LessonDock::checkCancelled);
    QSignalSpy finished(dock, &LessonDock::checkFinished);
    dock->checkButton()->click();
    QVERIFY(dock->checking());
    QVERIFY(dock->resultText().contains(QStringLiteral("Checking")));
    QVERIFY(!dock->nextButton()->isEnabled());
    dock->cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!dock->checking(), kTimeoutMs);
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(finished.count(), 0);
    QVERIFY(dock->resultText().contains(QStringLiteral("cancelled")));
    QCOMPARE(dock->progress().failures(QStringLiteral("grayscale-1d")), 0);  // a cancelled check counts for nothing
    // The starter (its guard left out) then fails a check that runs to its end.
    dock->checkButton()->click();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.takeFirst().at(0).toBool(), false);
    QVERIFY2(!dock->resultText().isEmpty(), "a failed kernel check says why");
}

// The whole path as a learner walks it with Next: every step's state applies without a problem (its
// page in front, its kernel chosen, a kernel step's starter in the editor); every kernel step's own
// solution, put in the editor, passes its check through the dock.
void TestLessonDock::every_step_applies_and_kernel_solutions_pass() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    LessonDock* dock = lessons->panel();
    QVERIFY(lessons->openStep(dock->steps().front().id));
    QSignalSpy finished(dock, &LessonDock::checkFinished);
    int kernel_steps = 0;
    for (std::size_t i = 0; i < dock->steps().size(); ++i) {
        if (i > 0) dock->nextButton()->click();
        const LessonStep& step = dock->steps()[i];
        QCOMPARE(dock->currentIndex(), int(i));
        QVERIFY2(dock->applyProblems().isEmpty(), qPrintable(step.id + QStringLiteral(": ") + dock->applyProblems().join(QStringLiteral("; "))));
        if (!step.state.page.isEmpty()) QCOMPARE(w.currentPage(), w.findPage(step.state.page));
        if (!step.state.kernel.isEmpty()) QCOMPARE(kernel_name(w), step.state.kernel);
        if (step.kind != TaskKind::Kernel) continue;
        ++kernel_steps;
        // The starter in the editor (tst_lessons checks that each fails; kernel_check_cancelled, one here).
        KernelEditor* editor = w.editorActions()->panel()->editor();
        QCOMPARE(editor->text(), lessons::starter_text(step, lessons::lessons_dir()));
        // The solution as Show Solution opens it (a kernel's text, or its fenced block).
        QString solution = step.solution;
        const int open = solution.indexOf(QStringLiteral("```"));
        if (open >= 0) {
            solution = solution.mid(solution.indexOf(QLatin1Char('\n'), open) + 1);
            solution = solution.left(solution.indexOf(QStringLiteral("```")));
        }
        QVERIFY2(solution.contains(QStringLiteral("__global__")), qPrintable(step.id));
        editor->setText(solution);
        dock->checkButton()->click();
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY2(finished.takeFirst().at(0).toBool(), qPrintable(step.id + QStringLiteral(": ") + dock->resultText()));
    }
    QVERIFY(kernel_steps >= 4);
    QVERIFY(!dock->nextButton()->isEnabled());
}

// Run again at QT_SCALE_FACTOR=1.5 (tests/CMakeLists.txt): on a screen too narrow for the lessons beside
// the pages they become a tab beside the Launch panel, and the window stays inside the screen.
void TestLessonDock::window_fits_with_lessons_open() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, kWindowSize, kTimeoutMs));
    LessonActions* lessons = w.lessonActions();
    QVERIFY(lessons->openStep(QStringLiteral("grayscale-1d")));  // the editor open as well
    const QRect room = w.screen()->availableGeometry();
    QTRY_VERIFY_WITH_TIMEOUT(room.contains(w.frameGeometry()), kTimeoutMs);
    QVERIFY(lessons->dock()->isVisible());
    const bool narrow = room.width() < 1200;
    QCOMPARE(lessons->compact(), narrow);
    QCOMPARE(w.dockWidgetArea(lessons->dock()), narrow ? Qt::RightDockWidgetArea : Qt::LeftDockWidgetArea);
    if (narrow) QVERIFY(w.tabifiedDockWidgets(w.dock(PageDocks::Launch)).contains(lessons->dock()));
    // Check is never below the fold: shown whole, and in the compact dock above the step's text, which
    // scrolls itself and gives way when the column is short (the Kernel Editor under the pages).
    LessonDock* dock = lessons->panel();
    QPushButton* check = dock->checkButton();
    QTRY_VERIFY_WITH_TIMEOUT(check->visibleRegion().boundingRect() == check->rect(), kTimeoutMs);
    const int check_y = check->mapTo(dock, QPoint(0, 0)).y(), text_y = dock->textView()->mapTo(dock, QPoint(0, 0)).y();
    if (narrow) QVERIFY2(check_y < text_y, qPrintable(QStringLiteral("Check at %1, the text at %2").arg(check_y).arg(text_y)));
    else QVERIFY(check_y > text_y);
    QVERIFY(!dock->textView()->visibleRegion().isEmpty());
}

QTEST_MAIN(TestLessonDock)
#include "tst_lesson_dock.moc"
