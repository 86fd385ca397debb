#pragma once
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

#include "app/jobs/job_ticket.h"
#include "app/lessons/lesson.h"
#include "ui/lessons/lesson_progress.h"
#include "ui/lessons/lesson_state_applier.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSplitter;
class QVBoxLayout;
class QTextBrowser;

namespace cvz {

class JobRunner;
class MainWindow;

// The guided path (issue 28) in a dock: the steps with the learner's progress (passed / tried / new,
// remembered in the settings), the step's text and task, Back and Next, Check — run on a worker of its
// own (the window never waits; "Checking…" with Cancel meanwhile) — its result and hint, and Show
// Solution once a step has failed a few times. Going to a step puts the window in its state
// (LessonStateApplier); the answer is read from where the step says (the launch panel, the picked
// thread, the editor, or the line edit here).
class LessonDock : public QWidget {
    Q_OBJECT
public:
    // Reads the steps from `lessons_dir`; a folder that cannot be read is said in the dock.
    LessonDock(MainWindow* window, const QString& lessons_dir, QWidget* parent = nullptr);
    ~LessonDock() override;

    const std::vector<lessons::LessonStep>& steps() const { return steps_; }
    // Other steps than the folder's (a test's); the remembered step, else the first, is shown.
    void setSteps(std::vector<lessons::LessonStep> steps);
    QString loadError() const { return load_error_; }
    const lessons::LessonStep* currentStep() const;
    int currentIndex() const { return current_; }
    const LessonProgress& progress() const { return progress_; }

    // Goes to the step and applies its state (again, when it is the current one). False when there is
    // no such step.
    bool openStep(const QString& id);
    void openIndex(int index);
    // Shows the remembered step (the first on a first start) without applying anything; applied
    // later by openStep or the first ensureApplied().
    void showRemembered();
    void ensureApplied();  // applies the current step's state once per session
    bool applied() const { return applied_; }

    void next();
    void back();
    void check();   // reads the answer and checks it on the worker
    void cancel();  // the check in progress
    void showSolution();
    bool checking() const { return checking_; }
    QString resultText() const;  // the last check's result, as shown (plain text)
    QStringList applyProblems() const { return apply_problems_; }

    // For tests and the keyboard.
    QListWidget* stepList() const { return list_; }
    QTextBrowser* textView() const { return text_; }
    QLineEdit* answerEdit() const { return answer_edit_; }
    QPushButton* backButton() const { return back_; }
    QPushButton* nextButton() const { return next_; }
    QPushButton* checkButton() const { return check_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* solutionButton() const { return solution_; }
    QLabel* resultLabel() const { return result_; }

    // On a small screen: the step list three rows high, the answer, buttons and result under the step's
    // title, the rest for the step's text.
    void setCompact(bool compact);

    QSize sizeHint() const override { return {380, 600}; }

signals:
    void stepApplied(const QString& id);
    void checkStarted();
    void checkFinished(bool passed);
    void checkCancelled();
    void message(const QString& text, bool error);  // for the status bar

private:
    void buildUi();
    void refreshList();
    void showStep();  // the current step's text, task, answer row and buttons
    void updateButtons();
    void setChecking(bool on);
    void finishCheck(const QString& id, const lessons::CheckResult& result, bool cancelled);
    void showResult(const QString& html);

    MainWindow* window_;
    QString dir_;
    std::vector<lessons::LessonStep> steps_;
    QString load_error_;
    int current_ = -1;
    bool applied_ = false;
    bool checking_ = false;
    bool solution_shown_ = false;
    LessonProgress progress_;
    LessonStateApplier applier_;
    QStringList apply_problems_;
    std::unique_ptr<JobRunner> runner_;
    JobTicket ticket_;

    QSplitter* split_ = nullptr;
    QVBoxLayout* step_layout_ = nullptr;  // the step's title and text (and, when compact, its actions)
    QWidget* actions_ = nullptr;          // the answer row, the buttons and the result
    QListWidget* list_ = nullptr;
    QLabel* title_ = nullptr;
    QTextBrowser* text_ = nullptr;
    QLabel* answer_note_ = nullptr;
    QLineEdit* answer_edit_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    QPushButton* check_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* solution_ = nullptr;
    QLabel* result_ = nullptr;
};

}  // namespace cvz
