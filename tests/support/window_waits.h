#pragma once
// Waits for a window to be exposed or active with a limit meant only to catch a hang. QTest's own
// qWaitForWindowExposed / qWaitForWindowActive give up after 5 s, which a loaded 2-core CI machine
// under Xvfb can exceed: a test would then fail on the clock, not on what it checks.
// Activation is also made deterministic: Xvfb runs no window manager, so focus follows only the
// X server's input focus, and a focus request made while the window is being mapped can be lost
// for good (tst_export failed 2 runs in 7 that way, waiting 120 s). QApplication::setActiveWindow
// makes Qt treat the window as active whatever the server did (window-context shortcuts and focus
// chains read Qt's active window).
#include <QApplication>
#include <QTest>
#include <QWidget>
#include <QWindow>

namespace cvz::test {

constexpr int kWindowWaitMs = 120000;  // only for a hang

inline bool wait_exposed(QWidget* w) { return QTest::qWaitForWindowExposed(w, kWindowWaitMs); }
inline bool wait_exposed(QWindow* w) { return QTest::qWaitForWindowExposed(w, kWindowWaitMs); }

inline bool wait_active(QWidget* w) {
    QWidget* top = w->window();
    if (!wait_exposed(top)) return false;
    // Ask the X server for focus a few times (a request made while the window was still being mapped
    // can be lost, and nothing repeats it), then settle for Qt's own notion of the active window,
    // which is what window shortcuts, focus chains and isActiveWindow() read.
    for (int attempt = 0; attempt < 20; ++attempt) {
        top->activateWindow();
        if (QTest::qWaitFor([&] { return top->windowHandle() && top->windowHandle()->isActive(); }, 250)) break;
    }
    QT_WARNING_PUSH
    QT_WARNING_DISABLE_DEPRECATED
    QApplication::setActiveWindow(top);
    QT_WARNING_POP
    return QTest::qWaitFor([&] { return top->isActiveWindow(); }, kWindowWaitMs);
}

}  // namespace cvz::test
