#pragma once
// Hovering without the real pointer. QTest::mouseMove(QWidget*) with no button held only calls
// QCursor::setPos: it warps the X server's one pointer and waits for the server to send a motion event
// back. Under `xvfb-run ctest -j`, every GUI test process shares that pointer and their windows overlap,
// so another process's warp lands on our window (a hover somewhere else) or ours lands on theirs (no hover
// at all). Here the move goes to the widget's own window through Qt's window-system queue, as a real
// motion would, so it reaches the widget under `pos` whatever the pointer does.
#include <QPoint>
#include <QTest>
#include <QWidget>
#include <QWindow>

namespace cvz::test {

// `pos` in `widget`'s coordinates. The widget's window must be shown (it has a window handle).
inline void hover(QWidget* widget, QPoint pos) {
    QWidget* top = widget->window();
    QWindow* window = top->windowHandle();
    QTEST_ASSERT(window);
    QTest::mouseMove(window, widget->mapTo(top, pos));
}

}  // namespace cvz::test
