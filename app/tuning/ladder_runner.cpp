#include "app/tuning/ladder_runner.h"

#include "app/jobs/job_runner.h"
#include "app/jobs/row_job.h"

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

    // A newer ladder (same tag) or a cancel silences this one: what it posted afterwards says nothing.
    ticket_ = submit_row_job<LadderRow>(
        *jobs_, kLadderTag, this, &ticket_,
        [request = std::move(request), timers = timers_](const TimingOptions& options, const auto& row_done) {
            return run_ladder(request, timers, options, row_done);
        },
        [this](int done, int total) { emit progress(done, total); },
        [this](int index, const LadderRow& row) { emit rowUpdated(index, row); },
        [this](const LadderResult& result) {
            running_ = false;
            emit finished(result);
        });
}

}  // namespace cvz
