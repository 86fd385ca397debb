#pragma once
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// `cudaviz-cli sweep grayscale IMAGE [--kernel NAME] [--layout ..] [--device PROFILE] [--backend ..]
//  [--block LIST] --json FILE` and `cudaviz-cli sweep matmul --size MxKxN [...] --json FILE`: the
// performance model's predicted time (and the GPU's measured one, when a GPU runs the shapes) of every
// shape the sweep dialog would try. `arguments` starts with the program name, then "sweep".
int run_sweep_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
