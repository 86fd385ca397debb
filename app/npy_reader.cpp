#include "npy_reader.h"

#include <QRegularExpression>

#include <cstring>

namespace cvz {

namespace {

struct NpyHeader {
    char byte_order = '<';  // '<' little, '>' big, '|' not applicable
    char kind = 0;          // 'f' or 'i'
    int item_size = 0;
    bool fortran = false;
    QList<quint64> shape;
    qsizetype data_offset = 0;
};

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
bool parse_header(const QByteArray& bytes, NpyHeader* h, QString* error) {
    static const char magic[] = "\x93NUMPY";
    if (bytes.size() < 10 || std::memcmp(bytes.constData(), magic, 6) != 0) {
        *error = QStringLiteral("not a .npy file (no \\x93NUMPY magic)");
        return false;
    }
    const int major = quint8(bytes[6]);
    qsizetype header_len = 0, start = 0;
    if (major == 1) {
        header_len = quint8(bytes[8]) | (quint8(bytes[9]) << 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) {
            *error = QStringLiteral("truncated .npy header");
            return false;
        }
        header_len = qsizetype(quint32(quint8(bytes[8])) | quint32(quint8(bytes[9])) << 8 |
                               quint32(quint8(bytes[10])) << 16 | quint32(quint8(bytes[11])) << 24);
        start = 12;
    } else {
        *error = QStringLiteral(".npy format version %1 is not supported (1, 2 and 3 are)").arg(major);
        return false;
    }
    if (header_len > bytes.size() - start) {
        *error = QStringLiteral("truncated .npy header (declares %1 bytes, %2 present)").arg(header_len).arg(bytes.size() - start);
        return false;
    }
    const QString dict = QString::fromLatin1(bytes.mid(start, header_len));
    h->data_offset = start + header_len;

    static const QRegularExpression descr(QStringLiteral("'descr'\\s*:\\s*'([<>|=])([a-zA-Z])(\\d+)'"));
    static const QRegularExpression any_descr(QStringLiteral("'descr'\\s*:\\s*([^,]+)"));
    static const QRegularExpression fortran(QStringLiteral("'fortran_order'\\s*:\\s*(True|False)"));
    static const QRegularExpression shape(QStringLiteral("'shape'\\s*:\\s*\\(([^)]*)\\)"));
    const auto d = descr.match(dict);
    if (!d.hasMatch()) {
        const auto a = any_descr.match(dict);
        *error = QStringLiteral("unsupported dtype %1 (float32, float64, int32 and int64 are)")
                     .arg(a.hasMatch() ? a.captured(1).trimmed() : QStringLiteral("(none given)"));
        return false;
    }
    h->byte_order = d.captured(1).at(0).toLatin1();
    if (h->byte_order == '=') h->byte_order = '<';  // native on every platform we build for
    h->kind = d.captured(2).at(0).toLatin1();
    h->item_size = d.captured(3).toInt();
    const bool supported = (h->kind == 'f' && (h->item_size == 4 || h->item_size == 8)) ||
                           (h->kind == 'i' && (h->item_size == 4 || h->item_size == 8));
    if (!supported) {
        *error = QStringLiteral("unsupported dtype '%1%2%3' (float32, float64, int32 and int64 are)")
                     .arg(QChar(h->byte_order), QChar(h->kind)).arg(h->item_size);
        return false;
    }
    const auto f = fortran.match(dict);
    const auto s = shape.match(dict);
    if (!f.hasMatch() || !s.hasMatch()) {
        *error = QStringLiteral("malformed .npy header: %1").arg(dict.trimmed());
        return false;
    }
    h->fortran = f.captured(1) == QLatin1String("True");
    for (const QString& part : s.captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const quint64 v = part.trimmed().toULongLong(&ok);
        if (!ok) {
            *error = QStringLiteral("malformed shape (%1)").arg(s.captured(1));
            return false;
        }
        h->shape << v;
    }
    if (h->shape.size() != 2) {
        *error = QStringLiteral("the array is %1-D (shape (%2)); a matrix must be 2-D").arg(h->shape.size()).arg(s.captured(1));
        return false;
    }
    return true;
}

template <class T>
T read_value(const char* p, bool swap) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (swap)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

float read_element(const char* p, const NpyHeader& h) {
    const bool swap = h.byte_order == '>';  // we build for little-endian hosts only
    if (h.kind == 'f') return h.item_size == 4 ? read_value<float>(p, swap) : float(read_value<double>(p, swap));
    return h.item_size == 4 ? float(read_value<std::int32_t>(p, swap)) : float(read_value<std::int64_t>(p, swap));
}

}  // namespace

Matrix parse_npy_matrix(const QByteArray& bytes, QString* error) {
    NpyHeader h;
    if (!parse_header(bytes, &h, error)) return {};
    const quint64 rows = h.shape[0], cols = h.shape[1];
    if (QString e = check_matrix_dimensions(rows, cols); !e.isEmpty()) {
        *error = e;
        return {};
    }
    const quint64 need = rows * cols * quint64(h.item_size);
    const quint64 have = quint64(bytes.size() - h.data_offset);
    if (have < need) {
        *error = QStringLiteral("truncated data: %1x%2 of %3-byte elements needs %4 bytes, the file has %5")
                     .arg(rows).arg(cols).arg(h.item_size).arg(need).arg(have);
        return {};
    }
    Matrix m;
    m.rows = std::uint32_t(rows);
    m.cols = std::uint32_t(cols);
    m.data.resize(rows * cols);
    const char* base = bytes.constData() + h.data_offset;
    for (quint64 r = 0; r < rows; ++r)
        for (quint64 c = 0; c < cols; ++c) {
            const quint64 src = h.fortran ? c * rows + r : r * cols + c;
            m.data[r * cols + c] = read_element(base + src * quint64(h.item_size), h);
        }
    return m;
}

}  // namespace cvz
