#pragma once
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// `cudaviz-cli grayscale IN OUT [--backend ..] [--layout ..] [--block ..]`. `arguments` starts with
// the program name, then "grayscale". Writes the one-line summary to `out`, problems to `err`, and
// returns the exit status (exit_codes.h).
int run_grayscale_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
