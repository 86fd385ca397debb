#pragma once
#include <QObject>
#include <QPointer>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace cvz {

// One worker thread for kernel runs, sweeps and emulation (ARCHITECTURE.md, invariant 6).
// A job is queued under a tag; queuing a newer job with the same tag drops the older one if it has
// not started, so a slider drag runs only the latest configuration. A job returns a continuation
// that is invoked on `receiver`'s thread; it is dropped if the receiver is gone by then.
class JobRunner : public QObject {
    Q_OBJECT
public:
    using Continuation = std::function<void()>;
    using Job = std::function<Continuation()>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;  // finishes the running job, drops the queued ones

    void submit(const QString& tag, QObject* receiver, Job job);

    int queued() const;
    bool busy() const;

signals:
    void busyChanged(bool busy);

private:
    struct Entry {
        QString tag;
        QPointer<QObject> receiver;  // taken on the submitting thread
        Job job;
    };
    void loop();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Entry> queue_;
    bool stopping_ = false;
    bool running_ = false;
    std::thread worker_;
};

}  // namespace cvz
