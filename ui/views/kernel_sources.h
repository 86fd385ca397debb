#pragma once
#include <QString>
#include <QStringList>

namespace cvz {

// The kernels' real source files, embedded at build time from kernels/ (ui/CMakeLists.txt generates
// the resource list from the folder itself, so the text shown is the text compiled, never a copy).
// Paths are repo-relative and start at "kernels/", as the trace's source sites name them.
QStringList embedded_kernel_sources();

// The text of `path` ("kernels/grayscale/grayscale_body.h"); false and a message naming the path when
// it is not embedded.
bool embedded_kernel_source(const QString& path, QString* text, QString* error = nullptr);

}  // namespace cvz
