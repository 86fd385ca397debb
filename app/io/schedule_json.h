#pragma once
// A recorded block schedule as JSON, the format of `cudaviz-cli ... --schedule FILE.json` and of
// File > Open Schedule:
//   {"backend": "cuda", "device": "NVIDIA H200", "sms": 132,
//    "blocks": [{"block": [x, y, z], "sm": 124, "start_ns": 0, "end_ns": 2080}, ...]}
// one entry per block of the grid, times relative to the earliest start.
#include <QByteArray>
#include <QString>

#include "kernels/core/block_schedule.h"

namespace cvz {

QByteArray schedule_to_json(const BlockSchedule& schedule);

// Writes through QSaveFile; empty on success, else a message naming the file.
QString write_schedule_json(const QString& path, const BlockSchedule& schedule);

struct LoadedSchedule {
    BlockSchedule schedule;
    Dim3 grid;      // the grid the blocks span
    QString error;  // names the file and the problem; empty on success
    bool ok() const { return error.isEmpty(); }
};

// Parses and checks (every block of a grid exactly once, SMs in range, end >= start, earliest start 0).
LoadedSchedule parse_schedule_json(const QByteArray& bytes, const QString& name);
LoadedSchedule read_schedule_json(const QString& path);

}  // namespace cvz
