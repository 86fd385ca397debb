#pragma once
// `--schedule FILE.json` of `cudaviz-cli grayscale` and `cudaviz-cli matmul`: after the timed run, the
// same launch once more with schedule recording (a separate run, so the recording does not change the
// reported time), its output checked byte for byte against the timed run's, and the schedule written
// as JSON (app/schedule_json.h).
#include <QCommandLineOption>
#include <QString>
#include <QTextStream>

#include "app/grayscale/grayscale_runner.h"
#include "app/matmul/matmul_runner.h"
#include "exit_codes.h"

namespace cvz::cli {

QCommandLineOption schedule_option();

struct ScheduleOutcome {
    ExitCode code = ExitCode::Success;
    QString message;  // on failure, why; on success, the line printed after the run's summary
};

// Empty path: nothing to do. `gray`: the timed run's output, which the recorded run must reproduce.
ScheduleOutcome write_grayscale_schedule(const QString& path, const GrayscaleRequest& request,
                                         const std::vector<std::uint8_t>& gray);
ScheduleOutcome write_matmul_schedule(const QString& path, const MatmulRequest& request, const Matrix& c);

// Refuses FILE before anything runs: it must end in .json.
QString schedule_path_error(const QString& path);

}  // namespace cvz::cli
