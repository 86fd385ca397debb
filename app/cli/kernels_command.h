#pragma once
#include <QJsonDocument>
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

// The catalogue as JSON: {"kernels": [{"family", "name", "title", "block", "layouts" (grayscale),
// "tiles" (when the variant takes a TILE), "exact", "grid_threads" (when its grid is capped)}, ...]}.
QJsonDocument kernel_catalogue_json();

// `cudaviz-cli kernels [--json]`: lists every kernel variant of every family. Returns the exit status.
int run_kernels_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
