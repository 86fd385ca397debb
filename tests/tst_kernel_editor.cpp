// The kernel editor (issue 27), under Xvfb: a compile error's marks at its line (margin, annotation,
// message list) and nowhere else; the unsaved text autosaved and restored after a simulated restart
// (the panel destroyed without saving, as a crash would leave it); File > New Kernel loads the current
// family's lecture kernel (the file in resources/kernels, byte for byte); the kept kernels listed again
// at the next start; Ctrl+S in the editor saves the kernel, not the window's result; bad files are a
// message naming the file. No wall clock: the autosave is waited for on its signal.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <memory>

#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/matmul/matmul_session.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"
#include "app/user/user_run.h"
#include "app/user/user_variants.h"
#include "kernels/user/source_scan.h"
#include "tests/support/main_window_fixtures.h"
#include "tests/support/window_waits.h"
#include "tests/test_paths.h"
#include "ui/editor/editor_actions.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/editor/kernel_store.h"
#include "ui/editor/lecture_kernels.h"
#include "ui/pages/kernel_page.h"
#include "ui/panels/launch_panel.h"
#include "ui/windows/main_window.h"

using namespace cvz;

namespace {

constexpr int kTimeoutMs = 60000;  // only for a hang

QString disk_text(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

const char* kBroken =
    "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
    "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = y[i];\n"
    "}\n";

}  // namespace

class TestKernelEditor : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void diagnostic_marks_its_line_only();
    void fault_marks_its_line();
    void autosave_restored_after_restart();
    void saved_kernels_listed_at_next_start();
    void bad_file_is_a_message();
    void lecture_kernels_per_family();
    void new_kernel_loads_family_lecture_kernel();
    void ctrl_s_saves_the_kernel();
    void user_variant_listed_in_chooser();
    void compile_error_marked_in_window();
    void bounds_fault_marked_in_window();
    void lecture_kernel_runs_and_becomes_variant();
    void stop_ends_an_endless_kernel();
    void compile_and_run_runs_once();
    void kernel_chooser_for_several_kernels();
    void matmul_kernel_on_its_page();

private:
    QTemporaryDir dir_;
    std::unique_ptr<KernelStore> store_;
    DisplayPathChoice raster_{DisplayPath::Raster, QStringLiteral("the editor's test")};
};

void TestKernelEditor::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // settings and the data folder go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-kernel-editor-test"));
    QSettings().clear();
    QVERIFY(dir_.isValid());
}

// Every case starts from an empty kernels folder of its own, and the window's folder emptied.
void TestKernelEditor::init() {
    static int n = 0;
    store_ = std::make_unique<KernelStore>(dir_.filePath(QStringLiteral("case%1").arg(++n)));
    QVERIFY(store_->ensureFolder());
    QDir(KernelStore::defaultFolder()).removeRecursively();
}

