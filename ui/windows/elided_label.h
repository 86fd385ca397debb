#pragma once
#include <QLabel>
#include <QStringList>

namespace cvz {

// A one-line label that fits its text to its width without cutting it off unannounced (the status bar
// on a small screen, a caption over a narrow view). It shows the first of these that fits: the text;
// the shorter forms given with setShortTexts (what matters most first); the text, then each shorter
// form, without its parenthesised remarks ("kernel 1.5 ms (one run, not warmed up)" -> "kernel
// 1.5 ms"). When none fits, the shortest is cut with "…". The whole text belongs in its tooltip.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    // Shorter forms of the text, longest first; set after each setText (an empty list: none).
    void setShortTexts(const QStringList& texts);
    QStringList shortTexts() const { return short_texts_; }
    // The text as drawn now.
    QString shownText() const;
    // `text` without its parenthesised remarks (groups with a word in them) and the space before each.
    static QString withoutRemarks(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QStringList short_texts_;
};

}  // namespace cvz
