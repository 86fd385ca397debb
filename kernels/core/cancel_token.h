#pragma once
// A request to stop: set once by whoever cancels (a newer job, the user, a closing window) and read
// by loops between their steps. A job that has nothing to do but wait for it (a test's held sweep,
// a back-off between retries) blocks on wait() and is woken by request(), instead of polling.
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace cvz {

class CancelToken {
public:
    void request() {
        {
            // Set under the mutex, so that a waiter between its check and its sleep cannot miss it.
            std::lock_guard<std::mutex> lock(mutex_);
            requested_.store(true);
        }
        changed_.notify_all();
    }
    bool requested() const { return requested_.load(); }
    void wait() const {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return requested_.load(); });
    }

private:
    std::atomic<bool> requested_{false};
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
};

}  // namespace cvz
