#include "ladder_runner.h"

#include "job_runner.h"

namespace cvz {

namespace {
const QString kLadderTag = QStringLiteral("ladder");
}

LadderRunner::LadderRunner(JobRunner* jobs, QObject* parent)
    : QObject(parent), jobs_(jobs), timers_(default_ladder_timers()) {
    if (!jobs_) {
        own_jobs_ = std::make_unique<JobRunner>();
        jobs_ = own_jobs_.get();
    }
}

LadderRunner::~LadderRunner() { ticket_.cancel(); }

void LadderRunner::setTimers(LadderTimers timers) { timers_ = std::move(timers); }

void LadderRunner::cancel() { ticket_.cancel(); }

void LadderRunner::start(SweepRequest request) {
    running_ = true;
    emit started(model_ladder(request));

    // Worker thread: `this` is touched only in what is posted back, which runs on its thread, and only
    // while the job is still the latest (its id).
    ticket_ = jobs_->submit(kLadderTag, this, [this, request = std::move(request), timers = timers_](
                                                  JobControl& job) -> JobRunner::Continuation {
        const quint64 id = job.id();
        TimingOptions options;
        options.cancel = &job.cancelToken();
        options.progress = [this, job, id](std::size_t done, std::size_t total) {
            job.reportProgress(total ? double(done) / double(total) : 1.0);
            job.post([this, id, done, total] {
                if (id == ticket_.id()) emit progress(int(done), int(total));
            });
        };
        const auto row_done = [this, job, id](int index, const LadderRow& row) {
            job.post([this, id, index, row] {
                if (id == ticket_.id()) emit rowUpdated(index, row);
            });
        };
        LadderResult result = run_ladder(request, timers, options, row_done);
        return [this, id, result = std::move(result)] {
            if (id != ticket_.id()) return;
            running_ = false;
            emit finished(result);
        };
    });
}

}  // namespace cvz
