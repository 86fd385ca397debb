#include "ui/windows/number_field_guard.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QSpinBox>

namespace cvz {

namespace {

// The spin box `watched` is, or whose line edit it is.
const QSpinBox* spin_box_of(QObject* watched) {
    if (const auto* box = qobject_cast<const QSpinBox*>(watched)) return box;
    if (qobject_cast<const QLineEdit*>(watched)) return qobject_cast<const QSpinBox*>(watched->parent());
    return nullptr;
}

// A key that types a character no integer has: a space, a letter, punctuation other than a sign.
bool types_non_number(const QKeyEvent* key) {
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return false;
    const QString text = key->text();
    if (text.size() != 1 || !text.at(0).isPrint()) return false;
    const QChar c = text.at(0);
    return !c.isDigit() && c != QLatin1Char('-') && c != QLatin1Char('+');
}

}  // namespace

bool NumberFieldGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress && spin_box_of(watched) && types_non_number(static_cast<QKeyEvent*>(event)))
        return true;
    return QObject::eventFilter(watched, event);
}

}  // namespace cvz
