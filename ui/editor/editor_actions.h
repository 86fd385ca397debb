#pragma once
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

#include "app/jobs/job_ticket.h"
#include "kernels/core/kernel_variant.h"
#include "kernels/user/user_kernel.h"

class QAction;
class QDockWidget;
class QMenu;

namespace cvz {

class JobRunner;
class KernelEditorPanel;
class KernelStore;
class MainWindow;
struct LectureKernel;
struct UserRunResult;

// The kernel editor in the window (issue 27): its dock (KernelEditorPanel, under the pages, tabbed with
// the Source view) and its actions: File > New Kernel (the current family's lecture kernel, from
// resources/kernels/), Open Kernel..., Save Kernel (Ctrl+S while the editor has the focus), and
// Run > Compile and Run (Ctrl+Enter) and Stop. The window only creates it and adds its menus.
class EditorActions : public QObject {
    Q_OBJECT
public:
    explicit EditorActions(MainWindow* window);
    ~EditorActions() override;

    void addToFileMenu(QMenu* file_menu);
    void addToRunMenu(QMenu* run_menu);
    // After the window's other docks: restores the unsaved text, else the last kernel.
    void createDock();

    KernelEditorPanel* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    KernelStore* store() const { return store_; }
    QAction* newAction() const { return new_; }
    QAction* saveAction() const { return save_; }
    QAction* runAction() const { return run_; }
    QAction* stopAction() const { return stop_; }

    void showDock();  // shown and raised, the editor focused
    // A new kernel from the current family's lecture kernel; false (and a message) when it has none.
    bool newKernel();
    // The same from one of the family's lecture kernels (File > New Kernel From: the tiled matmul, say).
    bool newKernelFrom(const QString& lecture_path);
    QMenu* newFromMenu() const { return new_from_; }
    bool openKernel(const QString& path);  // false: the message says why
    bool saveKernel();
    // Compiles the kernel and runs it over the page in front's input, on the editor's own worker (a
    // kernel stopped only by its time limit never delays the pages' runs); runFinished() follows. The
    // compile's messages are marked in the editor, a fault at its line, the comparison with the
    // family's reference listed (each differing element with the thread that wrote it), and a kernel
    // that ran becomes the family's variant "yours: NAME", chosen in the launch panel.
    void compileAndRun();
    void stop();  // the compile or the run in progress, as Stop does
    bool running() const;
    JobRunner* runner() const { return runner_.get(); }

signals:
    void message(const QString& text, bool error);
    void failed(const QString& text);  // worth a message box
    void runFinished(bool ran);        // a Compile and Run ended: true when the kernel ran to its end

private:
    void openKernelDialog();
    bool startFrom(const LectureKernel& lecture);
    // On the GUI thread, with the run's outcome and the texts the worker made of it.
    void finishRun(KernelFamily family, const user::SourceFile& source, const UserRunResult& result,
                   const QStringList& differences);
    void showElement(quint64 index);  // on the page in front

    MainWindow* window_;
    KernelStore* store_ = nullptr;
    KernelEditorPanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QAction* new_ = nullptr;
    QAction* open_ = nullptr;
    QMenu* new_from_ = nullptr;
    QAction* save_ = nullptr;
    QAction* run_ = nullptr;
    QAction* stop_ = nullptr;
    std::unique_ptr<JobRunner> runner_;
    JobTicket ticket_;
};

}  // namespace cvz
