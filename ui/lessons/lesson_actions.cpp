#include "ui/lessons/lesson_actions.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>

#include "app/lessons/lesson.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/windows/main_window.h"

// Q_INIT_RESOURCE declares a function, so outside any namespace; the library is static, so its
// embedded lessons (":/lessons", ui/CMakeLists.txt) must be asked for.
static void init_lesson_resources() { Q_INIT_RESOURCE(lessons); }

namespace cvz {

LessonActions::LessonActions(MainWindow* window) : QObject(window), window_(window) { init_lesson_resources(); }

void LessonActions::addToHelpMenu(QMenu* help_menu) {
    action_ = help_menu->addAction(tr("&Lessons"), this, &LessonActions::showDock);
    action_->setObjectName(QStringLiteral("lessonsAction"));
    action_->setShortcut(QKeySequence::HelpContents);  // F1
    action_->setShortcutContext(Qt::WindowShortcut);
    action_->setToolTip(tr("The guided path through the lecture: each step sets up the app, asks you to do "
                           "something and checks it (F1)"));
}

void LessonActions::createDock() {
    panel_ = new LessonDock(window_, lessons::lessons_dir(), window_);
    panel_->setObjectName(QStringLiteral("lessonDock"));
    connect(panel_, &LessonDock::message, this, &LessonActions::message);
    dock_ = new QDockWidget(tr("Lessons"), window_);
    dock_->setObjectName(QStringLiteral("lessonsDock"));  // for saveState
    dock_->setWidget(panel_);
    window_->addDockWidget(Qt::LeftDockWidgetArea, dock_);
    // The whole height on the left: the Source, the editor and the Execution bar under the pages would
    // otherwise take the bottom-left corner too, and leave the step's text a few lines.
    window_->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window_->setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    dock_->hide();
    if (window_->panelsMenu()) window_->panelsMenu()->addAction(dock_->toggleViewAction());
}

void LessonActions::showDock() {
    dock_->show();
    dock_->raise();
    panel_->ensureApplied();
}

bool LessonActions::openStep(const QString& id) {
    if (!lessons::find_step(panel_->steps(), id)) return false;
    dock_->show();
    dock_->raise();
    panel_->openStep(id);
    return true;
}

}  // namespace cvz
