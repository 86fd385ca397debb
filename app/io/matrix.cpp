#include "app/io/matrix.h"

namespace cvz {

QString check_matrix_dimensions(std::uint64_t rows, std::uint64_t cols) {
    if (rows == 0 || cols == 0) return QStringLiteral("the matrix is empty (%1x%2)").arg(rows).arg(cols);
    if (rows > MatrixLimits::kMaxSide || cols > MatrixLimits::kMaxSide)
        return QStringLiteral("%1x%2 has a side longer than the limit of %3").arg(rows).arg(cols).arg(MatrixLimits::kMaxSide);
    if (rows * cols > MatrixLimits::kMaxElements)
        return QStringLiteral("%1x%2 = %3 elements exceeds the limit of %4 elements (1 GiB as float32)")
            .arg(rows)
            .arg(cols)
            .arg(rows * cols)
            .arg(MatrixLimits::kMaxElements);
    return {};
}

QString check_matmul_shapes(const Matrix& a, const Matrix& b, const QString& an, const QString& bn) {
    if (a.cols == b.rows) return {};
    return QStringLiteral("%1 is %2x%3 but %4 is %5x%6: the inner dimensions %3 and %5 must match for %1 @ %4")
        .arg(an)
        .arg(a.rows)
        .arg(a.cols)
        .arg(bn)
        .arg(b.rows)
        .arg(b.cols);
}

}  // namespace cvz
