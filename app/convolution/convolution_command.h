#pragma once
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// `cudaviz-cli convolution IN OUT [--mask NAME|FILE.npy] [--kernel NAME] [--block XxY]
// [--backend auto|cpu|cuda] [--metrics FILE.json] [--schedule FILE.json]`. `arguments` starts with the
// program name, then "convolution". Writes the one-line summary to `out`, problems to `err`, and
// returns the exit status (app/cli/exit_codes.h).
int run_convolution_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
