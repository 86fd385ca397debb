#pragma once
#include <QObject>

#include <memory>

#include "app/jobs/job_ticket.h"
#include "app/tuning/ladder.h"

namespace cvz {

class JobRunner;

// Runs ladders off the GUI thread on a JobRunner (tag "ladder": a newer ladder supersedes a queued one
// and stops a running one), with progress, per-row updates and cancel. The timers are injectable:
// tests give fakes for deterministic times, or none for the modeled ladder.
class LadderRunner : public QObject {
    Q_OBJECT
public:
    explicit LadderRunner(JobRunner* jobs = nullptr, QObject* parent = nullptr);
    ~LadderRunner() override;  // stops a running ladder; none of its signals come after

    void setTimers(LadderTimers timers);
    bool hasTimer() const { return bool(timers_.rows); }

    void start(SweepRequest request);  // emits started() at once, the rest later
    void cancel();
    bool isRunning() const { return running_; }

signals:
    void started(const cvz::LadderResult& modeled);  // the rows before tracing and timing
    void rowUpdated(int index, const cvz::LadderRow& row);
    void progress(int done, int total);
    void finished(const cvz::LadderResult& result);

private:
    JobRunner* jobs_ = nullptr;
    std::unique_ptr<JobRunner> own_jobs_;
    LadderTimers timers_;
    JobTicket ticket_;
    bool running_ = false;
};

}  // namespace cvz
