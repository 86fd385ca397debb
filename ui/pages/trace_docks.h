#pragma once
#include <QList>
#include <QMetaObject>
#include <QObject>
#include <QString>

#include <vector>

#include "kernels/trace/memory_trace.h"

namespace cvz {

class MemoryTraceSession;
class MemoryView;
class SourceView;

// Shows a page's MemoryTraceSession in the window's Source and Memory docks while the page is bound:
// the launch line, the files and per-line figures, the picked warp's requests, and the lines and
// requests of the animation's current step. Tracing is wanted while either view shows (or while
// the page says it needs the trace itself, e.g. for captions).
class TraceDocks : public QObject {
    Q_OBJECT
public:
    explicit TraceDocks(MemoryTraceSession* session, QObject* parent = nullptr);

    void bind(SourceView* source, MemoryView* memory);
    void unbind();

    void setLaunchLine(const QString& line);
    void setGpuNote(const QString& note);  // the source view's note on the hardware's counters
    // Which warp is picked, in words ("block (3, 1) · warp 2, threads 64–95").
    void setWarpTitle(const QString& title);
    // The requests of the animation's step (a subset of the picked warp's): outlined in the memory
    // view and their lines highlighted. `all`: no step, the warp's every request is current.
    void setStep(const std::vector<const MemoryRequest*>& requests, bool all);
    // Whether the page needs the trace even with both views hidden.
    void setNeededByPage(bool needed);

    void refresh();  // after the session's trace or picked warp changed

private:
    void updateWanted();
    void refreshSource();
    void refreshMemory();
    void refreshHighlight();

    MemoryTraceSession* session_;
    SourceView* source_ = nullptr;
    MemoryView* memory_ = nullptr;
    QList<QMetaObject::Connection> connections_;
    QString launch_line_, warp_title_, gpu_note_;
    std::vector<const MemoryRequest*> step_;
    bool step_all_ = true;
    bool needed_by_page_ = false;
    const MemoryTrace* shown_trace_ = nullptr;  // the trace the source view's figures come from
};

}  // namespace cvz