void TestKernelEditor::diagnostic_marks_its_line_only() {
    KernelEditorPanel panel(store_.get());
    panel.newKernel(QStringLiteral("broken"), QString::fromLatin1(kBroken));
    user::Diagnostic error{"broken.cu", 3, 25, true, "identifier \"y\" is undefined"};
    user::Diagnostic warning{"broken.cu", 2, 9, false, "variable \"i\" set but not used"};
    user::Diagnostic elsewhere{"broken.cu", 0, 0, true, "1 error detected"};
    panel.showDiagnostics({error, warning, elsewhere});

    KernelEditor* ed = panel.editor();
    QCOMPARE(ed->markedLines(KernelEditor::Mark::Error), QList<int>{3});
    QCOMPARE(ed->markedLines(KernelEditor::Mark::Warning), QList<int>{2});
    QVERIFY(ed->markedLines(KernelEditor::Mark::Fault).isEmpty());
    QVERIFY(ed->annotationAt(3).contains(QStringLiteral("identifier \"y\" is undefined")));
    QVERIFY(ed->annotationAt(2).contains(QStringLiteral("warning")));
    for (int line : {1, 4}) QVERIFY2(ed->annotationAt(line).isEmpty(), qPrintable(ed->annotationAt(line)));
    // The cursor goes to the first error's line and column (0-based in QScintilla).
    int line = -1, index = -1;
    ed->getCursorPosition(&line, &index);
    QCOMPARE(line, 2);
    QCOMPARE(index, 24);
    // The list: every message, as compilers write them; the one without a line is listed, not marked.
    QCOMPARE(panel.messageList()->count(), 3);
    QCOMPARE(panel.messageList()->item(0)->text(), QStringLiteral("broken.cu:3:25: error: identifier \"y\" is undefined"));
    QCOMPARE(panel.messageList()->item(2)->text(), QStringLiteral("broken.cu: error: 1 error detected"));
    // Clicking a message goes to its line.
    ed->setCursorPosition(0, 0);
    emit panel.messageList()->itemClicked(panel.messageList()->item(1));
    ed->getCursorPosition(&line, &index);
    QCOMPARE(line, 1);
    // A new compile replaces the marks.
    panel.showDiagnostics({});
    QVERIFY(ed->markedLines(KernelEditor::Mark::Error).isEmpty());
    QVERIFY(ed->annotationAt(3).isEmpty());
}

void TestKernelEditor::fault_marks_its_line() {
    KernelEditorPanel panel(store_.get());
    panel.newKernel(QStringLiteral("faulty"), QString::fromLatin1(kBroken));
    const QString message = QStringLiteral(
        "line 3: thread (12, 0, 0)/(255, 0, 0) writes out[1572867], 3 past the end of out (1572864 elements)");
    panel.showFault(3, message);
    QCOMPARE(panel.editor()->markedLines(KernelEditor::Mark::Fault), QList<int>{3});
    QCOMPARE(panel.editor()->annotationAt(3), message);
    QCOMPARE(panel.messageList()->item(panel.messageList()->count() - 1)->text(), message);
    // A line past the end (a stale fault after an edit) marks nothing and is still listed.
    panel.showFault(99, QStringLiteral("line 99: ..."));
    QCOMPARE(panel.editor()->markedLines(KernelEditor::Mark::Fault), QList<int>{3});
}

void TestKernelEditor::autosave_restored_after_restart() {
    const QString typed = QStringLiteral("// my change\n");
    QString file;
    {
        auto panel = std::make_unique<KernelEditorPanel>(store_.get());
        panel->newKernel(QStringLiteral("mine"), QString::fromLatin1(kBroken));
        QVERIFY(panel->save());
        file = panel->file();
        QVERIFY(!panel->isModified());
        QSignalSpy autosaved(panel.get(), &KernelEditorPanel::autosaved);
        panel->setAutosaveDelay(50);
        panel->editor()->setCursorPosition(0, 0);
        panel->editor()->insert(typed);  // an edit, as typing makes one
        QVERIFY(panel->autosavePending());
        QVERIFY(autosaved.wait(kTimeoutMs));
        // On disk before the "crash": the debounced write happened, not the destructor's.
        QString kept_file, kept_text;
        QVERIFY(store_->readAutosave(&kept_file, &kept_text));
        QCOMPARE(kept_file, file);
        QCOMPARE(kept_text, typed + QString::fromLatin1(kBroken));
        QCOMPARE(disk_text(file), QString::fromLatin1(kBroken));  // the file itself untouched
    }
    // The next start: the unsaved text is back, still unsaved, in its file's name.
    KernelEditorPanel again(store_.get());
    QVERIFY(again.restore());
    QCOMPARE(again.file(), file);
    QCOMPARE(again.editor()->text(), typed + QString::fromLatin1(kBroken));
    QVERIFY(again.isModified());
    // Saving ends the autosave: the start after that opens the file.
    QVERIFY(again.save());
    QVERIFY(!store_->readAutosave(nullptr, nullptr));
    QCOMPARE(disk_text(file), typed + QString::fromLatin1(kBroken));
    KernelEditorPanel third(store_.get());
    QVERIFY(third.restore());
    QVERIFY(!third.isModified());
    QCOMPARE(third.editor()->text(), typed + QString::fromLatin1(kBroken));
}

