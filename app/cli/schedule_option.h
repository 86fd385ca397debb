#pragma once
// `--schedule FILE.json` of a family's command (`cudaviz-cli FAMILY ...`): after the timed run, the
// same launch once more with schedule recording (a separate run, so the recording does not change the
// reported time), its output checked byte for byte against the timed run's, and the schedule written
// as JSON (app/schedule_json.h).
#include <QCommandLineOption>
#include <QString>
#include <QTextStream>

#include <cstddef>
#include <functional>

#include "app/cli/exit_codes.h"
#include "app/trace/schedule_recorder.h"

namespace cvz::cli {

QCommandLineOption schedule_option();

struct ScheduleOutcome {
    ExitCode code = ExitCode::Success;
    QString message;  // on failure, why; on success, the line printed after the run's summary
};

// Empty path: nothing to do. Else `record` runs the launch with recording (the family's recorder) and
// its output must be the timed run's, `output` (`bytes` long), byte for byte.
ScheduleOutcome write_schedule(const QString& path, const std::function<ScheduleRun()>& record, const void* output,
                               std::size_t bytes);

// Refuses FILE before anything runs: it must end in .json.
QString schedule_path_error(const QString& path);

}  // namespace cvz::cli
