#include "families.h"

#include "family_descriptor.h"

namespace cvz {

namespace {

template <class Family>
FamilyDescriptor describe() {
    FamilyDescriptor d;
    d.id = Family::id;
    d.name = Family::name;
    d.problem = Family::problem;
    d.catalogue = &Family::catalogue;
    d.table_resources = [](std::uint8_t variant, unsigned tile, KernelResources* out) {
        return with_family_variant<Family>(variant, tile, [out](auto body) {
            if (out) *out = decltype(body)::ptxas;
        });
    };
    d.kernel_address = &Family::kernel_address;
    d.counter_note = &Family::counter_note;
    return d;
}

std::vector<FamilyDescriptor> build() {
    std::vector<FamilyDescriptor> all;
    for_each_family(KernelFamilies{}, [&all](auto family) { all.push_back(describe<decltype(family)>()); });
    return all;
}

}  // namespace

const std::vector<FamilyDescriptor>& kernel_families() {
    static const std::vector<FamilyDescriptor> all = build();
    return all;
}

const FamilyDescriptor* family_descriptor(KernelFamily id) {
    for (const FamilyDescriptor& d : kernel_families())
        if (d.id == id) return &d;
    return nullptr;
}

const FamilyDescriptor* family_descriptor(const std::string& name) {
    for (const FamilyDescriptor& d : kernel_families())
        if (name == d.name) return &d;
    return nullptr;
}

const char* to_string(KernelFamily family) {
    const FamilyDescriptor* d = family_descriptor(family);
    return d ? d->name : "unknown";
}

}  // namespace cvz
