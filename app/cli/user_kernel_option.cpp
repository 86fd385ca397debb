#include "app/cli/user_kernel_option.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstring>

#include "app/cli/exit_codes.h"
#include "app/cli/schedule_option.h"
#include "app/io/memory_metrics_json.h"
#include "app/io/schedule_json.h"
#include "app/user/user_run.h"

namespace cvz::cli {

namespace {

constexpr qint64 kMostSourceBytes = 1 << 20;  // a kernel file, not a library

QString native(const QString& path) { return QDir::toNativeSeparators(path); }

}  // namespace

QString user_forms_help(const std::vector<user::CallForm>& forms) {
    QString text = QStringLiteral("Your kernel (--kernel-file) has one of these signatures (any names; const optional):\n");
    for (const user::CallForm& f : forms) text += "  __global__ void NAME" + QString::fromStdString(f.written) + "\n";
    return text;
}

QString user_kernel_usage_error(const QCommandLineParser& parser, const UserKernelOptions& options,
                                const QCommandLineOption& kernel_option) {
    const bool file = parser.isSet(options.file);
    if (file && parser.isSet(kernel_option))
        return QStringLiteral("--kernel and --kernel-file exclude each other: a built-in variant or yours");
    if (!file)
        for (const QCommandLineOption& o : {options.name, options.grid, options.time_limit})
            if (parser.isSet(o)) return "--" + o.names().first() + " applies to --kernel-file only";
    return {};
}

QString read_user_kernel_args(const QCommandLineParser& parser, const UserKernelOptions& options, UserKernelArgs* args) {
    args->file = parser.value(options.file);
    args->kernel_name = parser.value(options.name);
    args->grid_text = parser.value(options.grid);
    bool ok = false;
    args->time_limit_s = parser.value(options.time_limit).toDouble(&ok);
    if (!ok) return "--time-limit '" + parser.value(options.time_limit) + "' is not a number of seconds";
    return {};
}

QString read_kernel_file(const QString& path, user::SourceFile* source) {
    // A readable text file of a sensible size.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return "cannot read --kernel-file '" + native(path) + "': " + file.errorString();
    if (file.size() > kMostSourceBytes) return "--kernel-file '" + native(path) + "' is larger than 1 MiB: is it a kernel?";
    const QByteArray text = file.readAll();
    if (text.contains('\0')) return "--kernel-file '" + native(path) + "' is not a text file";
    source->name = path.toStdString();
    source->text = text.toStdString();
    return {};
}

int run_user_kernel_cli(const QString& command, user::FamilyCall& call, const UserKernelArgs& args,
                        const std::function<QString()>& write_output, QTextStream& out, QTextStream& err) {
    auto fail = [&](ExitCode code, const QString& message) {
        err << "cudaviz-cli " << command << ": " << message << "\n";
        if (code == ExitCode::BadUsage) err << "Try 'cudaviz-cli " << command << " --help'.\n";
        return exit_status(code);
    };

    UserRunRequest request;
    if (!(args.time_limit_s > 0) || args.time_limit_s > 86400)
        return fail(ExitCode::BadUsage, QStringLiteral("--time-limit must be a number of seconds above 0 (at most a day)"));
    request.time_limit_s = args.time_limit_s;
    QString error;
    if (!args.block_text.isEmpty()) {
        request.block = parse_dims(args.block_text, &error);
        if (!request.block) return fail(ExitCode::InputRejected, "invalid --block: " + error);
    }
    if (!args.grid_text.isEmpty()) {
        request.grid = parse_dims(args.grid_text, &error);
        if (!request.grid) return fail(ExitCode::InputRejected, "invalid --grid: " + error);
    }
    if (!args.metrics_path.isEmpty() && !args.metrics_path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return fail(ExitCode::InputRejected, "--metrics '" + native(args.metrics_path) + "' must end in .json");
    if (!args.schedule_path.isEmpty())
        if (const QString e = schedule_path_error(args.schedule_path); !e.isEmpty()) return fail(ExitCode::InputRejected, e);

    if (const QString e = read_kernel_file(args.file, &request.source); !e.isEmpty()) return fail(ExitCode::InputRejected, e);
    request.kernel_name = args.kernel_name.toStdString();
    request.backend = args.backend;
    request.trace = !args.metrics_path.isEmpty();
    request.writers = true;
    request.max_listed = 10;

    const UserRunResult r = run_user_kernel(call, request);
    // The compiler's messages first, as compilers print them, warnings too.
    for (const user::Diagnostic& d : r.diagnostics) err << QString::fromStdString(user::format(d)) << "\n";
    const QString message = QString::fromStdString(r.status.message());
    switch (r.stage) {
        case UserRunStage::Source:
            return fail(args.kernel_name.isEmpty() && message.contains(QLatin1String("--kernel-name")) ? ExitCode::BadUsage
                                                                                                   : ExitCode::InputRejected,
                        message);
        case UserRunStage::Form: return fail(ExitCode::InputRejected, native(args.file) + ": " + message);
        case UserRunStage::Launch: return fail(exit_code_for(r.status.kind()), message);
        case UserRunStage::Compile:
            return fail(ExitCode::InputRejected, "compile error in " + native(args.file) + " (" + QString::fromStdString(r.signature.name) + "); OUT not written");
        case UserRunStage::Run:
            return fail(r.fault == user::Fault::Device || r.status.kind() != ErrorKind::InvalidInput ? exit_code_for(r.status.kind())
                                                                                                   : ExitCode::InputRejected,
                        "fault in the kernel (" + fault_heading(r.fault) + "): " + message + "; OUT not written");
        case UserRunStage::Done: break;
    }

    if (const QString e = write_output(); !e.isEmpty()) return fail(ExitCode::InputRejected, e);
    const QString kernel = QString::fromStdString(r.signature.name);
    if (request.trace)
        if (const QString e = write_memory_metrics(args.metrics_path, r.trace, kernel); !e.isEmpty())
            return fail(ExitCode::InputRejected, e);

    out << r.backend << " · yours: " << kernel << " · block " << dims_text(r.block) << " · grid " << dims_text(r.grid)
        << " · " << r.time_text << "\n";
    out << "output " << QString::fromStdString(user::comparison_summary(r.comparison)) << "\n";
    const std::string buffer = r.signature.params.size() > call.output_arg() ? r.signature.params[call.output_arg()].name : "out";
    for (const user::Difference& d : r.comparison.listed)
        out << "  " << QString::fromStdString(user::difference_text(d, buffer, call.where(d.index), r.grid, r.block)) << "\n";
    if (r.comparison.differing > r.comparison.listed.size())
        out << "  ... and " << (r.comparison.differing - r.comparison.listed.size()) << " more\n";

    // The schedule: the same launch once more, recorded, its output checked against this run's.
    if (!args.schedule_path.isEmpty()) {
        const std::vector<std::uint8_t> output(static_cast<const std::uint8_t*>(call.output()),
                                               static_cast<const std::uint8_t*>(call.output()) + call.output_bytes());
        UserRunRequest recording = request;
        recording.trace = false;
        recording.writers = false;
        recording.schedule = true;
        const ScheduleOutcome schedule = write_schedule(
            args.schedule_path,
            [&] {
                ScheduleRun run;
                const UserRunResult again = run_user_kernel(call, recording);
                if (!again.ok()) {
                    run.status = Status::error(again.status.kind() == ErrorKind::InvalidInput ? ErrorKind::Device : again.status.kind(),
                                               "the recorded run failed: " + again.status.message());
                    return run;
                }
                run.schedule = again.schedule;
                const auto* bytes = static_cast<const std::uint8_t*>(call.output());
                run.output.assign(bytes, bytes + call.output_bytes());
                return run;
            },
            output.data(), output.size());
        if (schedule.code != ExitCode::Success) return fail(schedule.code, schedule.message);
        if (!schedule.message.isEmpty()) out << schedule.message << "\n";
    }
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
