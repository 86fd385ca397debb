#include "ui/windows/elided_label.h"

#include <QPainter>
#include <QRegularExpression>
#include <QStyle>

namespace cvz {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {}

void ElidedLabel::setShortTexts(const QStringList& texts) {
    if (texts == short_texts_) return;
    short_texts_ = texts;
    update();
}

// A remark is a parenthesised group with a word in it ("(2 threads)"); a coordinate such as "(0, 0)"
// or a size such as "(5×5)" is part of what the text says and stays.
QString ElidedLabel::withoutRemarks(const QString& text) {
    static const QRegularExpression remark(QStringLiteral("\\s*\\((?=[^()]*[A-Za-z])[^()]*\\)"));
    return QString(text).remove(remark).trimmed();
}

QString ElidedLabel::shownText() const {
    const int width = contentsRect().width();
    QStringList candidates{text()};
    candidates << short_texts_;
    for (const QString& t : QStringList(candidates)) candidates << withoutRemarks(t);
    for (const QString& t : candidates)
        if (fontMetrics().horizontalAdvance(t) <= width) return t;
    // None fits: the shortest, cut.
    QString shortest = candidates.front();
    for (const QString& t : candidates)
        if (fontMetrics().horizontalAdvance(t) < fontMetrics().horizontalAdvance(shortest)) shortest = t;
    return fontMetrics().elidedText(shortest, Qt::ElideRight, width);
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    style()->drawItemText(&p, contentsRect(), int(alignment()), palette(), isEnabled(), shownText(), foregroundRole());
}

}  // namespace cvz
