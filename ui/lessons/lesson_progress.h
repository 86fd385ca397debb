#pragma once
#include <QString>

namespace cvz {

// The learner's progress on the guided path, kept in the app's settings (QSettings, as the recent
// files are) so that a new window, or the next start, shows it again: each step is new, tried (a check
// failed) or passed, with the number of failed checks (Show Solution is offered after a few), and the
// step the learner was on.
class LessonProgress {
public:
    enum class Mark { New, Tried, Passed };

    Mark mark(const QString& step) const;
    int failures(const QString& step) const;  // failed checks so far (a pass keeps the count)
    // A check's outcome: passed marks the step passed for good; a failure marks a new step tried.
    void record(const QString& step, bool passed);

    QString currentStep() const;  // empty before the first
    void setCurrentStep(const QString& step);

    void reset();  // every step new again

    static constexpr int kTriesBeforeSolution = 3;

private:
    static QString key(const QString& step, const char* what);
};

}  // namespace cvz
