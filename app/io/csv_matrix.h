#pragma once
#include <QByteArray>
#include <QString>

#include "app/io/matrix.h"

namespace cvz {

// Comma-separated numbers, one matrix row per line ('\n' or "\r\n"), as numpy and pandas read them:
// spaces around numbers allowed, blank lines skipped wherever they are, a first row of names (a
// header) skipped, ';' between values where the first row has no ',', a value in double quotes read
// as the number inside. "nan" and "inf" are numbers. Rejects, naming the line and column and showing
// invisible characters escaped (\t, \x00, U+FEFF), empty cells, text that is not a number (saying
// what it looks like: a tab, a decimal comma, a stray ';'), unclosed quotes and rows whose length
// differs from the first row's.
Matrix parse_csv_matrix(const QByteArray& bytes, QString* error);

// Rows of comma-separated numbers with 9 significant digits, so float32 values read back exactly.
QByteArray format_csv_matrix(const Matrix& m);

}  // namespace cvz
