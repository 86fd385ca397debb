// cudaviz-cli: each kernel family's command, the sweep, the kernel catalogue and the backend inventory
// from a terminal, without a GUI.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

#include "app/convolution/convolution_command.h"
#include "app/grayscale/grayscale_command.h"
#include "app/matmul/matmul_command.h"
#include "exit_codes.h"
#include "help_text.h"
#include "info_command.h"
#include "kernels_command.h"
#include "lessons_command.h"
#include "sweep_command.h"

namespace {

// The commands, in the order the help lists them; a family's command is one line here.
struct Command {
    const char* name;
    int (*run)(const QStringList& arguments, QTextStream& out, QTextStream& err);
};
constexpr Command kCommands[] = {
    {"grayscale", cvz::cli::run_grayscale_command},
    {"matmul", cvz::cli::run_matmul_command},
    {"convolution", cvz::cli::run_convolution_command},
    {"sweep", cvz::cli::run_sweep_command},
    {"kernels", cvz::cli::run_kernels_command},
    {"info", cvz::cli::run_info_command},
    {"lessons", cvz::cli::run_lessons_command},
    {"lesson", cvz::cli::run_lesson_command},
};

// "grayscale, matmul, ..., kernels or info".
QString command_names() {
    QString names;
    const int n = int(sizeof(kCommands) / sizeof(kCommands[0]));
    for (int i = 0; i < n; ++i)
        names += QString(i == 0 ? "" : i == n - 1 ? " or " : ", ") + QLatin1String(kCommands[i].name);
    return names;
}

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
                   "  convolution IN OUT [--mask NAME|FILE.npy] [--kernel NAME] [--block XxY] [--backend auto|cpu|cuda]\n"
                   "            convolves the image's grayscale with a square mask; OUT is .npy (float32) or .png\n"
                   "  sweep grayscale IMAGE --json FILE [--kernel NAME] [--layout ..] [--device PROFILE] [--backend ..]\n"
                   "  sweep matmul --size MxKxN --json FILE [--kernel NAME] [--device PROFILE] [--backend ..]\n"
                   "  sweep convolution IMAGE --json FILE [--mask NAME|FILE.npy] [--kernel NAME] [--device PROFILE] [--backend ..]\n"
                   "            the performance model's predicted GPU time of every block shape on a device\n"
                   "            profile, and the measured time when a GPU runs the same shapes\n"
                   "  kernels [--json]\n"
                   "            lists the kernel catalogue: every variant's --kernel name, launch rule, layouts,\n"
                   "            tiles and exactness\n"
                   "  info      lists the backends and CUDA devices found\n"
                   "  lessons [--json]\n"
                   "            lists the guided path through the lecture: every step's id, topic and title\n"
                   "  lesson check ID (--kernel-file FILE.cu | --answer TEXT)\n"
                   "            checks a step: your kernel on sizes you did not choose, or your answer\n"
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
    parser.addPositionalArgument("command", command_names() + ".", "<command> [<args>]");
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
    if (positional.isEmpty()) return usage_error(err, "no command given: use " + command_names());
    const QString command = positional.first();
    // The command's own parser sees the program name followed by everything after it.
    const QStringList command_arguments = QStringList{arguments.first()} + positional;
    for (const Command& c : kCommands)
        if (command == QLatin1String(c.name)) return c.run(command_arguments, out, err);
    return usage_error(err, "unknown command '" + command + "': use " + command_names());
}
