#include "job_runner.h"

#include <QMetaObject>

#include <algorithm>

namespace cvz {

JobRunner::JobRunner(QObject* parent) : QObject(parent), worker_([this] { loop(); }) {}

JobRunner::~JobRunner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    worker_.join();
}

void JobRunner::submit(const QString& tag, QObject* receiver, Job job) {
    {
        std::lock_guard lock(mutex_);
        queue_.erase(std::remove_if(queue_.begin(), queue_.end(), [&](const Entry& e) { return e.tag == tag; }),
                     queue_.end());
        queue_.push_back({tag, receiver, std::move(job)});
    }
    wake_.notify_one();
}

int JobRunner::queued() const {
    std::lock_guard lock(mutex_);
    return int(queue_.size());
}

bool JobRunner::busy() const {
    std::lock_guard lock(mutex_);
    return running_ || !queue_.empty();
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
            running_ = true;
        }
        QMetaObject::invokeMethod(this, [this] { emit busyChanged(true); }, Qt::QueuedConnection);
        Continuation done = entry.job();
        bool idle;
        {
            std::lock_guard lock(mutex_);
            running_ = false;
            idle = queue_.empty();
        }
        // invokeMethod with a context object drops the call if that object is destroyed first.
        if (done && entry.receiver) QMetaObject::invokeMethod(entry.receiver.data(), std::move(done), Qt::QueuedConnection);
        if (idle) QMetaObject::invokeMethod(this, [this] { emit busyChanged(false); }, Qt::QueuedConnection);
    }
}

}  // namespace cvz
