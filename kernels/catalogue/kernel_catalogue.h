#pragma once
// The kernel catalogue: every family's variant table in one list, for the CLI (`cudaviz-cli kernels`),
// the panels, the sweep, the occupancy model and the tests that iterate every variant. Adding a
// variant touches its family folder only; adding a family registers it in families.h.
#include <string>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/status.h"
#include "../core/variant_dispatch.h"

namespace cvz {

// Every variant of every family, the families in registration order (families.h), each in its table's order.
const std::vector<KernelInfo>& kernel_catalogue();

// The variants of one family, in table order.
const std::vector<KernelInfo>& family_catalogue(KernelFamily family);

// The variant called `name` in `family`, or null.
const KernelInfo* find_kernel(KernelFamily family, const std::string& name);

// The entry of a variant, or null when the family has no such variant.
const KernelInfo* kernel_info(KernelFamily family, std::uint8_t variant);
inline const KernelInfo* kernel_info(const KernelRef& ref) { return kernel_info(ref.family, ref.variant); }

// The names of a family's variants, comma-separated, for messages that list the valid ones.
std::string kernel_names(KernelFamily family);

// Every compiled kernel: each variant once, or once per TILE for a variant that takes one.
std::vector<KernelRef> compiled_kernels();

// The variant's name, with " TILE=16" for a variant that takes one; "<family> variant 7" for a ref to nothing.
std::string to_string(const KernelRef& ref);

// Registers and static shared bytes of a compiled kernel as ptxas reports them for sm_90, from the
// family's table (each body's `ptxas`). The occupancy model uses them when there is no device to ask;
// tst_kernel_resources checks them against the build's `ptxas -v`. InvalidInput for an unknown
// variant or TILE.
Status table_kernel_resources(const KernelRef& ref, KernelResources* out);

}  // namespace cvz
