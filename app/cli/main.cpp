// cudaviz-cli: the grayscale and matmul kernels, the kernel catalogue and the backend inventory from a
// terminal, without a GUI.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

#include "exit_codes.h"
#include "help_text.h"
#include "app/grayscale/grayscale_command.h"
#include "info_command.h"
#include "kernels_command.h"
#include "app/matmul/matmul_command.h"
#include "sweep_command.h"

namespace {

using cvz::cli::ExitCode;
using cvz::cli::exit_status;
using cvz::cli::help_text;

QString description() {
    return QString("See CUDA's execution model from the command line.\n\n"
                   "Commands:\n"
                   "  grayscale IN OUT [--kernel NAME] [--block N|XxY] [--backend auto|cpu|cuda]\n"
                   "            [--layout interleaved|planar]\n"
                   "            converts an image to grayscale; OUT is .png or .npy\n"
                   "  matmul A B OUT [--kernel NAME] [--tile 8|16|32] [--block XxY] [--backend auto|cpu|cuda]\n"
                   "            [--no-second-barrier]\n"
                   "            multiplies two matrices (.npy or .csv); OUT is .npy (float32) or .csv\n"
                   "  sweep grayscale IMAGE --json FILE [--kernel NAME] [--layout ..] [--device PROFILE] [--backend ..]\n"
                   "  sweep matmul --size MxKxN --json FILE [--kernel NAME] [--device PROFILE] [--backend ..]\n"
                   "            the performance model's predicted GPU time of every block shape on a device\n"
                   "            profile, and the measured time when a GPU runs the same shapes\n"
                   "  kernels [--json]\n"
                   "            lists the kernel catalogue: every variant's --kernel name, launch rule, layouts,\n"
                   "            tiles and exactness\n"
                   "  info      lists the backends and CUDA devices found\n"
                   "Run 'cudaviz-cli <command> --help' for a command's options.\n\n") +
           cvz::cli::general_exit_code_help();
}

int usage_error(QTextStream& err, const QString& message) {
    err << "cudaviz-cli: " << message << "\nTry 'cudaviz-cli --help'.\n";
    return exit_status(ExitCode::BadUsage);
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("cudaviz-cli");
    QCoreApplication::setApplicationVersion(CUDAVIZ_VERSION);
    QTextStream out(stdout);
    QTextStream err(stderr);

    // Only the options before the command are parsed here; the command parses the rest.
    QCommandLineParser parser;
    parser.setApplicationDescription(description());
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    parser.addPositionalArgument("command", "grayscale, matmul, sweep, kernels or info.", "<command> [<args>]");
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);

    const QStringList arguments = QCoreApplication::arguments();
    if (!parser.parse(arguments)) return usage_error(err, parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    if (parser.isSet(version)) {
        out << "cudaviz-cli " << QCoreApplication::applicationVersion() << "\n";
        return exit_status(ExitCode::Success);
    }

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) return usage_error(err, "no command given: use grayscale, matmul, sweep, kernels or info");
    const QString command = positional.first();
    // The command's own parser sees the program name followed by everything after it.
    const QStringList command_arguments = QStringList{arguments.first()} + positional;
    if (command == "grayscale") return cvz::cli::run_grayscale_command(command_arguments, out, err);
    if (command == "matmul") return cvz::cli::run_matmul_command(command_arguments, out, err);
    if (command == "sweep") return cvz::cli::run_sweep_command(command_arguments, out, err);
    if (command == "kernels") return cvz::cli::run_kernels_command(command_arguments, out, err);
    if (command == "info") return cvz::cli::run_info_command(command_arguments, out, err);
    return usage_error(err, "unknown command '" + command + "': use grayscale, matmul, sweep, kernels or info");
}
