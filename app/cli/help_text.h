#pragma once
#include <QCommandLineParser>
#include <QString>

namespace cvz::cli {

// The parser's help with "Usage: cudaviz-cli" instead of the full path Qt puts there.
QString help_text(const QCommandLineParser& parser);

// The exit-status paragraph of the top-level --help, in words that fit every command; each command's
// own --help states what its inputs are.
const char* general_exit_code_help();

}  // namespace cvz::cli
