#pragma once
#include <QString>
#include <QStringList>

#include "app/lessons/lesson.h"

namespace cvz {

class MainWindow;

// Puts the window in a lesson step's state and reads the learner's answer back from it, through the
// window's existing ways (the pages by name, the launch panel, the panels as `--show` names them, the
// kernel editor): it never names a family, and it takes nothing away that the learner had open — other
// docks stay, and a kernel step's starter opens in the editor only when the learner has no kernel kept
// for that step (else their own text comes back).
class LessonStateApplier {
public:
    LessonStateApplier(MainWindow* window, QString lessons_dir);

    // Page, input (image or matrices), kernel, block, layout, panels, starter, in that order. Returns
    // what could not be applied, one sentence each (empty when all was); the rest is applied regardless.
    QStringList apply(const lessons::LessonStep& step);

    // The answer as check_answer takes it (see AnswerFrom), read from the app; `typed` is the dock's
    // line edit (AnswerFrom::Text). Empty with *error set when there is none to read (no thread picked).
    QString answer(const lessons::LessonStep& step, const QString& typed, QString* error) const;
    // The file name the kernel's messages name (the editor's), for check_kernel.
    QString kernelFileName(const lessons::LessonStep& step) const;

    // Where a kernel step's own kernel is kept in the editor's store: "<store>/<id>.cu".
    QString kernelPath(const lessons::LessonStep& step) const;
    // A kernel step's solution into the editor as a new kernel "<id>-solution.cu": the learner's text
    // is saved first and stays in the store. False with *error when the editor cannot take it.
    bool openSolution(const lessons::LessonStep& step, QString* error);

    // Where the answer comes from, for the dock: "the Launch panel's block", ...
    static QString answerSource(lessons::AnswerFrom from);

private:
    QString applyBlock(const QString& text);
    QString openStarter(const lessons::LessonStep& step);

    MainWindow* window_;
    QString dir_;
};

}  // namespace cvz
