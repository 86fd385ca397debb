#pragma once
// The family chooser the sweep and the ladder dialogs share: one item per registered family
// (app/family/app_family.h), each naming the input its page offered ("Grayscale on chelsea.png, 451 ×
// 300 image, interleaved"). It keeps each family's problem, so that the dialog asks it for the current
// one and never which family it has.
#include <QComboBox>

#include <map>

#include "app/family/family_problem.h"

namespace cvz {

class FamilyBox : public QComboBox {
    Q_OBJECT
public:
    // `item`: the item's text from the family's title (%1) and its input (%2), "%1 on %2";
    // `without_input`: after the family's "no image" when it has none, " (model only)".
    FamilyBox(const QString& item, const QString& without_input, QWidget* parent = nullptr);

    // The input of problem->family(); `name` names its document ("chelsea.png"). True when that family
    // is the current one.
    bool setProblem(FamilyProblemPtr problem, const QString& name = {});
    // The current family's problem, null until its page offered one.
    FamilyProblemPtr problem() const;

    KernelFamily family() const;
    void setFamily(KernelFamily family);

private:
    void updateTexts();

    struct Input {
        FamilyProblemPtr problem;
        QString name;
    };
    std::map<KernelFamily, Input> inputs_;
    QString item_;
    QString without_input_;
};

}  // namespace cvz
