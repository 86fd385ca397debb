#pragma once
// Hovering without the real pointer. QTest::mouseMove(QWidget*) with no button held only calls
// QCursor::setPos: it warps the X server's one pointer and waits for the server to send a motion event
// back. Under `xvfb-run ctest -j`, every GUI test process shares that pointer and their windows overlap,
// so another process's warp lands on our window (a hover somewhere else) or ours lands on theirs (no hover
// at all). Even without warps, a window of another process mapping over ours under the pointer sends us a
// real Leave. So the move is delivered to the widget directly and synchronously, without turning the event
// loop: what the widget does with it (its signals, directly connected slots) is done on return, and no
// event from the X server can come in between the hover and the test's check of its outcome.
#include <QApplication>
#include <QMouseEvent>
#include <QPoint>
#include <QPointingDevice>
#include <QWidget>

namespace cvz::test {

// A mouse move with no button held at `pos`, in `widget`'s coordinates (as a real hover over it).
inline void hover(QWidget* widget, QPoint pos) {
    QMouseEvent move(QEvent::MouseMove, QPointF(pos), QPointF(widget->mapToGlobal(pos)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier, QPointingDevice::primaryPointingDevice());
    QApplication::sendEvent(widget, &move);
}

}  // namespace cvz::test
