#include "app/io/matrix_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "app/io/csv_matrix.h"
#include "app/io/npy_reader.h"
#include "app/io/npy_writer.h"

namespace cvz {

namespace {

QString named(const QString& path, const QString& problem) {
    return QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), problem);
}

// A file this large cannot hold a matrix within the limits, in any supported encoding (CSV may
// spend up to ~32 characters per element).
constexpr qint64 kMaxFileBytes = qint64(MatrixLimits::kMaxElements) * 32;

}  // namespace

LoadedMatrix load_matrix(const QString& path) {
    LoadedMatrix out;
    const QFileInfo info(path);
    const QString ext = info.suffix().toLower();
    if (ext != QLatin1String("npy") && ext != QLatin1String("csv")) {
        out.error = named(path, QStringLiteral("unsupported matrix file type \"%1\" (use .npy or .csv)").arg(info.suffix()));
        return out;
    }
    if (!info.exists()) {
        out.error = named(path, QStringLiteral("no such file"));
        return out;
    }
    if (info.isDir()) {
        out.error = named(path, QStringLiteral("is a directory, not a file"));
        return out;
    }
    // A FIFO would block the read until a writer comes; a device (a link to /dev/zero) never ends.
    if (!info.isFile()) {
        out.error = named(path, QStringLiteral("is not a regular file (a pipe, socket or device)"));
        return out;
    }
    if (info.size() > kMaxFileBytes) {
        out.error = named(path, QStringLiteral("the file is %1 bytes, more than any matrix within the limits needs").arg(info.size()));
        return out;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = named(path, QStringLiteral("cannot be read (%1)").arg(f.errorString()));
        return out;
    }
    const QByteArray bytes = f.readAll();
    if (bytes.isEmpty()) {
        out.error = named(path, QStringLiteral("the file is empty"));
        return out;
    }
    QString error;
    out.matrix = ext == QLatin1String("npy") ? parse_npy_matrix(bytes, &error) : parse_csv_matrix(bytes, &error);
    if (!error.isEmpty()) {
        out.matrix = {};
        out.error = named(path, error);
    }
    return out;
}

QString save_matrix(const QString& path, const Matrix& m) {
    const QString ext = QFileInfo(path).suffix().toLower();
    QByteArray bytes;
    if (ext == QLatin1String("csv")) {
        bytes = format_csv_matrix(m);
    } else if (ext == QLatin1String("npy")) {
        return write_npy_f32(path, m.data.data(), m.rows, m.cols);
    } else {
        return named(path, QStringLiteral("unsupported output type \"%1\" (use .npy or .csv)").arg(QFileInfo(path).suffix()));
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return named(path, QStringLiteral("cannot be written (%1)").arg(f.errorString()));
    return {};
}

}  // namespace cvz
