#include "ui/windows/dock_scroll_area.h"

#include <QScrollBar>

namespace cvz {

DockScrollArea::DockScrollArea(QWidget* content, QWidget* parent) : QScrollArea(parent) {
    setObjectName(content->objectName() + QStringLiteral("Scroll"));
    setWidget(content);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

// The content's width (and room for the vertical bar); a few lines of height: the rest scrolls.
QSize DockScrollArea::minimumSizeHint() const {
    const int bar = verticalScrollBar()->sizeHint().width();
    const QSize content = widget() ? widget()->minimumSizeHint() : QSize();
    return {content.width() + bar, std::min(content.height(), 4 * fontMetrics().height())};
}

QSize DockScrollArea::sizeHint() const {
    const int bar = verticalScrollBar()->sizeHint().width();
    const QSize content = widget() ? widget()->sizeHint() : QSize();
    return {content.width() + bar, content.height()};
}

}  // namespace cvz
