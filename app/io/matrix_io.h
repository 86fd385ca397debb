#pragma once
#include <QString>

#include "app/io/matrix.h"

namespace cvz {

struct LoadedMatrix {
    Matrix matrix;
    QString error;  // names the file and the problem; empty on success
    bool ok() const { return error.isEmpty(); }
};

// Loads a .npy (2-D float32/float64/int32/int64) or .csv matrix, chosen by extension.
LoadedMatrix load_matrix(const QString& path);

// Saves as .npy (float32) or .csv by extension; returns the error (naming the file) or empty.
QString save_matrix(const QString& path, const Matrix& m);

}  // namespace cvz
