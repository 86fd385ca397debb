#pragma once
#include <QObject>
#include <QPointer>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "app/jobs/job_ticket.h"

namespace cvz {

// One worker thread for kernel runs, sweeps and emulation (ARCHITECTURE.md, invariant 6).
// A job is queued under a tag and `submit` returns its ticket. A newer job with the same tag drops
// the older one if it has not started, and asks it to stop if it is running (a job that polls its
// JobControl stops early; one that does not runs to its end), so a slider drag runs only the latest
// configuration. A job returns a continuation that is invoked on `receiver`'s thread; it is dropped
// if the receiver is gone by then. What happened to each job arrives as typed signals, by id:
// started, progress (in the order reported), then after the continuation either finished or
// cancelled. A superseded running job's continuation is still delivered (it may hold a partial
// result); it can ask JobControl::superseded() whether it is stale.
class JobRunner : public QObject {
    Q_OBJECT
public:
    using Continuation = std::function<void()>;
    using Job = std::function<Continuation()>;
    using ControlledJob = std::function<Continuation(JobControl&)>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;  // asks the running job to stop and waits for it; drops the queued ones

    JobTicket submit(const QString& tag, QObject* receiver, Job job);
    JobTicket submit(const QString& tag, QObject* receiver, ControlledJob job);
    // As JobTicket::cancel: a queued job is removed, a running one asked to stop.
    void cancel(quint64 id);

    int queued() const;
    bool busy() const;
    quint64 runningJob() const;  // the id of the job on the worker, 0 when none

signals:
    void busyChanged(bool busy);
    void started(quint64 id);
    void progress(quint64 id, double fraction);
    void finished(quint64 id);   // ran to its end without a cancel request; after its continuation
    void cancelled(quint64 id);  // dropped while queued, or asked to stop while it ran; after its continuation

protected:
    bool event(QEvent* e) override;  // runs what post() sent

private:
    friend class JobControl;
    struct Entry {
        std::shared_ptr<detail::JobState> state;
        ControlledJob job;
    };
    void loop();
    // Queues `f` for the runner's thread (from the worker, or from any thread).
    void post(std::function<void()> f);
    // Worker thread: queue `f` for the runner's thread, where it runs unless `state`'s receiver is gone.
    void deliver(const std::shared_ptr<detail::JobState>& state, std::function<void()> f);
    void postProgress(const std::shared_ptr<detail::JobState>& state, double fraction);
    void postCancelled(quint64 id);

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Entry> queue_;
    std::shared_ptr<detail::JobState> running_;
    quint64 next_id_ = 0;
    bool stopping_ = false;
    std::thread worker_;
};

}  // namespace cvz
