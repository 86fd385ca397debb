// Fuzz target: parse_csv_matrix, the CSV reader behind load_matrix. Any bytes must give a matrix
// within MatrixLimits or a message that names a line; a matrix must survive format_csv_matrix and
// a second parse unchanged, bit for bit (NaN as NaN).
#include <cmath>
#include <cstring>

#include "app/io/csv_matrix.h"
#include "fuzz_check.h"

using namespace cvz;

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    QString error;
    const Matrix m = parse_csv_matrix(fuzz::view(data, size), &error);
    if (!error.isEmpty()) {
        FUZZ_CHECK(m.rows == 0 && m.cols == 0 && m.data.empty());
        return 0;
    }
    FUZZ_CHECK(check_matrix_dimensions(m.rows, m.cols).isEmpty());
    FUZZ_CHECK(m.data.size() == m.size());

    QString again_error;
    const Matrix again = parse_csv_matrix(format_csv_matrix(m), &again_error);
    FUZZ_CHECK(again_error.isEmpty());
    FUZZ_CHECK(again.rows == m.rows && again.cols == m.cols && again.data.size() == m.data.size());
    for (std::size_t i = 0; i < m.data.size(); ++i) {
        const float x = m.data[i], y = again.data[i];
        FUZZ_CHECK((std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0);
    }
    return 0;
}
