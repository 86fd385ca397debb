#include "backend_choice.h"

#include "kernels/cuda/cuda_devices.h"

namespace cvz {

std::optional<BackendChoice> parse_backend_choice(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("auto")) return BackendChoice::Auto;
    if (t == QLatin1String("cpu")) return BackendChoice::Cpu;
    if (t == QLatin1String("cuda")) return BackendChoice::Cuda;
    return std::nullopt;
}

QString to_string(BackendChoice choice) {
    switch (choice) {
        case BackendChoice::Auto: return QStringLiteral("auto");
        case BackendChoice::Cpu: return QStringLiteral("cpu");
        case BackendChoice::Cuda: return QStringLiteral("cuda");
    }
    return {};
}

bool cuda_device_available() {
    // Asking the driver costs milliseconds and the answer does not change while we run.
    static const bool available = [] {
        const CudaInventory inv = query_cuda_devices();
        return inv.built_with_cuda && inv.status.is_ok() && !inv.devices.empty();
    }();
    return available;
}

}  // namespace cvz
