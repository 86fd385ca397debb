#pragma once
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenu;

namespace cvz {

class JobRunner;
class KernelEditorPanel;
class KernelStore;
class MainWindow;

// The kernel editor in the window (issue 27): its dock (KernelEditorPanel, under the pages, tabbed with
// the Source view) and its actions: File > New Kernel (the current family's lecture kernel, from
// resources/kernels/), Open Kernel..., Save Kernel (Ctrl+S while the editor has the focus), and
// Run > Compile and Run (Ctrl+Enter) and Stop. The window only creates it and adds its menus.
class EditorActions : public QObject {
    Q_OBJECT
public:
    EditorActions(MainWindow* window, JobRunner* jobs);
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
    bool openKernel(const QString& path);  // false: the message says why
    bool saveKernel();

signals:
    void message(const QString& text, bool error);
    void failed(const QString& text);  // worth a message box

private:
    void openKernelDialog();

    MainWindow* window_;
    JobRunner* jobs_;
    KernelStore* store_ = nullptr;
    KernelEditorPanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QAction* new_ = nullptr;
    QAction* open_ = nullptr;
    QAction* save_ = nullptr;
    QAction* run_ = nullptr;
    QAction* stop_ = nullptr;
};

}  // namespace cvz
