#include "app/trace/memory_trace_session.h"

#include "app/jobs/job_runner.h"

namespace cvz {

MemoryTraceSession::MemoryTraceSession(JobRunner* jobs, QObject* parent)
    : QObject(parent), jobs_(jobs), tag_(QStringLiteral("memory-trace-%1").arg(quintptr(this))) {
    connect(jobs_, &JobRunner::progress, this, [this](quint64 id, double fraction) {
        if (id != ticket_.id()) return;
        progress_ = fraction;
        emit progressChanged(fraction);
    });
}

MemoryTraceSession::~MemoryTraceSession() { ticket_.cancel(); }

void MemoryTraceSession::setLaunch(TraceJob job) {
    job_ = std::move(job);
    ++launch_serial_;
    message_.clear();
    const bool had = trace_ != nullptr;
    trace_.reset();
    kept_any_ = false;
    if (had) emit traceChanged();
    maybeStart();
}

void MemoryTraceSession::clearLaunch(const QString& why) {
    job_ = nullptr;
    ++launch_serial_;
    message_ = why;
    cancel();
    trace_.reset();
    kept_any_ = false;
    emit traceChanged();
}

void MemoryTraceSession::pickWarp(std::uint64_t block, std::uint32_t warp) {
    if (has_warp_ && block == block_ && warp == warp_) return;
    has_warp_ = true;
    block_ = block;
    warp_ = warp;
    emit traceChanged();
    maybeStart();
}

void MemoryTraceSession::clearWarp() {
    if (!has_warp_) return;
    has_warp_ = false;
    emit traceChanged();
}

void MemoryTraceSession::setWanted(bool wanted) {
    if (wanted == wanted_) return;
    wanted_ = wanted;
    maybeStart();
}

void MemoryTraceSession::cancel() {
    if (!ticket_.isValid()) return;
    ticket_.cancel();
    ticket_ = JobTicket();
}

std::vector<const MemoryRequest*> MemoryTraceSession::warpRequests() const {
    if (!warpTraced()) return {};
    return trace_->requests_of(block_, warp_);
}

bool MemoryTraceSession::warpTraced() const { return trace_ && has_warp_ && kept_any_ && kept_block_ == block_; }

bool MemoryTraceSession::needsTrace() const {
    if (!job_ || !wanted_) return false;
    if (!trace_ || trace_serial_ != launch_serial_) return true;
    return has_warp_ && !(kept_any_ && kept_block_ == block_);
}

void MemoryTraceSession::maybeStart() {
    if (!needsTrace()) return;
    const std::uint64_t block = has_warp_ ? block_ : 0;
    // The trace already running is the one wanted: let it finish.
    if (ticket_.isValid() && ticket_serial_ == launch_serial_ && ticket_block_ == block) return;
    cancel();
    const std::uint64_t serial = launch_serial_;
    TraceJob job = job_;
    ticket_serial_ = serial;
    ticket_block_ = block;
    progress_ = 0;
    // The same tag: a newer trace drops a queued older one and stops a running one.
    ticket_ = jobs_->submit(tag_, this, [this, job, serial, block](JobControl& control) -> JobRunner::Continuation {
        TraceOptions options;
        options.keep_blocks = {block};
        options.cancel = &control.cancelToken();
        options.progress = [control](double fraction) { control.reportProgress(fraction); };
        auto result = std::make_shared<TraceResult>(job(options));
        // Runs on this session's thread, and only while the session lives (the runner drops it otherwise).
        return [this, result, serial, block, id = control.id()] {
            if (ticket_.id() == id) ticket_ = JobTicket();
            if (serial != launch_serial_ || result->cancelled) {
                maybeStart();
                return;
            }
            if (!result->status.is_ok()) {
                message_ = QString::fromStdString(result->status.message());
                emit traceFailed(message_);
                return;
            }
            trace_ = std::make_shared<const MemoryTrace>(std::move(result->trace));
            trace_serial_ = serial;
            kept_block_ = block;
            kept_any_ = true;
            message_.clear();
            ++completed_;
            emit traceChanged();
            maybeStart();  // the warp may have moved to another block meanwhile
        };
    });
    emit traceStarted();
}

}  // namespace cvz
