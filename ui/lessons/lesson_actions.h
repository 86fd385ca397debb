#pragma once
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenu;

namespace cvz {

class LessonDock;
class MainWindow;

// The guided lessons in the window (issue 28): Help > Lessons (F1) and its dock, left of the pages.
// The window only creates it, adds its menu entry and names it among the panels (`--show lessons`).
class LessonActions : public QObject {
    Q_OBJECT
public:
    explicit LessonActions(MainWindow* window);

    void addToHelpMenu(QMenu* help_menu);
    // Before the window restores its state: hidden until asked for, or shown as it was left.
    void createDock();

    LessonDock* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    QAction* lessonsAction() const { return action_; }

    // Shown and raised; with `apply` (Help > Lessons), the current step's state is applied the first
    // time in a session. `--show lessons` only shows it: the panels asked for change nothing else.
    void showDock(bool apply = true);
    // Shown, at step `id` with its state applied; false (and nothing changes) when there is no such step.
    bool openStep(const QString& id);

    // True when the screen is too narrow for the lessons beside the pages and the right-hand docks
    // (1024 px, or QT_SCALE_FACTOR=1.5 on a laptop): they are then a tab beside the Launch panel.
    bool compact() const { return compact_; }

signals:
    void message(const QString& text, bool error);

private:
    void placeDock();
    void refit();

    MainWindow* window_;
    LessonDock* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QAction* action_ = nullptr;
    bool compact_ = false;
    bool placed_ = false;
};

}  // namespace cvz
