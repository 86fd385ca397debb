#pragma once
// The mask of `cudaviz-cli convolution --mask` and of the GUI's mask chooser: a named mask
// (kernels/convolution/convolution_mask.h) or a .npy file holding a 2-D, square array of odd side
// 1..15, float32 or float64 (float64 values rounded to the nearest float32).
#include <QString>

#include "kernels/convolution/convolution_mask.h"

namespace cvz {

struct LoadedMask {
    ConvolutionMask mask;
    QString name;   // the named mask's name, or the file's name
    QString error;  // names the file (or the unknown name) and the problem; empty on success
    bool ok() const { return error.isEmpty(); }
};

// Parses a .npy file's bytes as a mask; `name` is used in messages.
LoadedMask parse_mask_npy(const QByteArray& bytes, const QString& name);
// Reads and parses a .npy mask file.
LoadedMask read_mask_npy(const QString& path);
// A named mask ("gauss5"), or a path ending in .npy read as one.
LoadedMask resolve_mask(const QString& name_or_path);

}  // namespace cvz
