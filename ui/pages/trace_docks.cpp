#include "ui/pages/trace_docks.h"

#include <QLocale>

#include "app/jobs/counted.h"
#include "app/trace/memory_trace_session.h"
#include "ui/views/memory_view.h"
#include "ui/views/source_view.h"
#include "ui/views/trace_presentation.h"

namespace cvz {

TraceDocks::TraceDocks(MemoryTraceSession* session, QObject* parent) : QObject(parent), session_(session) {
    connect(session_, &MemoryTraceSession::traceChanged, this, &TraceDocks::refresh);
    connect(session_, &MemoryTraceSession::traceStarted, this, &TraceDocks::refresh);
    connect(session_, &MemoryTraceSession::traceFailed, this, &TraceDocks::refresh);
    connect(session_, &MemoryTraceSession::progressChanged, this, [this](double fraction) {
        const QString text = tr("Tracing every load and store on the emulator… %1%").arg(int(fraction * 100));
        if (source_ && !session_->trace()) source_->setMessage(text);
        if (memory_ && !session_->warpTraced()) memory_->setMessage(text);
    });
}

void TraceDocks::bind(SourceView* source, MemoryView* memory) {
    unbind();
    source_ = source;
    memory_ = memory;
    shown_trace_ = nullptr;
    if (source_) {
        source_->setColumns(line_figure_columns(), line_figure_tips());
        connections_ << connect(source_, &SourceView::visibilityChanged, this, &TraceDocks::updateWanted);
    }
    if (memory_) connections_ << connect(memory_, &MemoryView::visibilityChanged, this, &TraceDocks::updateWanted);
    updateWanted();
    refresh();
}

void TraceDocks::unbind() {
    for (const QMetaObject::Connection& c : connections_) disconnect(c);
    connections_.clear();
    source_ = nullptr;
    memory_ = nullptr;
    updateWanted();
}

void TraceDocks::setGpuNote(const QString& note) {
    gpu_note_ = note;
    if (source_) source_->setGpuNote(note);
}

void TraceDocks::setLaunchLine(const QString& line) {
    launch_line_ = line;
    if (source_) source_->setLaunchLine(line);
}

void TraceDocks::setWarpTitle(const QString& title) {
    warp_title_ = title;
    if (memory_) memory_->setTitle(title);
}

void TraceDocks::setStep(const std::vector<const MemoryRequest*>& requests, bool all) {
    step_ = requests;
    step_all_ = all;
    refreshMemory();
    refreshHighlight();
}

void TraceDocks::setNeededByPage(bool needed) {
    needed_by_page_ = needed;
    updateWanted();
}

void TraceDocks::updateWanted() {
    session_->setWanted(needed_by_page_ || (source_ && source_->isVisible()) || (memory_ && memory_->isVisible()));
}

void TraceDocks::refresh() {
    // A new trace invalidates the step's requests (they point into the old one): the page sets them
    // again from the new trace; until then the warp's every request is current.
    if (session_->trace() != shown_trace_) {
        step_.clear();
        step_all_ = true;
    }
    refreshSource();
    refreshMemory();
    refreshHighlight();
}

void TraceDocks::refreshSource() {
    if (!source_) return;
    source_->setLaunchLine(launch_line_);
    source_->setGpuNote(gpu_note_);
    const MemoryTrace* trace = session_->trace();
    if (trace != shown_trace_) {
        source_->clearFigures();
        if (trace) {
            const QStringList files = trace_files(*trace);
            for (const QString& f : files) source_->setFigures(f, line_figures(*trace, f));
            source_->setFiles(files);
        }
        shown_trace_ = trace;
    }
    if (trace) {
        const MemoryMetrics& t = trace->totals;
        const std::uint64_t req = t.global_ld.requests + t.global_st.requests;
        const std::uint64_t sect = t.global_ld.sectors + t.global_st.sectors;
        const std::uint64_t ideal = t.global_ld.ideal_sectors + t.global_st.ideal_sectors;
        QString text = tr("Whole launch: %1 global requests, %2 sectors (ideal %3)")
                           .arg(QLocale().toString(qulonglong(req)), QLocale().toString(qulonglong(sect)),
                                QLocale().toString(qulonglong(ideal)));
        const std::uint64_t shared = t.shared_ld.requests + t.shared_st.requests;
        if (shared)
            text += tr("; %1 shared requests, %2 bank conflicts")
                        .arg(QLocale().toString(qulonglong(shared)),
                             QLocale().toString(qulonglong(t.shared_ld.bank_conflicts() + t.shared_st.bank_conflicts())));
        source_->setMessage(text + tr(". Figures from the emulator's trace of this launch, per warp request, "
                                      "under Nsight Compute's names (hover a line)."));
    } else if (!session_->message().isEmpty()) {
        source_->setMessage(session_->message());
    } else if (session_->tracing()) {
        source_->setMessage(tr("Tracing every load and store on the emulator…"));
    } else {
        source_->setMessage(tr("No trace yet."));
    }
}

void TraceDocks::refreshMemory() {
    if (!memory_) return;
    memory_->setTitle(warp_title_);
    const MemoryTrace* trace = session_->trace();
    if (!session_->hasWarp()) {
        memory_->setRequests({});
        memory_->setMessage(tr("Pick a warp: click a pixel or an element of C, or step the animation."));
        return;
    }
    if (!trace || !session_->warpTraced()) {
        memory_->setRequests({});
        memory_->setMessage(!session_->message().isEmpty() ? session_->message()
                                                           : tr("Tracing every load and store on the emulator…"));
        return;
    }
    const std::vector<const MemoryRequest*> requests = session_->warpRequests();
    if (requests.empty()) {
        memory_->setRequests({});
        memory_->setMessage(tr("This warp makes no request: every lane is guarded off (past the data)."));
        return;
    }
    // The warp's cost per byte it asked for: the figure that tells interleaved from planar pixels.
    std::uint64_t sectors = 0, used = 0, wavefronts = 0, passes = 0;
    for (const MemoryRequest* r : requests) {
        sectors += r->sectors;
        (r->space == MemorySpace::Constant ? passes : wavefronts) += r->wavefronts;
        if (r->space == MemorySpace::Global)
            for (const LaneAccess& l : r->lanes) used += l.bytes;
    }
    QString summary = counted(requests.size(), tr("request"), tr("requests"));
    if (sectors)
        summary += tr(" · %1 sectors = %2 bytes moved for %3 bytes asked for (%4 per byte)")
                       .arg(sectors).arg(sectors * 32).arg(used).arg(QString::number(double(sectors * 32) / double(std::max<std::uint64_t>(used, 1)), 'f', 2));
    if (wavefronts) summary += tr(" · %1 shared wavefronts").arg(wavefronts);
    if (passes) summary += tr(" · %1 of constant memory").arg(counted(passes, tr("pass"), tr("passes")));
    memory_->setMessage(summary);
    // Outlined: the step's requests, when they are not simply all of the warp's.
    const bool outline = !step_all_ && step_.size() != requests.size();
    memory_->setRequests(drawn_requests(*trace, requests, outline ? step_ : std::vector<const MemoryRequest*>()));
}

void TraceDocks::refreshHighlight() {
    if (!source_) return;
    const MemoryTrace* trace = session_->trace();
    if (!trace || !session_->warpTraced()) {
        source_->setCurrentLines(QString(), {});
        return;
    }
    const std::vector<const MemoryRequest*> requests = step_all_ ? session_->warpRequests() : step_;
    const QString file = requests_file(*trace, requests);
    source_->setCurrentLines(file, requests_lines(*trace, requests, file));
}

}  // namespace cvz
