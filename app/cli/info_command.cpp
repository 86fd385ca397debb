#include "info_command.h"

#include <QCommandLineParser>

#include <thread>

#include "backend_report.h"
#include "exit_codes.h"
#include "help_text.h"

namespace cvz::cli {

namespace {

// The emulator runs blocks on one host thread per core (EmuOptions::host_threads = 0).
unsigned emulator_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
}

}  // namespace

int run_info_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    parser.setApplicationDescription(QString("Lists the backends and CUDA devices found. A missing CUDA device is "
                                             "reported, not an error.\n\n") +
                                     exit_code_help());
    parser.addPositionalArgument("info", "The command.", "info");
    if (!parser.parse(arguments)) {
        err << "cudaviz-cli info: " << parser.errorText() << "\nTry 'cudaviz-cli info --help'.\n";
        return exit_status(ExitCode::BadUsage);
    }
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    if (parser.positionalArguments().size() > 1) {
        err << "cudaviz-cli info: unexpected argument '" << parser.positionalArguments().at(1)
            << "'\nTry 'cudaviz-cli info --help'.\n";
        return exit_status(ExitCode::BadUsage);
    }
    out << "Backends:\n" << emulator_report(emulator_threads()) << cuda_report(query_cuda_devices());
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