void TestKernelEditor::saved_kernels_listed_at_next_start() {
    {
        KernelEditorPanel panel(store_.get());
        panel.newKernel(QStringLiteral("first"), QStringLiteral("// 1\n"));
        QVERIFY(panel.save());
        panel.newKernel(QStringLiteral("second"), QStringLiteral("// 2\n"));
        QVERIFY(panel.save());
        panel.newKernel(QStringLiteral("first"), QStringLiteral("// 1 again\n"));  // a free name: first-2.cu
        QVERIFY(panel.save());
        QCOMPARE(QFileInfo(panel.file()).fileName(), QStringLiteral("first-2.cu"));
        // Opening another kernel keeps the edits of the one shown.
        panel.editor()->append(QStringLiteral("// more\n"));
        QString error;
        QVERIFY2(panel.openKernel(store_->folder() + QStringLiteral("/second.cu"), &error), qPrintable(error));
        QCOMPARE(disk_text(store_->folder() + QStringLiteral("/first-2.cu")), QStringLiteral("// 1 again\n// more\n"));
    }
    KernelEditorPanel panel(store_.get());
    QStringList listed;
    for (int i = 0; i < panel.kernelList()->count(); ++i) listed << panel.kernelList()->item(i)->text();
    QCOMPARE(listed, (QStringList{QStringLiteral("first-2.cu"), QStringLiteral("first.cu"), QStringLiteral("second.cu")}));
    // The last kernel shown comes back; picking one in the list opens it.
    QVERIFY(panel.restore());
    QCOMPARE(QFileInfo(panel.file()).fileName(), QStringLiteral("second.cu"));
    QListWidget* list = panel.kernelList();
    panel.resize(800, 400);
    panel.show();
    QVERIFY(test::wait_exposed(&panel));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
    QVERIFY(QTest::qWaitFor([&] { return QFileInfo(panel.file()).fileName() == QStringLiteral("first.cu"); }, kTimeoutMs));
    QCOMPARE(panel.editor()->text(), QStringLiteral("// 1\n"));
}

void TestKernelEditor::bad_file_is_a_message() {
    KernelEditorPanel panel(store_.get());
    const QString binary = dir_.filePath(QStringLiteral("binary.cu"));
    {
        QFile f(binary);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x7f" "ELF\0\0\0", 7));
    }
    QString error;
    QVERIFY(!panel.openKernel(binary, &error));
    QVERIFY2(error.contains(QStringLiteral("binary.cu")) && error.contains(QStringLiteral("not a text file")), qPrintable(error));
    QVERIFY(!panel.openKernel(dir_.filePath(QStringLiteral("missing.cu")), &error));
    QVERIFY2(error.contains(QStringLiteral("missing.cu")), qPrintable(error));
    QVERIFY(panel.file().isEmpty());  // nothing was replaced
}

// Each family has a lecture kernel, the file on disk, whose kernel the source scan finds.
void TestKernelEditor::lecture_kernels_per_family() {
    for (KernelFamily family : {KernelFamily::Grayscale, KernelFamily::Matmul, KernelFamily::Convolution}) {
        const LectureKernel lecture = lecture_kernel_for(family);
        QVERIFY2(lecture.error.isEmpty(), qPrintable(lecture.error));
        QVERIFY(lecture.name.startsWith(QString::fromLatin1(to_string(family))));
        const QString disk = disk_text(test::source_dir() + QStringLiteral("/resources/kernels/") + lecture.name + QStringLiteral(".cu"));
        QVERIFY(!disk.isEmpty());
        QCOMPARE(lecture.text, disk);
        const auto kernels = user::find_kernels({lecture.name.toStdString(), lecture.text.toStdString()});
        QCOMPARE(int(kernels.size()), 1);
    }
    QCOMPARE(lecture_kernel_for(KernelFamily::Grayscale).name, QStringLiteral("grayscale_1d"));  // the lecture's first
}

