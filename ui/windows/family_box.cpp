#include "ui/windows/family_box.h"

#include "app/family/app_family.h"

namespace cvz {

FamilyBox::FamilyBox(const QString& item, const QString& without_input, QWidget* parent)
    : QComboBox(parent), item_(item), without_input_(without_input) {
    for (const AppFamily& f : app_families()) addItem(QString(), int(f.family));
    // As wide as a short text (the item names the document, which can be long); the list is wider.
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(28);
    updateTexts();
    connect(this, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { setToolTip(currentText()); });
}

bool FamilyBox::setProblem(FamilyProblemPtr problem, const QString& name) {
    if (!problem) return false;
    const KernelFamily family = problem->family();
    inputs_[family] = Input{std::move(problem), name};
    updateTexts();
    return family == this->family();
}

FamilyProblemPtr FamilyBox::problem() const {
    const auto it = inputs_.find(family());
    return it == inputs_.end() ? nullptr : it->second.problem;
}

KernelFamily FamilyBox::family() const { return KernelFamily(currentData().toInt()); }

void FamilyBox::setFamily(KernelFamily family) {
    const int i = findData(int(family));
    if (i >= 0) setCurrentIndex(i);
}

void FamilyBox::updateTexts() {
    for (int i = 0; i < count(); ++i) {
        const AppFamily& f = app_family(KernelFamily(itemData(i).toInt()));
        const auto it = inputs_.find(f.family);
        QString input;
        if (it == inputs_.end() || !it->second.problem->inputError().isEmpty())
            input = (it == inputs_.end() ? f.no_input : it->second.problem->text()) + without_input_;
        else
            input = it->second.name.isEmpty() ? it->second.problem->text()
                                              : it->second.name + QStringLiteral(", ") + it->second.problem->text();
        setItemText(i, item_.arg(f.title, input));
    }
    setToolTip(currentText());  // the box may be narrower than its text
}

}  // namespace cvz
