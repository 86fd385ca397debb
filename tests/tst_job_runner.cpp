// The worker that keeps the GUI responsive: newer jobs with the same tag supersede queued ones and
// ask running ones to stop, tickets cancel and report progress, results come back on the receiver's
// thread as continuations and typed signals, and a gone receiver drops its result.
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "app/jobs/job_runner.h"

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

// A job that can stop: it says it has started, then polls its cancel token until asked to stop.
struct PollingJob {
    std::atomic<bool> entered{false};
    std::atomic<bool> saw_cancel{false};
    std::atomic<bool> saw_superseded{false};
    JobRunner::Continuation run(JobControl& control) {
        entered = true;
        while (!control.cancelRequested()) std::this_thread::yield();
        saw_cancel = true;
        saw_superseded = control.superseded();
        return {};
    }
};

QList<quint64> ids(const QSignalSpy& spy) {
    QList<quint64> out;
    for (const QList<QVariant>& args : spy) out << args.at(0).value<quint64>();
    return out;
}

}  // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    void newer_job_supersedes_queued_one();
    void different_tags_all_run();
    void result_arrives_on_receiver_thread();
    void destroyed_receiver_drops_result();
    void tickets_have_distinct_ids_and_typed_signals();
    void cancel_reaches_running_job();
    void newer_job_cancels_running_one_with_same_tag();
    void cancelled_queued_job_never_runs();
    void progress_arrives_in_order_before_finished();
    void posts_arrive_before_continuation_and_drop_with_receiver();
    void destructor_stops_running_job();
};

void TestJobRunner::newer_job_supersedes_queued_one() {
    JobRunner runner;
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    QSignalSpy finished(&runner, &JobRunner::finished);
    Gate gate;
    QList<int> ran, delivered;
    std::mutex m;
    const JobTicket first = runner.submit("run", this, [&]() -> JobRunner::Continuation {
        gate.wait();
        return [&] { delivered << 0; };
    });
    gate.wait_entered();
    QList<quint64> later;
    for (int i = 1; i <= 5; ++i)
        later << runner
                     .submit("run", this,
                             [&, i]() -> JobRunner::Continuation {
                                 std::lock_guard l(m);
                                 ran << i;
                                 return [&, i] { delivered << i; };
                             })
                     .id();
    QCOMPARE(runner.queued(), 1);
    gate.release();
    QVERIFY(test::drain(runner));
    QCOMPARE(delivered, (QList<int>{0, 5}));
    QCOMPARE(ran, QList<int>{5});
    // Jobs 1-4 were dropped unrun; the running one (it does not poll) was asked to stop by job 1.
    QCOMPARE(ids(cancelled), (QList<quint64>{later[0], later[1], later[2], later[3], first.id()}));
    QCOMPARE(ids(finished).count(later[4]), 1);
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
    QTRY_COMPARE_WITH_TIMEOUT(delivered, (QStringList{"a", "b"}), 120000);
}

