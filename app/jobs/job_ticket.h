#pragma once
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

#include "kernels/core/cancel_token.h"

namespace cvz {

class JobRunner;

namespace detail {

// What the runner, the job and the client share about one submitted job.
struct JobState {
    quint64 id = 0;
    QString tag;
    QPointer<QObject> receiver;       // taken on the submitting thread, read on the runner's
    QPointer<JobRunner> runner;       // alive while the job runs (its destructor joins the worker)
    CancelToken cancel;  // asked to stop: explicitly, or by a newer job with the same tag
    std::atomic<bool> superseded{false};
    std::atomic<double> progress{0};
};

}  // namespace detail

// The running job's side of a ticket: whether it was asked to stop (poll it between steps; a job
// that never polls simply runs to its end), progress, and partial results for the receiver.
// Copyable: a continuation may keep one to ask whether its result is still wanted.
class JobControl {
public:
    explicit JobControl(std::shared_ptr<detail::JobState> state) : state_(std::move(state)) {}

    quint64 id() const { return state_->id; }
    bool cancelRequested() const { return state_->cancel.requested(); }
    // For loops that take the token (TimingOptions::cancel), and jobs that wait on it; valid as long
    // as this control lives.
    const CancelToken& cancelToken() const { return state_->cancel; }
    // A newer job with the same tag was submitted while this one ran: its result is stale.
    bool superseded() const { return state_->superseded.load(); }

    // `fraction` in [0, 1]; arrives as JobRunner::progress(id, fraction), in the order reported.
    void reportProgress(double fraction) const;
    // Runs `f` on the receiver's thread, before the job's continuation; dropped if the receiver is gone.
    void post(std::function<void()> f) const;

private:
    std::shared_ptr<detail::JobState> state_;
};

// The client's handle on a submitted job: its id (the argument of JobRunner's typed signals), a
// cancel request, the last progress reported. An empty ticket (id 0) refers to no job.
class JobTicket {
public:
    JobTicket() = default;

    quint64 id() const { return state_ ? state_->id : 0; }
    bool isValid() const { return state_ != nullptr; }
    // Queued: removed, it never runs. Running: asked to stop (the job polls). Done: nothing.
    void cancel();
    bool cancelRequested() const { return state_ && state_->cancel.requested(); }
    double progress() const { return state_ ? state_->progress.load() : 0.0; }

private:
    friend class JobRunner;
    explicit JobTicket(std::shared_ptr<detail::JobState> state) : state_(std::move(state)) {}
    std::shared_ptr<detail::JobState> state_;
};

}  // namespace cvz
