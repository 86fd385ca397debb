#include "app/models/kernel_resources.h"

#include <map>
#include <mutex>
#include <tuple>

#include "app/jobs/backend_choice.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/cuda/occupancy_api.h"

namespace cvz {

namespace {

struct RefLess {
    bool operator()(const KernelRef& a, const KernelRef& b) const {
        return std::tie(a.family, a.variant, a.tile) < std::tie(b.family, b.variant, b.tile);
    }
};

}  // namespace

KernelResources kernel_resources(const KernelRef& ref) {
    static std::mutex mutex;
    static std::map<KernelRef, KernelResources, RefLess> known;
    std::lock_guard lock(mutex);
    if (auto it = known.find(ref); it != known.end()) return it->second;
    KernelResources r;
    if (!cuda_device_available() || !cuda_kernel_resources(ref, &r)) {
        r = KernelResources{};
        (void)table_kernel_resources(ref, &r);
    }
    known.emplace(ref, r);
    return r;
}

BlockResources block_resources(const KernelRef& ref, Dim3 block, std::size_t dynamic_shared_bytes) {
    const KernelResources k = kernel_resources(ref);
    return {int(block.volume()), k.registers, k.static_shared_bytes + int(dynamic_shared_bytes)};
}

}  // namespace cvz
