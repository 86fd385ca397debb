#pragma once
#include <QLabel>

namespace cvz {

// A one-line label that shows "…" where its text does not fit (the status bar on a small screen),
// with the whole text in its tooltip. QLabel itself would cut the text off without a sign.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    // The text as drawn now: the label's text, elided to its width.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace cvz
