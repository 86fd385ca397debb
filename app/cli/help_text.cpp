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

}  // namespace cvz::cli
