#pragma once
#include <QByteArray>
#include <QString>

#include "matrix.h"

namespace cvz {

// Comma-separated numbers, one matrix row per line ('\n' or "\r\n"); spaces around numbers are
// allowed, blank lines at the end are ignored. "nan" and "inf" are numbers. Rejects (with the line
// and column) empty cells, non-numeric text and rows whose length differs from the first row's.
Matrix parse_csv_matrix(const QByteArray& bytes, QString* error);

// Rows of comma-separated numbers with 9 significant digits, so float32 values read back exactly.
QByteArray format_csv_matrix(const Matrix& m);

}  // namespace cvz
