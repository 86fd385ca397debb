#pragma once
// A worker job that fills a table row by row (the sweep, the ladder): runs `run(options, row_done)` on
// the JobRunner's worker under `tag` and forwards its progress, each finished row and its result to
// the receiver's thread, each only while `*current` still names this job (a newer job of the same
// tag, or a cancel, silences it). Whatever is posted dies with the receiver.
#include <QString>

#include <cstddef>
#include <utility>

#include "app/jobs/job_runner.h"
#include "app/jobs/job_ticket.h"
#include "kernels/core/kernel_timing.h"

namespace cvz {

template <class Row, class Run, class OnProgress, class OnRow, class OnFinished>
JobTicket submit_row_job(JobRunner& jobs, const QString& tag, QObject* receiver, const JobTicket* current, Run run,
                         OnProgress on_progress, OnRow on_row, OnFinished on_finished) {
    return jobs.submit(tag, receiver,
                       [current, run = std::move(run), on_progress, on_row, on_finished](JobControl& job) -> JobRunner::Continuation {
                           // Worker thread: the callbacks run only in what is posted back.
                           const quint64 id = job.id();
                           TimingOptions options;
                           options.cancel = &job.cancelToken();
                           options.progress = [job, id, current, on_progress](std::size_t done, std::size_t total) {
                               job.reportProgress(total ? double(done) / double(total) : 1.0);
                               job.post([id, current, on_progress, done, total] {
                                   if (id == current->id()) on_progress(int(done), int(total));
                               });
                           };
                           const auto row_done = [job, id, current, on_row](int index, const Row& row) {
                               job.post([id, current, on_row, index, row] {
                                   if (id == current->id()) on_row(index, row);
                               });
                           };
                           auto result = run(options, row_done);
                           return [id, current, on_finished, result = std::move(result)] {
                               if (id == current->id()) on_finished(result);
                           };
                       });
}

}  // namespace cvz
