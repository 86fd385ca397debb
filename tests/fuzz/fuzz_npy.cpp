// Fuzz target: parse_npy_matrix, the .npy reader behind load_matrix. Any bytes must give a matrix
// within MatrixLimits or a message; a matrix must survive a round trip through the .npy writer's
// header and through CSV unchanged, bit for bit (NaN as NaN).
#include <cmath>
#include <cstring>

#include "app/io/csv_matrix.h"
#include "app/io/npy_reader.h"
#include "app/io/npy_writer.h"
#include "fuzz_check.h"

using namespace cvz;

namespace {

bool same_values(const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows || a.cols != b.cols || a.data.size() != b.data.size()) return false;
    for (std::size_t i = 0; i < a.data.size(); ++i) {
        const float x = a.data[i], y = b.data[i];
        if (std::isnan(x) && std::isnan(y)) continue;
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    QString error;
    const Matrix m = parse_npy_matrix(fuzz::view(data, size), &error);
    if (!error.isEmpty()) {
        FUZZ_CHECK(m.rows == 0 && m.cols == 0 && m.data.empty());
        return 0;
    }
    FUZZ_CHECK(check_matrix_dimensions(m.rows, m.cols).isEmpty());
    FUZZ_CHECK(m.data.size() == m.size());

    // Written back as float32 .npy (the bytes write_npy_f32 puts in a file) and read again.
    QByteArray npy = npy_header(NpyDtype::F32, m.rows, m.cols);
    npy.append(reinterpret_cast<const char*>(m.data.data()), qsizetype(m.data.size() * sizeof(float)));
    QString again_error;
    const Matrix again = parse_npy_matrix(npy, &again_error);
    FUZZ_CHECK(again_error.isEmpty());
    FUZZ_CHECK(same_values(m, again));

    // And through CSV, whose 9 significant digits give every float32 back exactly.
    QString csv_error;
    const Matrix from_csv = parse_csv_matrix(format_csv_matrix(m), &csv_error);
    FUZZ_CHECK(csv_error.isEmpty());
    FUZZ_CHECK(same_values(m, from_csv));
    return 0;
}
