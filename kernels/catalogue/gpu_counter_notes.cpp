#include "gpu_counter_notes.h"

#include "family_descriptor.h"

namespace cvz {

std::string gpu_counter_note(const std::string& name) {
    // Variant names are unique across families (tst_kernel_catalogue): the first family that knows it.
    for (const FamilyDescriptor& d : kernel_families())
        if (std::string note = d.counter_note(name); !note.empty()) return note;
    return {};
}

}  // namespace cvz