// File > New Kernel in the window: the page in front's family's lecture kernel, in the editor dock.
void TestKernelEditor::new_kernel_loads_family_lecture_kernel() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    EditorActions* editor = w.editorActions();
    QVERIFY(editor && editor->dock()->isHidden());
    for (int tab = 0; tab < w.tabs()->count(); ++tab) {
        w.tabs()->setCurrentIndex(tab);
        const KernelFamily family = w.launchPanel()->family();
        editor->newAction()->trigger();
        QVERIFY(!editor->dock()->isHidden());
        const QString expected = lecture_kernel_files(family).value(0);
        QVERIFY2(!expected.isEmpty(), to_string(family));
        const QString name = QFileInfo(expected).completeBaseName();
        QCOMPARE(editor->panel()->editor()->text(),
                 disk_text(test::source_dir() + QStringLiteral("/resources/kernels/") + name + QStringLiteral(".cu")));
        QVERIFY(editor->panel()->kernelName().startsWith(name));
        QCOMPARE(QFileInfo(editor->panel()->file()).absolutePath(), QFileInfo(KernelStore::defaultFolder()).absoluteFilePath());
        // File > New Kernel From lists every lecture kernel of the family; each loads its file.
        emit editor->newFromMenu()->aboutToShow();
        const QList<QAction*> from = editor->newFromMenu()->actions();
        QCOMPARE(from.size(), lecture_kernel_files(family).size());
        from.last()->trigger();
        const QString last = QFileInfo(lecture_kernel_files(family).last()).completeBaseName();
        QCOMPARE(editor->panel()->editor()->text(),
                 disk_text(test::source_dir() + QStringLiteral("/resources/kernels/") + last + QStringLiteral(".cu")));
    }
    // The matrices page has the naive and the tiled kernel.
    QCOMPARE(lecture_kernel_files(KernelFamily::Matmul).size(), 2);
}

// Ctrl+S while the editor has the focus saves the kernel; Save Result As (Ctrl+S elsewhere) does not run.
void TestKernelEditor::ctrl_s_saves_the_kernel() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    EditorActions* editor = w.editorActions();
    QVERIFY(editor->newKernel());
    QVERIFY(test::wait_active(&w));
    editor->panel()->editor()->setFocus();
    QVERIFY(QTest::qWaitFor([&] { return editor->panel()->editor()->hasFocus(); }, kTimeoutMs));
    QVERIFY(editor->panel()->isModified());
    QTest::keyClick(editor->panel()->editor(), Qt::Key_S, Qt::ControlModifier);
    QVERIFY(!editor->panel()->isModified());
    QCOMPARE(disk_text(editor->panel()->file()), editor->panel()->editor()->text());
    QVERIFY(!w.findChild<QFileDialog*>());  // Save Result As would have opened its dialog
}

// A kernel of the user's registered with the family (as Compile and Run does) is listed in the page's
// Kernel chooser as "yours: NAME", after the built-ins, and can be chosen there.
void TestKernelEditor::user_variant_listed_in_chooser() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    const KernelFamily family = w.launchPanel()->family();
    const LectureKernel lecture = lecture_kernel_for(family);
    const user::SourceFile source{lecture.name.toStdString() + ".cu", lecture.text.toStdString()};
    const auto kernels = user::find_kernels(source);
    QCOMPARE(int(kernels.size()), 1);
    UserVariant v;
    v.name = kernels[0].name;
    v.source = source;
    v.signature = kernels[0];
    v.one_d = true;
    const UserVariantPtr registered = register_user_variant(family, v);
    QVERIFY(registered);
    QComboBox* box = w.launchPanel()->kernelBox();
    const int builtins = box->count();
    w.launchPanel()->refreshKernels();
    QCOMPARE(box->count(), builtins + 1);
    const QString title = QStringLiteral("yours: ") + QString::fromStdString(kernels[0].name);
    QCOMPARE(box->itemText(box->count() - 1), title);
    QVERIFY(w.launchPanel()->chooseKernel(title));
    QCOMPARE(w.launchPanel()->choice().ref, registered->ref);
    QVERIFY(QTest::qWaitFor([&] { return box->currentText() == title; }, kTimeoutMs));
    remove_user_variant(registered->ref);
}

