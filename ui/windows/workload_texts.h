#pragma once
// What the sweep and the ladder dialogs share about their device profiles: those offered (the GPU
// present first, then the builtin ones) and the choice among them. Their inputs: family_box.h.
#include <QList>
#include <QString>

#include "app/models/device_profile.h"

class QComboBox;

namespace cvz {

// Fills `box` (item data: the profile's name) and returns the profiles in its order.
QList<DeviceProfile> fill_profile_box(QComboBox* box);

// Selects the profile called `name` (or whose name starts with it and a space: "H200") in `box`;
// false when none is.
bool select_profile(QComboBox* box, const QList<DeviceProfile>& profiles, const QString& name);
// The profile chosen in `box`, or an empty one.
DeviceProfile chosen_profile(const QComboBox* box, const QList<DeviceProfile>& profiles);

}  // namespace cvz
