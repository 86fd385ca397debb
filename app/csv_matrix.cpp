#include "csv_matrix.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace cvz {

Matrix parse_csv_matrix(const QByteArray& bytes, QString* error) {
    // Spreadsheets save "CSV UTF-8" with a byte-order mark, which would otherwise make the first cell
    // "not a number" with nothing visible wrong in it.
    const QByteArray kUtf8Bom("\xEF\xBB\xBF");
    QList<QByteArray> lines = (bytes.startsWith(kUtf8Bom) ? bytes.mid(kUtf8Bom.size()) : bytes).split('\n');
    while (!lines.isEmpty() && lines.back().trimmed().isEmpty()) lines.removeLast();
    if (lines.isEmpty()) {
        *error = QStringLiteral("the file holds no numbers");
        return {};
    }
    const QLocale c_locale = QLocale::c();  // '.' decimals whatever the user's locale
    Matrix m;
    for (qsizetype li = 0; li < lines.size(); ++li) {
        QByteArray line = lines[li];
        if (line.endsWith('\r')) line.chop(1);
        const QList<QByteArray> cells = line.split(',');
        if (li == 0) {
            m.cols = std::uint32_t(cells.size());
            if (QString e = check_matrix_dimensions(lines.size(), cells.size()); !e.isEmpty()) {
                *error = e;
                return {};
            }
            m.data.reserve(std::size_t(lines.size()) * cells.size());
        } else if (std::uint32_t(cells.size()) != m.cols) {
            *error = QStringLiteral("line %1 has %2 values but line 1 has %3 (rows must all be the same length)")
                         .arg(li + 1).arg(cells.size()).arg(m.cols);
            return {};
        }
        for (qsizetype ci = 0; ci < cells.size(); ++ci) {
            const QByteArray cell = cells[ci].trimmed();
            bool ok = false;
            double v = c_locale.toDouble(QLatin1String(cell), &ok);
            if (!ok) {
                const QByteArray lower = cell.toLower();
                ok = true;
                if (lower == "nan" || lower == "+nan" || lower == "-nan") v = std::numeric_limits<double>::quiet_NaN();
                else if (lower == "inf" || lower == "+inf" || lower == "infinity") v = std::numeric_limits<double>::infinity();
                else if (lower == "-inf" || lower == "-infinity") v = -std::numeric_limits<double>::infinity();
                else ok = false;
            }
            if (!ok) {
                *error = cell.isEmpty() ? QStringLiteral("line %1, column %2 is empty").arg(li + 1).arg(ci + 1)
                                        : QStringLiteral("line %1, column %2: \"%3\" is not a number")
                                              .arg(li + 1).arg(ci + 1).arg(QString::fromUtf8(cell.left(40)));
                return {};
            }
            m.data.push_back(float(v));
        }
    }
    m.rows = std::uint32_t(lines.size());
    return m;
}

QByteArray format_csv_matrix(const Matrix& m) {
    QByteArray out;
    out.reserve(qsizetype(m.size() * 12));
    for (std::uint32_t r = 0; r < m.rows; ++r) {
        for (std::uint32_t c = 0; c < m.cols; ++c) {
            if (c) out += ',';
            const float v = m.at(r, c);
            // QByteArray::number writes -0.0 as "0": keep the sign, so the value reads back bit for bit.
            if (v == 0.0f && std::signbit(v)) out += "-0";
            else out += QByteArray::number(double(v), 'g', 9);
        }
        out += '\n';
    }
    return out;
}

}  // namespace cvz
