#include "app/convolution/convolution_mask_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include "app/io/npy_reader.h"

namespace cvz {

namespace {

// The header's 'descr' ("<f4", "<i8", ...), read ahead of the matrix parser, which takes integer
// arrays too (and converts them): a mask must be floating point. Empty when the header has none that
// can be read; the parser then says what is wrong with the file.
QString npy_descr(const QByteArray& bytes) {
    if (bytes.size() < 10 || !bytes.startsWith("\x93NUMPY")) return {};
    const int major = static_cast<unsigned char>(bytes[6]);
    qsizetype start = 10, length = 0;
    if (major == 1) {
        length = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    } else {
        if (bytes.size() < 12) return {};
        start = 12;
        for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(bytes[8 + i]);
    }
    const QString header = QString::fromLatin1(bytes.mid(start, length));
    static const QRegularExpression descr(QStringLiteral("'descr'\\s*:\\s*'([^']*)'"));
    const QRegularExpressionMatch m = descr.match(header);
    return m.hasMatch() ? m.captured(1) : QString();
}

LoadedMask failed(const QString& name, const QString& problem) {
    LoadedMask m;
    m.name = name;
    m.error = "the mask '" + name + "' " + problem;
    return m;
}

}  // namespace

LoadedMask parse_mask_npy(const QByteArray& bytes, const QString& name) {
    const QString descr = npy_descr(bytes);
    if (!descr.isEmpty()) {
        const QString kind = descr.right(2);  // "f4", "f8", "i4", ...
        if (kind != QLatin1String("f4") && kind != QLatin1String("f8"))
            return failed(name, "has dtype '" + descr + "': a mask is float32 or float64");
    }
    QString error;
    const Matrix matrix = parse_npy_matrix(bytes, &error);
    if (!error.isEmpty()) return failed(name, "is not a usable .npy array: " + error);
    if (const std::string e = validate_mask_shape(matrix.rows, matrix.cols); !e.empty())
        return failed(name, "is refused: " + QString::fromStdString(e));
    LoadedMask m;
    m.name = name;
    m.mask.side = matrix.rows;
    m.mask.values = matrix.data;
    if (const std::string e = validate_mask(m.mask); !e.empty()) return failed(name, "is refused: " + QString::fromStdString(e));
    return m;
}

LoadedMask read_mask_npy(const QString& path) {
    const QString name = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return failed(name, "cannot be read: " + file.errorString());
    // A 15x15 float64 mask is under 2 KiB: anything past 1 MiB is not a mask.
    if (file.size() > (1 << 20)) return failed(name, "is " + QString::number(file.size()) + " bytes, too large for a mask");
    return parse_mask_npy(file.readAll(), name);
}

LoadedMask resolve_mask(const QString& name_or_path) {
    ConvolutionMask named;
    if (named_mask(name_or_path.toStdString(), &named)) {
        LoadedMask m;
        m.mask = named;
        m.name = name_or_path;
        return m;
    }
    if (name_or_path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive)) return read_mask_npy(name_or_path);
    LoadedMask m;
    m.name = name_or_path;
    m.error = "unknown mask '" + name_or_path + "': use one of " + QString::fromStdString(named_mask_list()) +
              ", or a .npy file";
    return m;
}

}  // namespace cvz
