#include "ui/lessons/lesson_actions.h"

#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMenu>
#include <QScreen>
#include <QStyle>
#include <QTimer>

#include <algorithm>

#include "app/lessons/lesson.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/windows/dock_scroll_area.h"
#include "ui/windows/fit_to_screen.h"
#include "ui/windows/main_window.h"

// Q_INIT_RESOURCE declares a function, so outside any namespace; the library is static, so its
// embedded lessons (":/lessons", ui/CMakeLists.txt) must be asked for.
static void init_lesson_resources() { Q_INIT_RESOURCE(lessons); }

namespace cvz {

LessonActions::LessonActions(MainWindow* window) : QObject(window), window_(window) { init_lesson_resources(); }

void LessonActions::addToHelpMenu(QMenu* help_menu) {
    action_ = help_menu->addAction(tr("&Lessons"), this, [this] { showDock(); });
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
    // Scrolls when short, as every dock: the lessons never make the window taller than the screen.
    dock_->setWidget(new DockScrollArea(panel_, window_));
    window_->addDockWidget(Qt::LeftDockWidgetArea, dock_);
    // The whole height on the left: the Source, the editor and the Execution bar under the pages would
    // otherwise take the bottom-left corner too, and leave the step's text a few lines.
    window_->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window_->setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    dock_->hide();
    if (window_->panelsMenu()) window_->panelsMenu()->addAction(dock_->toggleViewAction());
}

void LessonActions::showDock(bool apply) {
    placeDock();
    dock_->show();
    dock_->raise();
    if (apply) panel_->ensureApplied();
    refit();
}

bool LessonActions::openStep(const QString& id) {
    if (!lessons::find_step(panel_->steps(), id)) return false;
    placeDock();
    dock_->show();
    dock_->raise();
    panel_->openStep(id);
    refit();
    return true;
}

// Left of the pages the lessons need their own width; where the window (or its screen) has not that
// much beside the pages' and the right-hand docks' least widths (1024 px, or QT_SCALE_FACTOR=1.5 on a
// laptop), a window wider than the screen would follow. They become a tab beside the Launch panel then (the
// tallest place on the right: the step's text stays readable), raised whenever a step is applied.
// Decided once, the first time they are shown.
void LessonActions::placeDock() {
    if (placed_ || !dock_->isHidden() || window_->dockWidgetArea(dock_) != Qt::LeftDockWidgetArea) {
        placed_ = true;
        return;
    }
    placed_ = true;
    const QScreen* screen = window_->screen() ? window_->screen() : QGuiApplication::primaryScreen();
    if (!screen) return;
    const int frame = window_->isVisible() ? window_->frameGeometry().width() - window_->width() : 16;
    const int separator = 2 * window_->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent);
    const int beside = window_->minimumSizeHint().width() + dock_->minimumSizeHint().width() + separator + frame;
    // Nor wider than it is: opening the lessons never makes the window grow.
    int room = screen->availableGeometry().width();
    if (window_->isVisible()) room = std::min(room, window_->frameGeometry().width());
    if (beside <= room) return;
    compact_ = true;
    if (QDockWidget* launch = window_->dock(PageDocks::Launch))
        window_->tabifyDockWidget(launch, dock_);
    else
        window_->addDockWidget(Qt::RightDockWidgetArea, dock_);
    panel_->setCompact(true);
    // Raised, with most of the right-hand column's height (the step's panels shown under the pages may
    // have taken some): the step's text, its task and Check without scrolling where the screen allows.
    // The docks under the pages (the Kernel Editor a kernel step shows) span the whole width and end the
    // right-hand column above them: taller than a quarter of the window, they are cut to it first.
    auto make_room = [this] {
        dock_->raise();
        QTimer::singleShot(0, dock_, [this] {
            QList<QDockWidget*> low;
            QList<int> heights;
            for (QDockWidget* d : window_->findChildren<QDockWidget*>())
                if (d->isVisible() && !d->isFloating() && window_->dockWidgetArea(d) == Qt::BottomDockWidgetArea &&
                    d->height() > window_->height() / 4) {
                    low << d;
                    heights << window_->height() / 4;
                }
            if (!low.isEmpty()) window_->resizeDocks(low, heights, Qt::Vertical);
            window_->resizeDocks({dock_}, {window_->height() * 2 / 3}, Qt::Vertical);
        });
    };
    connect(panel_, &LessonDock::stepApplied, dock_, make_room);
    make_room();
}

// A step's panels may have made the window larger than its screen: cut to it once the layout settled.
void LessonActions::refit() {
    QTimer::singleShot(0, window_, [w = window_] {
        if (w->isVisible()) fit_to_screen(w, w->frameGeometry().size() - w->size());
    });
}

}  // namespace cvz
