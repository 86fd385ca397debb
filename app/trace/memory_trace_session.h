#pragma once
#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "app/jobs/job_ticket.h"
#include "kernels/trace/memory_trace.h"
#include "kernels/trace/trace_result.h"

namespace cvz {

class JobRunner;

// The memory trace of a page's current launch, without widgets: what the memory and source views
// show. The page hands it a launch (a closure that runs the family's traced launch on the emulator)
// and the warp it picked; the trace runs on the worker with progress and cancel, keeping whole
// requests only for the picked warp's block (an 8K image is never held request by request). A newer
// launch supersedes a running trace; picking a warp of a block the trace in hand did not keep traces
// again. It traces only while wanted (a view shows it, or a caption needs it), so a hidden view costs
// nothing, and steps aside (cancel) while a kernel run needs the worker.
class MemoryTraceSession : public QObject {
    Q_OBJECT
public:
    using TraceJob = std::function<TraceResult(const TraceOptions&)>;

    explicit MemoryTraceSession(JobRunner* jobs, QObject* parent = nullptr);
    ~MemoryTraceSession() override;

    // A new launch: the trace in hand is dropped (traceChanged) and, when wanted, the launch traced.
    void setLaunch(TraceJob job);
    // No launch to trace; `why` is what the views say instead.
    void clearLaunch(const QString& why);
    bool hasLaunch() const { return bool(job_); }

    // The warp whose requests are shown (a linear block id and a warp of it).
    void pickWarp(std::uint64_t block, std::uint32_t warp);
    void clearWarp();
    bool hasWarp() const { return has_warp_; }
    std::uint64_t block() const { return block_; }
    std::uint32_t warp() const { return warp_; }

    void setWanted(bool wanted);
    bool wanted() const { return wanted_; }
    // Stops a running trace (a kernel run wants the worker); the next setLaunch or pickWarp traces again.
    void cancel();

    // The trace of the current launch, null until one finished.
    const MemoryTrace* trace() const { return trace_.get(); }
    std::shared_ptr<const MemoryTrace> traceShared() const { return trace_; }
    // The picked warp's requests in program order; empty before its block's trace arrived.
    std::vector<const MemoryRequest*> warpRequests() const;
    bool warpTraced() const;  // the trace in hand kept the picked warp's block
    bool tracing() const { return ticket_.isValid(); }
    double progress() const { return progress_; }
    QString message() const { return message_; }  // why there is no trace, or what failed
    int completedTraces() const { return completed_; }

signals:
    void traceStarted();
    void progressChanged(double fraction);
    void traceChanged();  // trace(), the picked warp or its requests changed
    void traceFailed(const QString& error);

private:
    void maybeStart();
    bool needsTrace() const;

    JobRunner* jobs_;
    QString tag_;
    TraceJob job_;
    std::uint64_t launch_serial_ = 0;
    std::shared_ptr<const MemoryTrace> trace_;
    std::uint64_t trace_serial_ = 0;  // the launch trace_ belongs to
    std::uint64_t kept_block_ = 0;    // the block whose requests trace_ holds
    bool kept_any_ = false;
    bool has_warp_ = false;
    std::uint64_t block_ = 0;
    std::uint32_t warp_ = 0;
    bool wanted_ = false;
    JobTicket ticket_;
    std::uint64_t ticket_serial_ = 0, ticket_block_ = 0;
    double progress_ = 0;
    QString message_;
    int completed_ = 0;
};

}  // namespace cvz
