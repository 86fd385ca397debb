#include "ui/windows/workload_texts.h"

#include <QComboBox>
#include <QCoreApplication>

#include <optional>

#include "app/jobs/backend_choice.h"
#include "app/io/matrix.h"
#include "app/io/rgb_buffer.h"

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

QString image_description(const RgbBuffer& image, const QString& name, const QString& none) {
    if (!image.width || !image.height) return none;
    const QString size = QStringLiteral("%1 × %2").arg(image.width).arg(image.height);
    return name.isEmpty() ? size : name + QStringLiteral(", ") + size;
}

QString matrices_description(const Matrix& a, const Matrix& b, const QString& name, const QString& none) {
    if (!a.size() || !b.size()) return none;
    const QString shapes = QStringLiteral("A %1×%2 @ B %3×%4").arg(a.rows).arg(a.cols).arg(b.rows).arg(b.cols);
    return name.isEmpty() ? shapes : name + QStringLiteral(", ") + shapes;
}

}  // namespace cvz
