#pragma once
#include <QObject>

namespace cvz {

// Keeps a number field's value when a key that is not part of a number is typed into it. The window's
// one-key shortcuts (Space plays, G toggles the grid) do not fire while a field has focus, so the key
// reached the field: with its text selected (as after a click or Tab), Space replaced the number with
// nothing and the field showed empty. Installed on the application, it swallows such keys for every
// integer spin box (QSpinBox); digits, signs, editing and navigation keys pass as before.
class NumberFieldGuard : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace cvz
