#pragma once
// Runs the built cudaviz-cli for the CLI tests and keeps what it said.
#include <QProcess>
#include <QString>
#include <QStringList>

#include "test_paths.h"

namespace cvz::test {

struct CliRun {
    int code = -1;
    QString out;
    QString err;
};

inline CliRun run_cli(const QStringList& arguments) {
    QProcess process;
    process.start(cli_path(), arguments);
    CliRun run;
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit) {
        run.err = "cudaviz-cli did not finish normally: " + process.errorString();
        return run;
    }
    run.code = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

inline QString describe(const CliRun& run) {
    return QString("exit %1\nstdout: %2\nstderr: %3").arg(run.code).arg(run.out, run.err);
}

}  // namespace cvz::test
