#pragma once
// The screenshot tools' wait: events processed until `done` holds (a state reached, a run answered),
// then a few more rounds so that what it changed is painted. False after two minutes without it.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <functional>

namespace cvz::tools {

inline bool wait_for(const std::function<bool()>& done) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > 120000) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    for (int i = 0; i < 20; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return true;
}

}  // namespace cvz::tools
