#pragma once
// Whether the GPU cases can run here: the first CUDA device, or the reason there is none (the text
// their QSKIP shows). Printed once by the test's initTestCase.
#include <QString>
#include <QtGlobal>

#include <cstdint>

#include "kernels/cuda/cuda_devices.h"

namespace cvz::test {

struct CudaProbe {
    bool has_device = false;
    QString no_device;  // why there is none
    std::uint64_t device_bytes = 0;
};

inline CudaProbe probe_cuda_device() {
    CudaProbe p;
    const CudaInventory inv = query_cuda_devices();
    p.has_device = inv.status.is_ok() && !inv.devices.empty();
    if (p.has_device) {
        const CudaDeviceInfo& d = inv.devices.front();
        p.device_bytes = d.global_mem_bytes;
        qInfo("CUDA device 0: %s, compute capability %d.%d, %d SMs, %.1f GiB; runtime %d, driver %d", d.name.c_str(),
              d.cc_major, d.cc_minor, d.sm_count, double(d.global_mem_bytes) / (1u << 30), inv.runtime_version,
              inv.driver_version);
    } else {
        p.no_device = "no CUDA device: " + QString::fromStdString(inv.status.is_ok() ? "none found" : inv.status.message());
        qInfo("%s", qPrintable(p.no_device));
    }
    return p;
}

}  // namespace cvz::test
