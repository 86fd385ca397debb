#pragma once
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// `cudaviz-cli info`: the backends this build and machine offer. The CPU emulator is always there;
// CUDA is listed with its devices, or with the reason it is not available (which is not an error).
int run_info_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
