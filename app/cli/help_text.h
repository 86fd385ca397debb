#pragma once
#include <QCommandLineParser>
#include <QString>

namespace cvz::cli {

// The parser's help with "Usage: cudaviz-cli" instead of the full path Qt puts there.
QString help_text(const QCommandLineParser& parser);

}  // namespace cvz::cli