namespace {

// The window on the CPU emulator with the image page's lecture kernel in the editor.
void start_editor(MainWindow& w) {
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    auto* backend = w.findChild<QComboBox*>(QStringLiteral("backendBox"));
    QVERIFY(backend);
    backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
    QCOMPARE(w.tabs()->currentIndex(), 0);
    QVERIFY(w.editorActions()->newKernel());
}

// Compile and Run with `text`; the runFinished argument.
bool run_text(MainWindow& w, const QString& text) {
    EditorActions* editor = w.editorActions();
    editor->panel()->editor()->setText(text);
    QSignalSpy finished(editor, &EditorActions::runFinished);
    editor->runAction()->trigger();
    if (!finished.wait(kTimeoutMs * 3)) return false;
    return finished.at(0).at(0).toBool();
}

QStringList messages(const KernelEditorPanel* panel) {
    QStringList out;
    for (int i = 0; i < panel->messageList()->count(); ++i) out << panel->messageList()->item(i)->text();
    return out;
}

}  // namespace

// A typo in the lecture's kernel: the compiler's error marked at its line in the window's editor.
void TestKernelEditor::compile_error_marked_in_window() {
    MainWindow w(raster_);
    start_editor(w);
    KernelEditorPanel* panel = w.editorActions()->panel();
    QString text = panel->editor()->text();
    const int line = text.left(text.indexOf(QStringLiteral("0.2989*x[i]"))).count(QLatin1Char('\n')) + 1;
    text.replace(QStringLiteral("0.2989*x[i]"), QStringLiteral("0.2989*y[i]"));
    // Ctrl+Enter typed in the editor runs it (the editor does not take the key for itself).
    panel->editor()->setText(text);
    QVERIFY(test::wait_active(&w));
    panel->editor()->setFocus();
    QVERIFY(QTest::qWaitFor([&] { return panel->editor()->hasFocus(); }, kTimeoutMs));
    QSignalSpy finished(w.editorActions(), &EditorActions::runFinished);
    QTest::keyClick(panel->editor(), Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(finished.count() || finished.wait(kTimeoutMs * 3));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(panel->editor()->text(), text);  // no newline typed
    QCOMPARE(panel->editor()->markedLines(KernelEditor::Mark::Error), QList<int>{line});
    QVERIFY2(panel->editor()->annotationAt(line).contains(QStringLiteral("y")), qPrintable(panel->editor()->annotationAt(line)));
    const QString first = messages(panel).value(0);
    QVERIFY2(first.startsWith(QStringLiteral("%1:%2:").arg(QFileInfo(panel->file()).fileName()).arg(line)) &&
                 first.contains(QStringLiteral("error")),
             qPrintable(messages(panel).join(QLatin1Char('\n'))));
    QVERIFY(w.statusText().contains(QStringLiteral("did not compile")));
    QVERIFY(!panel->isRunning());
}

// The lecture's kernel without its guard: the bounds fault named and marked at the guarded line.
void TestKernelEditor::bounds_fault_marked_in_window() {
    MainWindow w(raster_);
    start_editor(w);
    KernelEditorPanel* panel = w.editorActions()->panel();
    QString text = panel->editor()->text();
    const int line = text.left(text.indexOf(QStringLiteral("if (i<n) "))).count(QLatin1Char('\n')) + 1;
    text.replace(QStringLiteral("if (i<n) "), QString());
    QVERIFY(!run_text(w, text));
    QCOMPARE(panel->editor()->markedLines(KernelEditor::Mark::Fault), QList<int>{line});
    const QString all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("past the end")), qPrintable(all));
    QVERIFY2(panel->editor()->annotationAt(line).startsWith(QStringLiteral("line %1: thread (").arg(line)),
             qPrintable(panel->editor()->annotationAt(line)));
    // The text is kept, saved, and the window lives on.
    QCOMPARE(disk_text(panel->file()), text);
    QVERIFY(w.isVisible());
}