void TestJobRunner::result_arrives_on_receiver_thread() {
    JobRunner runner;
    std::atomic<QThread*> job_thread{nullptr};
    QThread* delivered_on = nullptr;
    runner.submit("t", this, [&]() -> JobRunner::Continuation {
        job_thread = QThread::currentThread();
        return [&] { delivered_on = QThread::currentThread(); };
    });
    QTRY_VERIFY_WITH_TIMEOUT(delivered_on != nullptr, 120000);
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

// Each submit has its own id; started comes before finished, both with that id, and the
// continuation runs between them.
void TestJobRunner::tickets_have_distinct_ids_and_typed_signals() {
    JobRunner runner;
    QStringList log;
    connect(&runner, &JobRunner::started, this, [&](quint64 id) { log << QStringLiteral("started %1").arg(id); });
    connect(&runner, &JobRunner::finished, this, [&](quint64 id) { log << QStringLiteral("finished %1").arg(id); });
    connect(&runner, &JobRunner::cancelled, this, [&](quint64 id) { log << QStringLiteral("cancelled %1").arg(id); });
    const JobTicket a = runner.submit("a", this, [&]() -> JobRunner::Continuation { return [&] { log << "a done"; }; });
    const JobTicket b = runner.submit("b", this, [&]() -> JobRunner::Continuation { return [&] { log << "b done"; }; });
    QVERIFY(a.isValid() && b.isValid());
    QVERIFY(a.id() != 0 && b.id() != 0 && a.id() != b.id());
    QVERIFY(!JobTicket().isValid());
    QCOMPARE(JobTicket().id(), quint64(0));
    QVERIFY(test::drain(runner));
    const QStringList want = {QStringLiteral("started %1").arg(a.id()), "a done", QStringLiteral("finished %1").arg(a.id()),
                              QStringLiteral("started %1").arg(b.id()), "b done", QStringLiteral("finished %1").arg(b.id())};
    QCOMPARE(log.mid(0, 6), want);
}

// A running job that polls its token sees an explicit cancel and stops; it ends as cancelled, not
// finished, and its continuation (a partial result) still arrives.
void TestJobRunner::cancel_reaches_running_job() {
    JobRunner runner;
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    QSignalSpy finished(&runner, &JobRunner::finished);
    PollingJob job;
    bool partial_delivered = false, partial_before_signal = false;
    connect(&runner, &JobRunner::cancelled, this, [&] { partial_before_signal = partial_delivered; });
    JobTicket ticket = runner.submit("long", this, [&](JobControl& c) -> JobRunner::Continuation {
        job.run(c);
        return [&] { partial_delivered = true; };
    });
    QTRY_VERIFY_WITH_TIMEOUT(job.entered.load(), 120000);
    QCOMPARE(runner.runningJob(), ticket.id());
    QVERIFY(!ticket.cancelRequested());
    ticket.cancel();
    QVERIFY(ticket.cancelRequested());
    QVERIFY(test::drain(runner));
    QCOMPARE(ids(cancelled), QList<quint64>{ticket.id()});
    QVERIFY(job.saw_cancel.load());
    QVERIFY(!job.saw_superseded.load());  // asked to stop, not replaced
    QVERIFY(partial_before_signal);       // the continuation runs before the signal
    QVERIFY(!ids(finished).contains(ticket.id()));
    QCOMPARE(runner.runningJob(), quint64(0));
}

// A newer job with the tag of a running one that can stop asks it to stop, and then runs.
void TestJobRunner::newer_job_cancels_running_one_with_same_tag() {
    JobRunner runner;
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    QSignalSpy finished(&runner, &JobRunner::finished);
    PollingJob old_job;
    const JobTicket old_ticket =
        runner.submit("sweep", this, [&](JobControl& c) -> JobRunner::Continuation { return old_job.run(c); });
    QTRY_VERIFY_WITH_TIMEOUT(old_job.entered.load(), 120000);
    bool newer_ran = false;
    const JobTicket newer = runner.submit("sweep", this, [&]() -> JobRunner::Continuation {
        newer_ran = true;
        return {};
    });
    QVERIFY(old_ticket.cancelRequested());
    QVERIFY(test::drain(runner));
    QVERIFY(old_job.saw_cancel.load());
    QVERIFY(old_job.saw_superseded.load());
    QVERIFY(newer_ran);
    QCOMPARE(ids(cancelled), QList<quint64>{old_ticket.id()});
    QVERIFY(ids(finished).contains(newer.id()));
    QVERIFY(!ids(finished).contains(old_ticket.id()));
}

void TestJobRunner::cancelled_queued_job_never_runs() {
    JobRunner runner;
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    QSignalSpy started(&runner, &JobRunner::started);
    Gate gate;
    runner.submit("hold", this, [&]() -> JobRunner::Continuation {
        gate.wait();
        return {};
    });
    gate.wait_entered();
    std::atomic<bool> ran{false};
    JobTicket queued = runner.submit("other", this, [&]() -> JobRunner::Continuation {
        ran = true;
        return {};
    });
    QCOMPARE(runner.queued(), 1);
    queued.cancel();
    QCOMPARE(runner.queued(), 0);  // removed at once, not when the worker comes to it
    gate.release();
    QVERIFY(test::drain(runner));
    QVERIFY(!ran.load());
    QCOMPARE(ids(cancelled), QList<quint64>{queued.id()});
    QVERIFY(!ids(started).contains(queued.id()));
}

// Progress reported by the job arrives in the order reported, all before finished; the ticket
// keeps the last fraction.
void TestJobRunner::progress_arrives_in_order_before_finished() {
    JobRunner runner;
    QList<double> seen;
    bool finished_seen = false;
    bool progress_after_finished = false;
    connect(&runner, &JobRunner::progress, this, [&](quint64, double f) {
        seen << f;
        if (finished_seen) progress_after_finished = true;
    });
    connect(&runner, &JobRunner::finished, this, [&](quint64) { finished_seen = true; });
    QSignalSpy ticket_progress(&runner, &JobRunner::progress);
    const JobTicket ticket = runner.submit("p", this, [](JobControl& c) -> JobRunner::Continuation {
        for (int i = 1; i <= 40; ++i) c.reportProgress(i / 40.0);
        return {};
    });
    QVERIFY(test::drain(runner));
    QVERIFY(finished_seen);
    QVERIFY(!progress_after_finished);
    QCOMPARE(seen.size(), 40);
    for (int i = 0; i < 40; ++i) QCOMPARE(seen[i], (i + 1) / 40.0);
    QCOMPARE(ticket.progress(), 1.0);
    QCOMPARE(ids(ticket_progress), QList<quint64>(40, ticket.id()));
}

// Partial results posted by a job reach the receiver in order and before the continuation; with the
// receiver gone they are dropped, as the continuation is.
void TestJobRunner::posts_arrive_before_continuation_and_drop_with_receiver() {
    JobRunner runner;
    QStringList log;
    runner.submit("rows", this, [&](JobControl& c) -> JobRunner::Continuation {
        for (int i = 0; i < 5; ++i) c.post([&log, i] { log << QString::number(i); });
        return [&] { log << "done"; };
    });
    QVERIFY(test::drain(runner));
    QCOMPARE(log, (QStringList{"0", "1", "2", "3", "4", "done"}));

    auto* receiver = new QObject;
    Gate gate;
    std::atomic<int> posted{0};
    bool delivered = false;
    runner.submit("rows", receiver, [&](JobControl& c) -> JobRunner::Continuation {
        gate.wait();
        c.post([&] { delivered = true; });
        ++posted;
        return [&] { delivered = true; };
    });
    gate.wait_entered();
    delete receiver;
    gate.release();
    QVERIFY(test::drain(runner));
    QCOMPARE(posted.load(), 1);
    QVERIFY(!delivered);
}

// Destroying the runner asks the running job to stop and waits for it; nothing arrives afterwards.
void TestJobRunner::destructor_stops_running_job() {
    PollingJob job;
    bool delivered = false;
    {
        JobRunner runner;
        runner.submit("long", this, [&](JobControl& c) -> JobRunner::Continuation {
            job.run(c);
            return [&] { delivered = true; };
        });
        QTRY_VERIFY_WITH_TIMEOUT(job.entered.load(), 120000);
    }
    QVERIFY(job.saw_cancel.load());
    test::deliver_posted_events();
    QVERIFY(!delivered);
}

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
