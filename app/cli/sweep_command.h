#pragma once
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// `cudaviz-cli sweep FAMILY [INPUT] [--kernel NAME] [the family's options] [--device PROFILE]
//  [--backend ..] [--block LIST] --json FILE` (the families and their usage: app/family/app_family.h): the
// performance model's predicted time (and the GPU's measured one, when a GPU runs the shapes) of every
// shape the sweep dialog would try. `arguments` starts with the program name, then "sweep".
int run_sweep_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
