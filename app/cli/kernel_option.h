#pragma once
#include <QString>

#include "kernels/core/kernel_variant.h"

namespace cvz::cli {

// --kernel NAME for a family: a catalogue name (as `cudaviz-cli kernels` lists them) or the name without
// its family prefix ("2d", "tiled"; the spellings `--kernel naive|tiled` of before the catalogue), case-
// insensitive. Null when no variant of the family answers to it.
const KernelInfo* find_kernel_option(KernelFamily family, const QString& text);

// "unknown --kernel 'x': use one of <the family's names> (cudaviz-cli kernels lists them)".
QString unknown_kernel_message(KernelFamily family, const QString& text);

// The family's valid names, comma-separated, for --help.
QString kernel_names_text(KernelFamily family);

}  // namespace cvz::cli
