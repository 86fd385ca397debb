#include "app/jobs/job_runner.h"

#include <QCoreApplication>
#include <QEvent>
#include <QMetaObject>
#include <QThread>

#include <algorithm>

#include "app/jobs/thread_handoff.h"

namespace cvz {

JobRunner::JobRunner(QObject* parent) : QObject(parent), worker_([this] { loop(); }) {}

JobRunner::~JobRunner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
        if (running_) running_->cancel.request();
    }
    wake_.notify_all();
    worker_.join();
}

JobTicket JobRunner::submit(const QString& tag, QObject* receiver, Job job) {
    return submit(tag, receiver, ControlledJob([job = std::move(job)](JobControl&) { return job(); }));
}

JobTicket JobRunner::submit(const QString& tag, QObject* receiver, ControlledJob job) {
    auto state = std::make_shared<detail::JobState>();
    state->tag = tag;
    state->receiver = receiver;
    state->runner = this;
    std::vector<quint64> dropped;
    {
        std::lock_guard lock(mutex_);
        state->id = ++next_id_;
        for (auto it = queue_.begin(); it != queue_.end();) {
            if (it->state->tag == tag) {
                it->state->cancel.request();
                it->state->superseded = true;
                dropped.push_back(it->state->id);
                it = queue_.erase(it);
            } else {
                ++it;
            }
        }
        if (running_ && running_->tag == tag) {
            running_->superseded = true;
            running_->cancel.request();
        }
        queue_.push_back({state, std::move(job)});
    }
    wake_.notify_one();
    for (quint64 id : dropped) postCancelled(id);
    return JobTicket(state);
}

void JobRunner::cancel(quint64 id) {
    bool dropped = false;
    {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(queue_.begin(), queue_.end(), [id](const Entry& e) { return e.state->id == id; });
        if (it != queue_.end()) {
            it->state->cancel.request();
            queue_.erase(it);
            dropped = true;
        } else if (running_ && running_->id == id) {
            running_->cancel.request();
        }
    }
    if (dropped) {
        postCancelled(id);
        if (!busy()) post([this] { emit busyChanged(false); });
    }
}

int JobRunner::queued() const {
    std::lock_guard lock(mutex_);
    return int(queue_.size());
}

bool JobRunner::busy() const {
    std::lock_guard lock(mutex_);
    return running_ || !queue_.empty();
}

quint64 JobRunner::runningJob() const {
    std::lock_guard lock(mutex_);
    return running_ ? running_->id : 0;
}

namespace {

// A function for the runner's thread, posted as an event: Qt deletes a posted event on the thread that
// handles it, so the worker never touches the function (or what it captured) once posted. A queued
// functor would be a slot object whose reference count lives inside Qt, where ThreadSanitizer cannot
// see it, and the worker could free it after the GUI thread had run it.
class PostedCall : public QEvent {
public:
    explicit PostedCall(std::function<void()> f) : QEvent(type()), call(std::move(f)) {}
    static QEvent::Type type() {
        static const QEvent::Type registered = QEvent::Type(QEvent::registerEventType());
        return registered;
    }
    std::function<void()> call;
};

}  // namespace

void JobRunner::post(std::function<void()> f) {
    auto* event = new PostedCall(std::move(f));
    handoff_release(this);  // after the event is made: everything in it is handed over
    QCoreApplication::postEvent(this, event);
}

bool JobRunner::event(QEvent* e) {
    if (e->type() != PostedCall::type()) return QObject::event(e);
    handoff_acquire(this);
    static_cast<PostedCall*>(e)->call();
    return true;
}

void JobRunner::postCancelled(quint64 id) {
    post([this, id] { emit cancelled(id); });
}

void JobRunner::deliver(const std::shared_ptr<detail::JobState>& state, std::function<void()> f) {
    // Posted to the runner, not to the receiver: the receiver may be destroyed on its own thread at
    // any moment, the runner not while its worker runs. The guard is read where it is safe to read.
    post([this, state, f = std::move(f)]() mutable {
        QObject* receiver = state->receiver.data();
        if (!receiver) return;
        if (receiver->thread() == thread()) f();
        else QMetaObject::invokeMethod(receiver, std::move(f), Qt::QueuedConnection);
    });
}

void JobRunner::postProgress(const std::shared_ptr<detail::JobState>& state, double fraction) {
    state->progress = fraction;
    const quint64 id = state->id;
    post([this, id, fraction] { emit progress(id, fraction); });
}

void JobRunner::loop() {
    for (;;) {
        Entry entry;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            entry = std::move(queue_.front());
            queue_.pop_front();
            running_ = entry.state;
        }
        const quint64 id = entry.state->id;
        post([this, id] {
            emit busyChanged(true);
            emit started(id);
        });
        Continuation done;
        {
            JobControl control(entry.state);  // gone before the state is handed back below
            done = entry.job(control);
        }
        entry.job = nullptr;  // what the job captured goes now, on the worker, not with the entry
        bool idle;
        {
            std::lock_guard lock(mutex_);
            running_.reset();
            idle = queue_.empty();
        }
        const bool was_cancelled = entry.state->cancel.requested();
        if (done) deliver(entry.state, std::move(done));
        // The worker's last reference to the state goes with this event, so the state (and the
        // QPointers in it) dies on the GUI thread, where its receiver is destroyed, not raced with it.
        post([this, id, was_cancelled, idle, state = std::move(entry.state)] {
            if (was_cancelled) emit cancelled(id);
            else emit finished(id);
            if (idle) emit busyChanged(false);
        });
    }
}

void JobControl::reportProgress(double fraction) const {
    if (JobRunner* runner = state_->runner.data()) runner->postProgress(state_, fraction);
}

void JobControl::post(std::function<void()> f) const {
    if (JobRunner* runner = state_->runner.data()) runner->deliver(state_, std::move(f));
}

void JobTicket::cancel() {
    if (!state_) return;
    state_->cancel.request();
    if (JobRunner* runner = state_->runner.data()) runner->cancel(state_->id);
}

}  // namespace cvz
