#pragma once
// A kernel family as the kernels layer knows it: what the generic code (the catalogue, the register
// table, the occupancy API, the memory figures' notes) asks of a family, without knowing which one
// it is. Each family defines a trait struct in its own folder (kernels/<family>/<family>_family.h:
// id, name, problem, Variant, Variants, catalogue(), kernel_address(), counter_note()), and
// kernels/catalogue/families.h lists the traits; the descriptors below are made from that list.
#include <cstdint>
#include <string>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/status.h"
#include "../core/variant_dispatch.h"

namespace cvz {

struct FamilyDescriptor {
    KernelFamily id = KernelFamily::Grayscale;
    const char* name = "";     // its folder's name (kernels/<name>/), the CLI's command, the JSON's spelling
    const char* problem = "";  // the name of the problem type a launch takes
    const std::vector<KernelInfo>& (*catalogue)() = nullptr;  // its variants, in table order
    // Registers and static shared bytes of a compiled kernel from the family's table (each body's `ptxas`).
    Status (*table_resources)(std::uint8_t variant, unsigned tile, KernelResources* out) = nullptr;
    // The GPU occupancy hook: the address of a variant's __global__ kernel (Unavailable without CUDA).
    Status (*kernel_address)(std::uint8_t variant, unsigned tile, const void** kernel) = nullptr;
    // The notes on its memory figures (gpu_counter_notes.h), by variant name.
    std::string (*counter_note)(const std::string& variant_name) = nullptr;
};

// Every family, in registration order (kernels/catalogue/families.h).
const std::vector<FamilyDescriptor>& kernel_families();
// The family `id`, or null; the family called `name`, or null.
const FamilyDescriptor* family_descriptor(KernelFamily id);
const FamilyDescriptor* family_descriptor(const std::string& name);

}  // namespace cvz
