#pragma once
// User kernels as variants of their family (issue 27): the app's registry. A user kernel is named by a
// KernelRef like a built-in, with a variant number past the family's table (kFirstUserVariant and up),
// so that the launch panel, the sessions, the sweep and the ladder carry it in the same LaunchChoice
// the built-ins use. The kernels layer's catalogue knows nothing of them: ask here, by ref.
// Listed as "yours: NAME". Safe from any thread; entries are immutable once made (a new compile of the
// same name replaces its entry under the same ref, so a chooser's selection survives it).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/kernel_variant.h"
#include "kernels/core/variant_dispatch.h"
#include "kernels/user/user_kernel.h"

namespace cvz {

// Variant numbers from here on are user kernels; the built-in tables stay far below it.
constexpr std::uint8_t kFirstUserVariant = 128;
constexpr unsigned kUserVariantSlots = 256 - kFirstUserVariant;
constexpr unsigned kMostUserVariants = 100;  // registered at once, per family

struct UserVariant {
    KernelRef ref;
    std::string name;                    // the __global__ function's name
    user::SourceFile source;             // the text it was compiled from
    user::KernelSignature signature;
    std::string form;                    // the family's call form it fits (CallForm::id)
    bool one_d = false;                  // the form launches 1-D blocks
    bool barriers = false;               // calls __syncthreads()
    // From the NVRTC compile (ptxas -v) when there was one: the occupancy model's inputs.
    std::optional<KernelResources> resources;
    KernelInfo info;                     // as the catalogue would list it: name "yours: NAME", label "yours"

    std::string title() const { return user_variant_title(name); }
    static std::string user_variant_title(const std::string& name) { return "yours: " + name; }
};

using UserVariantPtr = std::shared_ptr<const UserVariant>;

// Whether `ref` names a user kernel (registered or not).
constexpr bool is_user_ref(const KernelRef& ref) { return ref.variant >= kFirstUserVariant; }

// Registers the kernel (or replaces the family's entry of the same name, keeping its ref) and returns
// it; null when the family already holds kMostUserVariants others. `variant.ref` and `variant.info`
// are filled in here.
UserVariantPtr register_user_variant(KernelFamily family, UserVariant variant);
// The entry of `ref`, or null.
UserVariantPtr user_variant(const KernelRef& ref);
// The family's user kernels in registration order.
std::vector<UserVariantPtr> user_variants(KernelFamily family);
// The entry of `family` called `name`, or null.
UserVariantPtr find_user_variant(KernelFamily family, const std::string& name);
// Forgets `ref`; its number comes back only after the family's other free numbers were used (a stale
// LaunchChoice then finds nothing).
void remove_user_variant(const KernelRef& ref);
// Records the NVRTC compile's resources of `ref` (a new entry replaces the old one).
void set_user_variant_resources(const KernelRef& ref, const KernelResources& resources);

// The catalogue entry of a built-in or a user kernel: kernel_info(ref), or the user entry's `info`.
// Null for neither. The pointer stays valid while the entry is registered.
const KernelInfo* any_kernel_info(const KernelRef& ref);
// "yours: NAME" for a user kernel, the catalogue's to_string(ref) for a built-in.
std::string kernel_ref_text(const KernelRef& ref);

}  // namespace cvz
