#pragma once
// What the sweep and the ladder dialogs share about their inputs: the device profiles offered (the
// GPU present first, then the builtin ones) and one-line descriptions of the image and the matrices.
#include <QList>
#include <QString>

#include "app/models/device_profile.h"

class QComboBox;

namespace cvz {

struct Matrix;
struct RgbBuffer;

// Fills `box` (item data: the profile's name) and returns the profiles in its order.
QList<DeviceProfile> fill_profile_box(QComboBox* box);

// "chelsea.png, 451 × 300", or `none` without an image.
QString image_description(const RgbBuffer& image, const QString& name, const QString& none);
// "name, A 45×60 @ B 60×38", or `none` without matrices.
QString matrices_description(const Matrix& a, const Matrix& b, const QString& name, const QString& none);

}  // namespace cvz
