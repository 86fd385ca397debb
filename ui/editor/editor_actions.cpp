#include "ui/editor/editor_actions.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QTimer>

#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/editor/kernel_store.h"
#include "ui/editor/lecture_kernels.h"
#include "ui/panels/launch_panel.h"
#include "ui/windows/main_window.h"

namespace cvz {

EditorActions::EditorActions(MainWindow* window, JobRunner* jobs)
    : QObject(window), window_(window), jobs_(jobs), store_(new KernelStore(QString(), this)) {
    new_ = new QAction(tr("&New Kernel"), this);
    new_->setObjectName(QStringLiteral("newKernelAction"));
    new_->setToolTip(tr("Start a kernel of your own from the lecture's kernel of the current family"));
    open_ = new QAction(tr("Open &Kernel..."), this);
    open_->setObjectName(QStringLiteral("openKernelAction"));
    save_ = new QAction(tr("Sa&ve Kernel"), this);
    save_->setObjectName(QStringLiteral("saveKernelAction"));
    // Ctrl+S is Save Result As in the window; the editor takes it while it has the focus
    // (KernelEditor), so the menu only names it.
    save_->setText(save_->text() + QLatin1Char('\t') + QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText));
    run_ = new QAction(tr("&Compile and Run"), this);
    run_->setObjectName(QStringLiteral("compileRunAction"));
    run_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    run_->setShortcutContext(Qt::WindowShortcut);
    run_->setToolTip(tr("Compile your kernel and run it as the current family's variant \"yours: NAME\" (Ctrl+Enter)"));
    stop_ = new QAction(tr("S&top Kernel"), this);
    stop_->setObjectName(QStringLiteral("stopKernelAction"));
    stop_->setEnabled(false);
    connect(new_, &QAction::triggered, this, [this] { newKernel(); });
    connect(open_, &QAction::triggered, this, &EditorActions::openKernelDialog);
    connect(save_, &QAction::triggered, this, [this] { saveKernel(); });
}

EditorActions::~EditorActions() = default;

void EditorActions::addToFileMenu(QMenu* file_menu) {
    file_menu->addAction(new_);
    file_menu->addAction(open_);
    file_menu->addAction(save_);
}

void EditorActions::addToRunMenu(QMenu* run_menu) {
    run_menu->addAction(run_);
    run_menu->addAction(stop_);
    window_->addAction(run_);  // Ctrl+Enter wherever the focus is
}

void EditorActions::createDock() {
    panel_ = new KernelEditorPanel(store_, window_);
    panel_->setObjectName(QStringLiteral("kernelEditorPanel"));
    dock_ = new QDockWidget(tr("Kernel Editor"), window_);
    dock_->setObjectName(QStringLiteral("kernelEditorDock"));
    dock_->setWidget(panel_);
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    // Under the pages with the Source view: the code wants the window's width.
    if (QDockWidget* source = window_->dock(PageDocks::Source)) window_->tabifyDockWidget(source, dock_);
    dock_->hide();
    if (QMenu* panels = window_->panelsMenu()) panels->addAction(dock_->toggleViewAction());
    connect(panel_, &KernelEditorPanel::message, this, &EditorActions::message);
    connect(panel_, &KernelEditorPanel::runRequested, run_, &QAction::trigger);
    connect(panel_, &KernelEditorPanel::stopRequested, stop_, &QAction::trigger);
    panel_->restore();
    // First opened with nothing to show: the current family's lecture kernel, ready to edit.
    connect(dock_->toggleViewAction(), &QAction::toggled, this, [this](bool open) {
        if (open && panel_->file().isEmpty()) newKernel();
    });
}

void EditorActions::showDock() {
    const bool was_hidden = dock_->isHidden();
    dock_->show();
    dock_->raise();
    panel_->editor()->setFocus();
    // Opened, it takes half the window's height (the page keeps at least its minimum) and the Execution
    // bar under it only what it needs: the docks' size hints alone would leave the code a few lines.
    if (was_hidden)
        QTimer::singleShot(0, this, [this] {
            QList<QDockWidget*> docks{dock_};
            QList<int> heights{window_->height() / 2};
            if (QDockWidget* timeline = window_->dock(PageDocks::Timeline); timeline && !timeline->isHidden()) {
                docks << timeline;
                heights << timeline->minimumSizeHint().height();
            }
            window_->resizeDocks(docks, heights, Qt::Vertical);
        });
}

bool EditorActions::newKernel() {
    const LectureKernel lecture = lecture_kernel_for(window_->launchPanel()->family());
    if (!lecture.error.isEmpty()) {
        emit message(lecture.error, true);
        emit failed(lecture.error);
        return false;
    }
    panel_->newKernel(lecture.name, lecture.text);
    showDock();
    emit message(tr("New kernel %1 from the lecture's %2: edit it, then Compile and Run (Ctrl+Enter)")
                     .arg(QFileInfo(panel_->file()).fileName(), lecture.name),
                 false);
    return true;
}

void EditorActions::openKernelDialog() {
    const QString start = panel_->file().isEmpty() ? store_->folder() : QFileInfo(panel_->file()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open Kernel"), start,
                                                      tr("CUDA sources (*.cu *.cuh);;All files (*)"));
    if (!path.isEmpty()) openKernel(path);
}

bool EditorActions::openKernel(const QString& path) {
    QString error;
    if (!panel_->openKernel(path, &error)) {
        emit message(error, true);
        emit failed(error);
        return false;
    }
    showDock();
    emit message(tr("Opened %1").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

bool EditorActions::saveKernel() {
    QString error;
    if (panel_->save(&error)) return true;
    emit failed(error);
    return false;
}

}  // namespace cvz
