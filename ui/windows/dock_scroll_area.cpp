#include "ui/windows/dock_scroll_area.h"

#include <QEvent>
#include <QScreen>
#include <QScrollBar>

namespace cvz {

DockScrollArea::DockScrollArea(QWidget* content, QWidget* parent) : QScrollArea(parent) {
    setObjectName(content->objectName() + QStringLiteral("Scroll"));
    setWidget(content);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    content->installEventFilter(this);
}

void DockScrollArea::setKeepWhole(bool whole) {
    keep_whole_ = whole;
    updateGeometry();
}

// The content's minimum changes with what it shows (a mode, a longer table): the dock follows.
bool DockScrollArea::eventFilter(QObject* watched, QEvent* event) {
    if (watched == widget() && event->type() == QEvent::LayoutRequest) updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

// The content's width (and room for the vertical bar); a few lines of height: the rest scrolls.
QSize DockScrollArea::minimumSizeHint() const {
    const int bar = verticalScrollBar()->sizeHint().width();
    const QSize content = widget() ? widget()->minimumSizeHint() : QSize();
    int height = std::min(content.height(), 4 * fontMetrics().height());
    // A third: with the Source dock open as well, the code still gets a third of a 700 px screen.
    if (keep_whole_ && screen()) height = std::min(content.height(), screen()->availableGeometry().height() / 3);
    return {content.width() + bar, height};
}

QSize DockScrollArea::sizeHint() const {
    const int bar = verticalScrollBar()->sizeHint().width();
    const QSize content = widget() ? widget()->sizeHint() : QSize();
    return {content.width() + bar, content.height()};
}

}  // namespace cvz