// The lecture's kernel as it is: it matches the reference and becomes "yours: NAME" in the chooser.
void TestKernelEditor::lecture_kernel_runs_and_becomes_variant() {
    MainWindow w(raster_);
    start_editor(w);
    KernelEditorPanel* panel = w.editorActions()->panel();
    // The lecture's kernel reads the planar layout: on interleaved pixels nearly every element differs,
    // each listed with its writer.
    w.page<ImagePage>()->session()->setLayout(PixelLayout::Interleaved);
    QVERIFY(run_text(w, panel->editor()->text()));
    QString all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("elements differ from the reference by more than one grey level")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("out[1] (pixel x 1, y 0) is ")) &&
                 all.contains(QStringLiteral("written by thread (0, 0, 0)/(1, 0, 0)")),
             qPrintable(all));
    // The first difference is selected on the output (pixel 0, 0).
    QCOMPARE(w.page<ImagePage>()->session()->selectedPixel(), QPoint(0, 0));
    // On planar pixels, as the lecture lays them out, it matches.
    w.page<ImagePage>()->session()->setLayout(PixelLayout::Planar);
    QVERIFY(run_text(w, panel->editor()->text()));
    all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("\nMatches the reference (within one grey level)")), qPrintable(all));
    QVERIFY(panel->editor()->markedLines(KernelEditor::Mark::Error).isEmpty());
    const QString title = QStringLiteral("yours: rgb_to_grayscale_kernel");
    QVERIFY(QTest::qWaitFor([&] { return w.launchPanel()->kernelBox()->currentText() == title; }, kTimeoutMs));
    // A file with a helper kernel first: the kernel that fits the family's forms is the one run.
    QVERIFY(run_text(w, QStringLiteral("__global__ void fill(float* p, int v) { p[0] = v; }\n") + panel->editor()->text()));
    QVERIFY2(messages(panel).join(QLatin1Char('\n')).contains(QStringLiteral("rgb_to_grayscale_kernel ran")), qPrintable(messages(panel).join(QLatin1Char('\n'))));
    // A second run of the same kernel keeps one entry.
    QVERIFY(run_text(w, panel->editor()->text()));
    QCOMPARE(w.launchPanel()->kernelBox()->findText(title), w.launchPanel()->kernelBox()->count() - 1);
    QCOMPARE(w.launchPanel()->kernelBox()->findText(title, Qt::MatchExactly), w.launchPanel()->kernelBox()->count() - 1);
}

// An endless loop: Stop ends it (no time limit is waited for), and the editor can run again.
void TestKernelEditor::stop_ends_an_endless_kernel() {
    MainWindow w(raster_);
    start_editor(w);
    EditorActions* editor = w.editorActions();
    KernelEditorPanel* panel = editor->panel();
    QString text = panel->editor()->text();
    // A volatile read: a loop without side effects may be assumed to end (GCC's -ffinite-loops).
    text.replace(QStringLiteral("if (i<n) "), QStringLiteral("volatile int spin = 1; while (spin) {} if (i<n) "));
    panel->editor()->setText(text);
    QSignalSpy started(editor->runner(), &JobRunner::started);
    QSignalSpy finished(editor, &EditorActions::runFinished);
    editor->runAction()->trigger();
    QVERIFY(panel->isRunning());
    QVERIFY(!editor->runAction()->isEnabled() && editor->stopAction()->isEnabled());
    QVERIFY(started.count() || started.wait(kTimeoutMs));
    editor->stopAction()->trigger();
    QVERIFY(finished.wait(kTimeoutMs * 3));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    const QString all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("cancel"), Qt::CaseInsensitive) && !all.contains(QStringLiteral("time limit")), qPrintable(all));
    QVERIFY(editor->runAction()->isEnabled() && !editor->stopAction()->isEnabled());
}

