#include "ui/windows/workload_texts.h"

#include <QComboBox>
#include <QCoreApplication>

#include <optional>

#include "app/jobs/backend_choice.h"

namespace cvz {

QList<DeviceProfile> fill_profile_box(QComboBox* box) {
    QList<DeviceProfile> profiles;
    if (cuda_device_available())
        if (std::optional<DeviceProfile> real = cuda_device_profile(0)) profiles.append(*real);
    profiles.append(builtin_device_profiles());
    for (const DeviceProfile& p : profiles) {
        const QString text = p.measured ? QCoreApplication::translate("cvz", "This GPU: %1 (sm_%2%3)").arg(p.name).arg(p.cc_major).arg(p.cc_minor)
                                        : p.name;
        box->addItem(text, p.name);
    }
    box->setCurrentIndex(0);
    return profiles;
}

bool select_profile(QComboBox* box, const QList<DeviceProfile>& profiles, const QString& name) {
    for (int i = 0; i < profiles.size(); ++i) {
        if (profiles[i].name == name || profiles[i].name.startsWith(name + QLatin1Char(' '))) {
            box->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

DeviceProfile chosen_profile(const QComboBox* box, const QList<DeviceProfile>& profiles) {
    const int i = box->currentIndex();
    return i >= 0 && i < profiles.size() ? profiles[i] : DeviceProfile{};
}

}  // namespace cvz
