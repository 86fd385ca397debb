#include "kernel_catalogue.h"

#include "family_descriptor.h"

namespace cvz {

namespace {

std::vector<KernelInfo> build_catalogue() {
    std::vector<KernelInfo> all;
    for (const FamilyDescriptor& d : kernel_families()) {
        const std::vector<KernelInfo>& entries = d.catalogue();
        all.insert(all.end(), entries.begin(), entries.end());
    }
    return all;
}

const std::vector<KernelInfo>& no_entries() {
    static const std::vector<KernelInfo> none;
    return none;
}

}  // namespace

const std::vector<KernelInfo>& kernel_catalogue() {
    static const std::vector<KernelInfo> all = build_catalogue();
    return all;
}

const std::vector<KernelInfo>& family_catalogue(KernelFamily family) {
    const FamilyDescriptor* d = family_descriptor(family);
    return d ? d->catalogue() : no_entries();
}

const KernelInfo* find_kernel(KernelFamily family, const std::string& name) {
    for (const KernelInfo& k : family_catalogue(family))
        if (k.name == name) return &k;
    return nullptr;
}

const KernelInfo* kernel_info(KernelFamily family, std::uint8_t variant) {
    const std::vector<KernelInfo>& all = family_catalogue(family);
    return variant < all.size() ? &all[variant] : nullptr;
}

std::string kernel_names(KernelFamily family) {
    std::string names;
    for (const KernelInfo& k : family_catalogue(family)) names += (names.empty() ? "" : ", ") + k.name;
    return names;
}

std::vector<KernelRef> compiled_kernels() {
    std::vector<KernelRef> refs;
    for (const KernelInfo& k : kernel_catalogue()) {
        if (k.tiles.empty()) refs.push_back(k.ref());
        for (unsigned t : k.tiles) refs.push_back(k.ref(t));
    }
    return refs;
}

std::string to_string(const KernelRef& ref) {
    const KernelInfo* info = kernel_info(ref);
    if (!info) return std::string(to_string(ref.family)) + " variant " + std::to_string(int(ref.variant));
    return info->tiles.empty() ? info->name : info->name + " TILE=" + std::to_string(ref.tile);
}

Status table_kernel_resources(const KernelRef& ref, KernelResources* out) {
    const FamilyDescriptor* d = family_descriptor(ref.family);
    if (!d) return Status::error(ErrorKind::InvalidInput, "there is no such kernel family");
    return d->table_resources(ref.variant, ref.tile, out);
}

}  // namespace cvz
