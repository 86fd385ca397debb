#include "schedule_option.h"

#include <QDir>

#include <algorithm>
#include <cstring>
#include <set>

#include "app/io/schedule_json.h"
#include "app/trace/schedule_recorder.h"

namespace cvz::cli {

namespace {

QString native(const QString& path) { return QDir::toNativeSeparators(path); }

ScheduleOutcome finish(const QString& path, const ScheduleRun& run, bool same_output) {
    if (!run.status) return {exit_code_for(run.status.kind()), "--schedule: " + QString::fromStdString(run.status.message())};
    if (!same_output)
        return {ExitCode::RuntimeFailure,
                "--schedule: the recorded run's output differs from the timed run's (the recording must not change "
                "the kernel's result)"};
    if (const QString e = write_schedule_json(path, run.schedule); !e.isEmpty()) return {ExitCode::InputRejected, e};
    std::set<int> sms;
    std::uint64_t last_end = 0;
    for (const BlockRecord& b : run.schedule.blocks) {
        sms.insert(b.sm);
        last_end = std::max(last_end, b.end_ns);
    }
    const BlockSchedule& s = run.schedule;
    return {ExitCode::Success,
            QStringLiteral("schedule: %1 blocks on %2 of %3 %4 of %5, %6 µs from first start to last end, written to %7")
                .arg(qulonglong(s.blocks.size()))
                .arg(qulonglong(sms.size()))
                .arg(s.sms)
                .arg(s.backend == "cuda" ? QStringLiteral("SMs") : QStringLiteral("host workers"))
                .arg(QString::fromStdString(s.device))
                .arg(double(last_end) / 1000.0, 0, 'f', 1)
                .arg(native(path))};
}

}  // namespace

QCommandLineOption schedule_option() {
    return QCommandLineOption("schedule",
                              "Also records where and when each block ran (its SM from %smid and its start and end "
                              "from %globaltimer on the GPU; the host worker and a steady clock on the emulator) in "
                              "a second run of the same launch, and writes it to FILE.json.",
                              "FILE.json");
}

QString schedule_path_error(const QString& path) {
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return "cannot write the schedule to '" + native(path) + "': --schedule takes a file ending in .json";
    return {};
}

ScheduleOutcome write_schedule(const QString& path, const std::function<ScheduleRun()>& record, const void* output,
                               std::size_t bytes) {
    if (path.isEmpty()) return {};
    const ScheduleRun run = record();
    // Bytes, not numbers: bit-identical results are the invariant (and NaN must compare equal to itself).
    const bool same = run.output.size() == bytes && (bytes == 0 || std::memcmp(run.output.data(), output, bytes) == 0);
    return finish(path, run, same);
}

}  // namespace cvz::cli
