#pragma once
// The memory figures of a traced launch as JSON (issue 10, `cudaviz-cli ... --metrics FILE.json`):
//   {"kernel": ..., "grid": [x, y, z], "block": [x, y, z],
//    "metrics": {"<each of the ten Nsight Compute names>": <integer>, ...},
//    "sectors": {"global_ld": {"sectors": s, "ideal": i, "excess": s - i}, "global_st": {...}},
//    "lines": [{"file": "kernels/...", "line": L, "metrics": {...ten...}, "sectors": {...}}, ...]}
// All ten names are present everywhere, zero where they do not apply; "ideal" and "excess" are
// Nsight Compute's source-page "L2 Theoretical Sectors Global Ideal / Excessive" (memory_trace.h).
#include <QJsonObject>
#include <QString>

#include "kernels/trace/memory_trace.h"

namespace cvz {

QJsonObject memory_metrics_json(const MemoryTrace& trace, const QString& kernel);

// Writes memory_metrics_json to `path` (whole or not at all); empty on success, else a message naming the file.
QString write_memory_metrics(const QString& path, const MemoryTrace& trace, const QString& kernel);

}  // namespace cvz
