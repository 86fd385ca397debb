#include "app/io/image_files.h"

#include <QDir>
#include <QImageWriter>
#include <QSaveFile>

namespace cvz {

QString cannot_write_message(const QString& path, const QString& why) {
    return "Cannot write '" + QDir::toNativeSeparators(path) + "': " + why;
}

QString write_png_file(const QString& path, const QImage& image) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return cannot_write_message(path, file.errorString());
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        const QString why = writer.errorString();
        file.cancelWriting();
        return cannot_write_message(path, why);
    }
    if (!file.commit()) return cannot_write_message(path, file.errorString());
    return {};
}

}  // namespace cvz
