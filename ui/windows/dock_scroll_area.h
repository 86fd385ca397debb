#pragma once
#include <QScrollArea>

namespace cvz {

// A side dock's content in a scroll area that scrolls down, never sideways: when the window is short
// the dock scrolls instead of making the window taller than the screen, and it stays as wide as its
// content's minimum (whatever the content shows now), so no line is cut at the right.
class DockScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit DockScrollArea(QWidget* content, QWidget* parent = nullptr);
    // Whole: the content's full minimum height, up to a third of the screen, before it scrolls.
    void setKeepWhole(bool whole);
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool keep_whole_ = false;
};

}  // namespace cvz
