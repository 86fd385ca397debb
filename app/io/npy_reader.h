#pragma once
#include <QByteArray>
#include <QString>

#include "app/io/matrix.h"

namespace cvz {

// Parses a .npy file's bytes (format versions 1.0, 2.0, 3.0) holding a 2-D array of float32, float64,
// int32 or int64, C or Fortran order, either byte order, into a float32 matrix. float64 and int64
// values are rounded to the nearest float32. The header must be the dict numpy writes, as a Python
// literal with exactly the keys 'descr', 'fortran_order' and 'shape'; an extra or missing key, a
// name, a call or an expression is refused, and so are bytes after the declared data. On failure
// returns the reason in `error`.
Matrix parse_npy_matrix(const QByteArray& bytes, QString* error);

}  // namespace cvz
