#pragma once
// A file written for a test to hand to the program under test (a kernel, a lesson answer).
#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace cvz::test {

// Writes `text` to `name` in `dir`; its path, or an empty string when it cannot be written.
inline QString write_text(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return path;
}

}  // namespace cvz::test