// Compile and Run runs the kernel once: the page's run of its new variant is the editor's run, handed
// on; a new text of the kernel already chosen is run once too, and the page shows that run.
void TestKernelEditor::compile_and_run_runs_once() {
    MainWindow w(raster_);
    start_editor(w);
    GrayscaleSession* session = w.page<ImagePage>()->session();
    session->setLayout(PixelLayout::Planar);
    QVERIFY(QTest::qWaitFor([&] { return !w.jobs()->busy(); }, kTimeoutMs));
    KernelEditorPanel* panel = w.editorActions()->panel();
    const QString lecture = panel->editor()->text();
    // Compile and Run, then the page's run of the variant, then nothing left to do.
    auto run_and_settle = [&](const QString& text) {
        QSignalSpy shown(session, &GrayscaleSession::userRunFinished);
        if (!run_text(w, text)) return false;
        if (!shown.count() && !shown.wait(kTimeoutMs)) return false;
        return QTest::qWaitFor([&] { return !w.jobs()->busy(); }, kTimeoutMs);
    };
    const std::uint64_t before = user_kernel_runs();
    QVERIFY(run_and_settle(lecture));
    QCOMPARE(user_kernel_runs() - before, std::uint64_t(1));
    QVERIFY(session->runsUserKernel());
    QVERIFY(session->userRun() && session->userRun()->ok());
    QVERIFY(session->userRun()->comparison.matches());
    QCOMPARE(session->userRun()->block, (Dim3{w.launchPanel()->choice().block.x, 1, 1}));

    // The same kernel, edited: chosen already, so the page runs it again, and takes the editor's run.
    QString inverted = lecture;
    inverted.replace(QStringLiteral("out[i] = "), QStringLiteral("out[i] = 255 - "));
    QVERIFY(run_and_settle(inverted));
    QCOMPARE(user_kernel_runs() - before, std::uint64_t(2));
    QVERIFY(session->userRun() && session->userRun()->ok());
    QVERIFY(!session->userRun()->comparison.matches());  // the page shows the new text's output

    // Another block in the launch panel: that is a new launch, which the page runs itself.
    const Dim3 block = w.launchPanel()->choice().block;
    QSignalSpy shown(session, &GrayscaleSession::userRunFinished);
    w.launchPanel()->setChoice(LaunchChoice{w.launchPanel()->choice().ref, Dim3{block.x == 128 ? 64u : 128u, 1, 1}});
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(QTest::qWaitFor([&] { return !w.jobs()->busy(); }, kTimeoutMs));
    QCOMPARE(user_kernel_runs() - before, std::uint64_t(3));
}

