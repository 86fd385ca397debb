#pragma once
// Writing the files every page and command writes: a PNG written whole or not at all, and the one
// sentence every failed write says.
#include <QImage>
#include <QString>

namespace cvz {

// Writes `image` as a PNG to `path` through QSaveFile (a failed write leaves no half-written file).
// Empty on success, else cannot_write_message(path, why). Used for every PNG the app writes.
QString write_png_file(const QString& path, const QImage& image);
// "Cannot write '<path>': <why>".
QString cannot_write_message(const QString& path, const QString& why);

}  // namespace cvz
