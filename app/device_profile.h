#pragma once
#include <QList>
#include <QString>

#include <optional>

namespace cvz {

// The per-SM limits of a GPU that decide occupancy, from NVIDIA's CUDA C++ Programming Guide
// ("Technical Specifications per Compute Capability") and each product's SM count.
struct DeviceProfile {
    QString name;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int regs_per_sm = 65536;
    int reg_alloc_unit = 256;          // registers are allocated per warp in units of this many
    int max_regs_per_thread = 255;
    int shared_per_sm = 0;             // bytes usable by blocks (the largest carveout)
    int shared_per_block_max = 0;      // bytes, opt-in maximum
    int shared_alloc_unit = 128;       // bytes
    int shared_reserved_per_block = 0; // bytes the system reserves per block (1 KiB from cc 8.0)
    int warp_size = 32;
    bool measured = false;             // true when filled from the CUDA runtime, not the tables

    int max_warps_per_sm() const { return max_threads_per_sm / warp_size; }
    QString compute_capability() const { return QStringLiteral("%1.%2").arg(cc_major).arg(cc_minor); }
};

// H100/H200 SXM, A100, RTX 4090, RTX 3090 (the lecture's card), T4.
QList<DeviceProfile> builtin_device_profiles();
std::optional<DeviceProfile> find_device_profile(const QString& name);

// The profile of CUDA device `index` from the runtime's properties, when there is one.
std::optional<DeviceProfile> cuda_device_profile(int index = 0);

}  // namespace cvz
