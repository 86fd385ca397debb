#include "backend_report.h"

namespace cvz::cli {

namespace {

// CUDA encodes versions as 1000 * major + 10 * minor: 13000 is "13.0".
QString cuda_version(int v) { return QString("%1.%2").arg(v / 1000).arg((v % 1000) / 10); }

QString gib(std::uint64_t bytes) { return QString::number(double(bytes) / double(1ull << 30), 'f', 1) + " GiB"; }

QString device_line(const CudaDeviceInfo& d) {
    return QString("    [%1] %2 · compute capability %3.%4 · %5 SMs · %6\n")
        .arg(d.index)
        .arg(QString::fromStdString(d.name))
        .arg(d.cc_major)
        .arg(d.cc_minor)
        .arg(d.sm_count)
        .arg(gib(d.global_mem_bytes));
}

}  // namespace

QString emulator_report(unsigned host_threads) {
    return QString("  CPU emulator: available · %1 host thread%2\n")
        .arg(host_threads)
        .arg(host_threads == 1 ? "" : "s");
}

QString cuda_report(const CudaInventory& inv) {
    if (!inv.built_with_cuda) return "  CUDA: not available: this cudaviz was built without the CUDA toolkit\n";
    const QString versions =
        QString("runtime %1, driver %2").arg(cuda_version(inv.runtime_version), cuda_version(inv.driver_version));
    if (!inv.status)
        return "  CUDA: not available: " + QString::fromStdString(inv.status.message()) + " (" + versions + ")\n";
    if (inv.devices.empty()) return "  CUDA: no device found (" + versions + ")\n";
    QString text = QString("  CUDA: %1 device%2 (%3)\n")
                       .arg(inv.devices.size())
                       .arg(inv.devices.size() == 1 ? "" : "s")
                       .arg(versions);
    for (const CudaDeviceInfo& d : inv.devices) text += device_line(d);
    return text;
}

}  // namespace cvz::cli
