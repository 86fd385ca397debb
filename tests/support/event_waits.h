#pragma once
// Waits that end when something is proved to have happened, never after a fixed time: the suite runs
// on loaded 2-core machines, where any sleep is either too short or wasted.
#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QString>
#include <QTest>

#include <memory>

#include "app/jobs/job_runner.h"

namespace cvz::test {

// Delivers every event posted so far, deferred deletes included. After an object (and with it its
// worker) is destroyed, this proves that whatever the worker had posted found nothing to touch.
inline void deliver_posted_events() {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
}

// Waits until `jobs` has run everything queued and every continuation it posted has been delivered.
// A sentinel job is queued behind the others under a tag of its own; the worker runs jobs one at a
// time and posted events are delivered in order, so when the sentinel's continuation runs, those of
// every earlier job have run before it. Continuations may queue new jobs (a load queues a run), so
// this repeats until the runner is idle after a sentinel. False if that does not happen in time.
inline bool drain(JobRunner& jobs, int timeout_ms = 60000) {
    QObject receiver;
    for (int round = 0; round < 1000; ++round) {
        auto arrived = std::make_shared<bool>(false);
        jobs.submit(QStringLiteral("test-drain-sentinel-%1").arg(round), &receiver,
                    [arrived]() -> JobRunner::Continuation { return [arrived] { *arrived = true; }; });
        if (!QTest::qWaitFor([&] { return *arrived; }, timeout_ms)) return false;
        if (!jobs.busy()) {
            deliver_posted_events();  // the runner's own busyChanged(false), posted after the sentinel
            return true;
        }
    }
    return false;
}

}  // namespace cvz::test
