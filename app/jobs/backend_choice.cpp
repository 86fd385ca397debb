#include "app/jobs/backend_choice.h"

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

Status cuda_backend_status() {
    static const Status status = [] {
        const CudaInventory inv = query_cuda_devices();
        if (!inv.built_with_cuda)
            return Status::error(ErrorKind::Unavailable,
                                 "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
        if (!inv.status) {
            // Without a driver the runtime reports cudaErrorInsufficientDriver, which reads as if a newer
            // driver would help; with driver version 0 there is no driver, and so no usable GPU.
            if (inv.driver_version == 0)
                return Status::error(ErrorKind::Unavailable,
                                     "there is no CUDA GPU on this machine (no NVIDIA driver is loaded); use --backend "
                                     "cpu or auto for the CPU emulator");
            return Status::error(ErrorKind::Unavailable, "CUDA cannot run here: " + inv.status.message());
        }
        if (inv.devices.empty())
            return Status::error(ErrorKind::Unavailable,
                                 "there is no CUDA GPU on this machine (the NVIDIA driver found no device); use "
                                 "--backend cpu or auto for the CPU emulator");
        return Status::ok();
    }();
    return status;
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
