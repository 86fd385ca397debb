// The worker that keeps the GUI responsive: newer jobs with the same tag supersede queued ones,
// results come back on the receiver's thread, and a gone receiver drops its result.
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "app/job_runner.h"
#include "support/event_waits.h"

using namespace cvz;

namespace {

// Holds the worker inside a job until released, so that the test can queue behind it.
struct Gate {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    bool entered = false;
    void wait() {
        std::unique_lock l(m);
        entered = true;
        cv.notify_all();
        cv.wait(l, [&] { return open; });
    }
    void wait_entered() {
        std::unique_lock l(m);
        cv.wait(l, [&] { return entered; });
    }
    void release() {
        std::lock_guard l(m);
        open = true;
        cv.notify_all();
    }
};

}  // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    void newer_job_supersedes_queued_one();
    void different_tags_all_run();
    void result_arrives_on_receiver_thread();
    void destroyed_receiver_drops_result();
};

void TestJobRunner::newer_job_supersedes_queued_one() {
    JobRunner runner;
    Gate gate;
    QList<int> ran, delivered;
    std::mutex m;
    runner.submit("run", this, [&]() -> JobRunner::Continuation {
        gate.wait();
        return [&] { delivered << 0; };
    });
    gate.wait_entered();
    for (int i = 1; i <= 5; ++i)
        runner.submit("run", this, [&, i]() -> JobRunner::Continuation {
            std::lock_guard l(m);
            ran << i;
            return [&, i] { delivered << i; };
        });
    QCOMPARE(runner.queued(), 1);
    gate.release();
    QTRY_COMPARE(delivered, (QList<int>{0, 5}));
    QCOMPARE(ran, QList<int>{5});
    QTRY_VERIFY(!runner.busy());
}

void TestJobRunner::different_tags_all_run() {
    JobRunner runner;
    Gate gate;
    QList<QString> delivered;
    runner.submit("block", this, [&]() -> JobRunner::Continuation {
        gate.wait();
        return {};
    });
    gate.wait_entered();
    runner.submit("a", this, [&]() -> JobRunner::Continuation { return [&] { delivered << "a"; }; });
    runner.submit("b", this, [&]() -> JobRunner::Continuation { return [&] { delivered << "b"; }; });
    QCOMPARE(runner.queued(), 2);
    gate.release();
    QTRY_COMPARE(delivered, (QStringList{"a", "b"}));
}

void TestJobRunner::result_arrives_on_receiver_thread() {
    JobRunner runner;
    std::atomic<QThread*> job_thread{nullptr};
    QThread* delivered_on = nullptr;
    runner.submit("t", this, [&]() -> JobRunner::Continuation {
        job_thread = QThread::currentThread();
        return [&] { delivered_on = QThread::currentThread(); };
    });
    QTRY_VERIFY(delivered_on != nullptr);
    QCOMPARE(delivered_on, QThread::currentThread());
    QVERIFY(job_thread.load() != QThread::currentThread());
}

void TestJobRunner::destroyed_receiver_drops_result() {
    JobRunner runner;
    Gate gate;
    bool delivered = false;
    auto* receiver = new QObject;
    runner.submit("t", receiver, [&]() -> JobRunner::Continuation {
        gate.wait();
        return [&] { delivered = true; };
    });
    gate.wait_entered();
    delete receiver;
    gate.release();
    QVERIFY(test::drain(runner));  // the dropped continuation would have arrived before the sentinel's
    QVERIFY(!delivered);
}

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