// A file of several kernels: the editor lists them (those that fit the family first), the one chosen
// is the one run, and the choice is remembered for the file.
void TestKernelEditor::kernel_chooser_for_several_kernels() {
    MainWindow w(raster_);
    start_editor(w);
    w.page<ImagePage>()->session()->setLayout(PixelLayout::Planar);
    KernelEditorPanel* panel = w.editorActions()->panel();
    QComboBox* box = panel->kernelChoice();
    const QString lecture = panel->editor()->text();
    QVERIFY(box->isHidden());  // one kernel: nothing to choose
    QString copy = lecture;
    copy.replace(QStringLiteral("rgb_to_grayscale_kernel"), QStringLiteral("gray_copy"));
    copy.replace(QStringLiteral("out[i] = "), QStringLiteral("out[i] = 255 - "));
    const QString text = QStringLiteral("__global__ void fill(float* p, int v) { p[0] = v; }\n") + lecture + copy;
    panel->editor()->setText(text);
    panel->refreshKernelChoice();
    QVERIFY(!box->isHidden());
    QCOMPARE(box->count(), 3);
    QCOMPARE(box->itemData(0).toString(), QStringLiteral("rgb_to_grayscale_kernel"));
    QCOMPARE(box->itemData(1).toString(), QStringLiteral("gray_copy"));
    QCOMPARE(box->itemData(2).toString(), QStringLiteral("fill"));  // fits no form of the family: last
    QVERIFY2(box->itemText(2).contains(QStringLiteral("fits no form")), qPrintable(box->itemText(2)));
    QCOMPARE(panel->chosenKernel(), QStringLiteral("rgb_to_grayscale_kernel"));  // the first that fits

    // The learner picks gray_copy: it is the one run, and the variant chosen.
    box->setCurrentIndex(1);
    emit box->activated(1);
    QVERIFY(run_text(w, text));
    const QString all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("gray_copy ran")) && all.contains(QStringLiteral("elements differ")), qPrintable(all));
    QVERIFY(QTest::qWaitFor([&] { return w.launchPanel()->kernelBox()->currentText() == QStringLiteral("yours: gray_copy"); },
                            kTimeoutMs));

    // Remembered for the file: opened again in another editor, gray_copy is the one chosen.
    KernelEditorPanel again(w.editorActions()->store());
    QString error;
    QVERIFY2(again.openKernel(panel->file(), &error), qPrintable(error));
    QCOMPARE(again.chosenKernel(), QStringLiteral("gray_copy"));
    // A file where it is gone: the first that fits.
    panel->editor()->setText(QStringLiteral("__global__ void fill(float* p, int v) { p[0] = v; }\n") + lecture);
    panel->refreshKernelChoice();
    QCOMPARE(panel->chosenKernel(), QStringLiteral("rgb_to_grayscale_kernel"));
}

// Another family, through the same code: the matrices page's lecture kernel (2-D form, floats) matches
// its reference and is listed there; a transposed index is listed element by element with its writer.
void TestKernelEditor::matmul_kernel_on_its_page() {
    MainWindow w(raster_);
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    auto* backend = w.findChild<QComboBox*>(QStringLiteral("backendBox"));
    backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    QVERIFY(QTest::qWaitFor([&] { return w.page<MatmulPage>()->session()->a() && !w.jobs()->busy(); }, kTimeoutMs));
    EditorActions* editor = w.editorActions();
    QVERIFY(editor->newKernel());
    KernelEditorPanel* panel = editor->panel();
    QCOMPARE(panel->kernelName(), QStringLiteral("matmul"));
    const QString lecture = panel->editor()->text();
    QVERIFY2(run_text(w, lecture), qPrintable(messages(panel).join(QLatin1Char('\n'))));
    QString all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("\nMatches the reference (within 1e-05 relative)")), qPrintable(all));
    const QString title = QStringLiteral("yours: matmul_k");
    QVERIFY(QTest::qWaitFor([&] { return w.launchPanel()->kernelBox()->currentText() == title; }, kTimeoutMs));

    QString wrong = lecture;
    wrong.replace(QStringLiteral("n[i*w+c]"), QStringLiteral("n[c*k+i]"));  // B read as if transposed
    QVERIFY(run_text(w, wrong));
    all = messages(panel).join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("elements differ from the reference")) && all.contains(QStringLiteral("written by thread (")),
             qPrintable(all));
    // The first difference is the element selected on the page.
    const QRegularExpressionMatch first = QRegularExpression(QStringLiteral("\\n\\w+\\[(\\d+)\\]")).match(all);
    QVERIFY2(first.hasMatch(), qPrintable(all));
    const quint64 index = first.captured(1).toULongLong();
    const quint64 cols = w.page<MatmulPage>()->session()->b()->cols;
    QCOMPARE(w.page<MatmulPage>()->session()->selectedRow(), int(index / cols));
    QCOMPARE(w.page<MatmulPage>()->session()->selectedCol(), int(index % cols));
}

QTEST_MAIN(TestKernelEditor)
#include "tst_kernel_editor.moc"
