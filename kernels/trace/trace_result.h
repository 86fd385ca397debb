#pragma once
#include "../core/status.h"
#include "memory_trace.h"

namespace cvz {

// What a traced launch returns: its status (an invalid launch is refused before anything runs), and
// its trace when it ran to the end.
struct TraceResult {
    Status status;
    bool cancelled = false;  // TraceOptions::cancel was requested: the trace is incomplete and empty
    MemoryTrace trace;
};

}  // namespace cvz
