#include "help_text.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace cvz::cli {

QString help_text(const QCommandLineParser& parser) {
    QString text = parser.helpText();
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.isEmpty()) return text;
    const QString full = "Usage: " + arguments.first() + " ";
    if (text.startsWith(full)) text.replace(0, full.size(), "Usage: " + QFileInfo(arguments.first()).fileName() + " ");
    return text;
}

const char* general_exit_code_help() {
    return "Exit status:\n"
           "  0  success\n"
           "  1  input rejected: an input file is unreadable or malformed, OUT has an unsupported extension or\n"
           "     cannot be written, or a launch option (--block, --tile) is not valid\n"
           "  2  bad usage: unknown command or option, missing arguments, an unknown option value\n"
           "  3  device or runtime failure: --backend cuda without a CUDA device (or a build without CUDA),\n"
           "     or an error reported by the CUDA runtime";
}

}  // namespace cvz::cli
