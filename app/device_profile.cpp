#include "device_profile.h"

#include "kernels/cuda/cuda_devices.h"

namespace cvz {

namespace {

DeviceProfile make(const char* name, int major, int minor, int sms, int threads, int blocks, int shared_kib,
                   int shared_block_kib, int reserved) {
    DeviceProfile p;
    p.name = QString::fromLatin1(name);
    p.cc_major = major;
    p.cc_minor = minor;
    p.sm_count = sms;
    p.max_threads_per_sm = threads;
    p.max_blocks_per_sm = blocks;
    p.shared_per_sm = shared_kib * 1024;
    p.shared_per_block_max = shared_block_kib * 1024;
    p.shared_reserved_per_block = reserved;
    return p;
}

}  // namespace

QList<DeviceProfile> builtin_device_profiles() {
    // name, cc, SMs, threads/SM, blocks/SM, shared KiB/SM, shared KiB/block, reserved bytes/block
    return {
        make("H200 SXM (sm_90)", 9, 0, 132, 2048, 32, 228, 227, 1024),
        make("H100 SXM (sm_90)", 9, 0, 132, 2048, 32, 228, 227, 1024),
        make("A100 SXM (sm_80)", 8, 0, 108, 2048, 32, 164, 163, 1024),
        make("RTX 4090 (sm_89)", 8, 9, 128, 1536, 24, 100, 99, 1024),
        make("RTX 3090 (sm_86)", 8, 6, 82, 1536, 16, 100, 99, 1024),
        make("T4 (sm_75)", 7, 5, 40, 1024, 16, 64, 64, 0),
    };
}

std::optional<DeviceProfile> find_device_profile(const QString& name) {
    for (const DeviceProfile& p : builtin_device_profiles())
        if (p.name == name || p.name.startsWith(name + QLatin1Char(' '))) return p;
    return std::nullopt;
}

std::optional<DeviceProfile> cuda_device_profile(int index) {
    const CudaInventory inv = query_cuda_devices();
    for (const CudaDeviceInfo& d : inv.devices) {
        if (d.index != index) continue;
        DeviceProfile p;
        p.name = QString::fromStdString(d.name);
        p.cc_major = d.cc_major;
        p.cc_minor = d.cc_minor;
        p.sm_count = d.sm_count;
        p.max_threads_per_sm = d.max_threads_per_sm;
        p.max_blocks_per_sm = d.max_blocks_per_sm;
        p.regs_per_sm = d.regs_per_sm;
        p.shared_per_sm = int(d.shared_mem_per_sm);
        p.shared_per_block_max = int(d.shared_mem_per_block);
        p.shared_reserved_per_block = d.cc_major >= 8 ? 1024 : 0;
        p.warp_size = d.warp_size;
        p.measured = true;
        return p;
    }
    return std::nullopt;
}

}  // namespace cvz
