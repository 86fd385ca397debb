#pragma once
#include <QByteArray>
#include <QString>

#include <vector>

#include "app/tuning/block_sweep.h"

namespace cvz {

// The timings of the runs on screen (one row per page that has run), for File > Export Timings.
struct RunTiming {
    QString kernel;    // the family's name
    QString launch;    // "2-D 16x16 · grid 29x19" or "tiled TILE=16 · grid 4x7"
    QString problem;   // "451 x 300 image, interleaved" or "A 45 x 38 @ B 38 x 52"
    QString backend;   // "CPU emulator (2 threads)"
    double kernel_ms = 0;
    double total_ms = 0;
};

QString run_timings_csv(const std::vector<RunTiming>& runs);
QByteArray run_timings_json(const std::vector<RunTiming>& runs);
// The sweep's rows as JSON: the same fields as sweep_csv, plus the sweep's profile, problem, device and note.
QByteArray sweep_json(const SweepResult& result);

// Writes CSV or JSON, chosen by `path`'s extension (.csv, .json); atomically. Empty on success, else
// a sentence naming the file and the problem.
QString write_run_timings(const QString& path, const std::vector<RunTiming>& runs);
QString write_sweep(const QString& path, const SweepResult& result);

}  // namespace cvz
