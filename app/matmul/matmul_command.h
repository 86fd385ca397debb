#pragma once
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// `cudaviz-cli matmul A B OUT [--kernel naive|tiled] [--tile 8|16|32] [--block XxY]
// [--backend auto|cpu|cuda] [--no-second-barrier]`. `arguments` starts with the program name, then
// "matmul". Writes the one-line summary to `out`, problems to `err`, and returns the exit status
// (exit_codes.h).
int run_matmul_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
