#include "app/io/csv_matrix.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/io/visible_text.h"

namespace cvz {

namespace {

const QByteArray kUtf8Bom("\xEF\xBB\xBF");

bool is_number(const QByteArray& cell, double* value) {
    bool ok = false;
    double v = QLocale::c().toDouble(QLatin1String(cell), &ok);  // '.' decimals whatever the user's locale
    if (!ok) {
        const QByteArray lower = cell.toLower();
        ok = true;
        if (lower == "nan" || lower == "+nan" || lower == "-nan") v = std::numeric_limits<double>::quiet_NaN();
        else if (lower == "inf" || lower == "+inf" || lower == "infinity") v = std::numeric_limits<double>::infinity();
        else if (lower == "-inf" || lower == "-infinity") v = -std::numeric_limits<double>::infinity();
        else ok = false;
    }
    if (ok && value) *value = v;
    return ok;
}

// A column name of a header row: printable text that is not a number.
bool is_name(const QByteArray& cell) {
    return !cell.isEmpty() && cell.size() <= 200 && !is_number(cell, nullptr) && is_printable_utf8(cell);
}

struct Line {
    int number = 0;  // 1-based, as an editor counts, blank lines included
    QByteArray text;
};

// Splits a line at `sep` outside double quotes; a quoted cell loses its quotes ("" is one quote).
// Returns false, with the column, where a quote is not closed on its line.
bool split_cells(const QByteArray& line, char sep, QList<QByteArray>* cells, int* open_column) {
    cells->clear();
    QByteArray cell;
    bool quoted = false, in_quotes = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (in_quotes) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                in_quotes = false;
            } else {
                cell += c;
            }
        } else if (c == '"' && cell.trimmed().isEmpty() && !quoted) {
            cell.clear();
            quoted = in_quotes = true;
        } else if (c == sep) {
            *cells << (quoted ? cell : cell.trimmed());
            cell.clear();
            quoted = false;
        } else {
            cell += c;
        }
    }
    if (in_quotes) {
        *open_column = int(cells->size()) + 1;
        return false;
    }
    *cells << (quoted ? cell : cell.trimmed());
    return true;
}

QString separator_name(char sep) { return sep == ';' ? QStringLiteral("';'") : QStringLiteral("','"); }

// Why a cell that is not a number might not be one, from what it holds.
QString hint_for(const QByteArray& cell, char sep) {
    if (cell.contains('\t')) return QStringLiteral(" (a tab: values must be separated by %1)").arg(separator_name(sep));
    if (sep == ',' && cell.contains(';')) return QStringLiteral(" (';' inside: separate values by ',' throughout, or by ';' throughout)");
    if (sep == ';' && cell.contains(',')) return QStringLiteral(" (a decimal comma? write decimals with '.')");
    if (cell.startsWith(kUtf8Bom)) return QStringLiteral(" (a byte-order mark inside the file: were two files joined?)");
    return QStringLiteral(" (expected a decimal number such as 1.5, -2e3, nan or inf)");
}

}  // namespace

Matrix parse_csv_matrix(const QByteArray& bytes, QString* error) {
    // Spreadsheets save "CSV UTF-8" with a byte-order mark, which would otherwise make the first cell
    // "not a number" with nothing visible wrong in it.
    const QByteArray body = bytes.startsWith(kUtf8Bom) ? bytes.mid(kUtf8Bom.size()) : bytes;
    // Blank lines are skipped wherever they are, as numpy.loadtxt and pandas.read_csv skip them.
    QList<Line> lines;
    int number = 0;
    for (QByteArray text : body.split('\n')) {
        ++number;
        if (text.endsWith('\r')) text.chop(1);
        if (!text.trimmed().isEmpty()) lines.push_back({number, text});
    }
    if (lines.isEmpty()) {
        *error = QStringLiteral("the file holds no numbers");
        return {};
    }
    // ',' between values; ';' where the first row has no ',' at all (a European spreadsheet's CSV).
    const char sep = !lines[0].text.contains(',') && lines[0].text.contains(';') ? ';' : ',';

    QList<QByteArray> cells;
    int open_column = 0;
    auto split = [&](const Line& line) {
        if (split_cells(line.text, sep, &cells, &open_column)) return true;
        *error = QStringLiteral("line %1, column %2: a '\"' opens a quoted value that is not closed on its line")
                     .arg(line.number).arg(open_column);
        return false;
    };
    if (!split(lines[0])) return {};
    // A first row of names (and data after it) is a header, as pandas reads it: skipped.
    qsizetype first = 0;
    QString header;
    if (lines.size() > 1 && std::all_of(cells.begin(), cells.end(), is_name)) {
        first = 1;
        header = QStringLiteral(" (after the header row on line %1)").arg(lines[0].number);
    }
    const qsizetype width = cells.size();
    const qsizetype rows = lines.size() - first;
    if (QString e = check_matrix_dimensions(quint64(rows), quint64(width)); !e.isEmpty()) {
        *error = e;
        return {};
    }
    Matrix m;
    m.cols = std::uint32_t(width);
    m.data.reserve(std::size_t(rows) * std::size_t(width));
    for (qsizetype li = first; li < lines.size(); ++li) {
        const Line& line = lines[li];
        if (!split(line)) return {};
        if (cells.size() != width) {
            *error = QStringLiteral("line %1 has %2 values but line %3 has %4 (rows must all be the same length)")
                         .arg(line.number).arg(cells.size()).arg(lines[0].number).arg(width);
            return {};
        }
        for (qsizetype ci = 0; ci < cells.size(); ++ci) {
            double v = 0;
            if (!is_number(cells[ci], &v)) {
                *error = cells[ci].isEmpty()
                             ? QStringLiteral("line %1, column %2 is empty").arg(line.number).arg(ci + 1)
                             : QStringLiteral("line %1, column %2: \"%3\" is not a number%4")
                                   .arg(line.number).arg(ci + 1).arg(visible_text(cells[ci], 40), hint_for(cells[ci], sep));
                if (li == first && !header.isEmpty()) *error += header;
                return {};
            }
            m.data.push_back(float(v));
        }
    }
    m.rows = std::uint32_t(rows);
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
