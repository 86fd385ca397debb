#include "app/user/user_variants.h"

#include <algorithm>
#include <mutex>

#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<UserVariantPtr> entries;  // every family's, in registration order
    // Entries replaced or removed stay alive here: a KernelInfo pointer handed out must not dangle.
    std::vector<UserVariantPtr> retired;
    unsigned next[256] = {};              // per family: the next variant number past kFirstUserVariant
};

Registry& registry() {
    static Registry r;
    return r;
}

KernelInfo info_of(const UserVariant& v) {
    KernelInfo k;
    k.family = v.ref.family;
    k.variant = v.ref.variant;
    k.name = v.title();
    k.title = "your kernel " + v.name + " (" + v.source.name + ")";
    k.label = "yours";
    k.block = v.one_d ? BlockRule::OneD : BlockRule::TwoD;
    k.exact = false;  // compared with the reference within the family's tolerance, not bit for bit
    k.barriers = v.barriers;
    return k;
}

}  // namespace

UserVariantPtr register_user_variant(KernelFamily family, UserVariant variant) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    auto same = std::find_if(r.entries.begin(), r.entries.end(), [&](const UserVariantPtr& e) {
        return e->ref.family == family && e->name == variant.name;
    });
    if (same != r.entries.end()) {
        variant.ref = (*same)->ref;
    } else {
        const auto live = [&](unsigned slot) {
            return std::any_of(r.entries.begin(), r.entries.end(), [&](const UserVariantPtr& e) {
                return e->ref.family == family && e->ref.variant == kFirstUserVariant + slot;
            });
        };
        unsigned count = 0;
        for (const UserVariantPtr& e : r.entries) count += e->ref.family == family;
        if (count >= kMostUserVariants) return nullptr;
        // Numbers go round the whole range before one comes back: a stale choice of a removed kernel
        // finds nothing (or, long after, another kernel of yours), never a built-in.
        unsigned& next = r.next[unsigned(family)];
        while (live(next % kUserVariantSlots)) ++next;
        variant.ref = KernelRef{family, std::uint8_t(kFirstUserVariant + next % kUserVariantSlots), 0};
        ++next;
    }
    variant.info = info_of(variant);
    auto entry = std::make_shared<const UserVariant>(std::move(variant));
    if (same != r.entries.end()) {
        r.retired.push_back(*same);
        *same = entry;
    } else {
        r.entries.push_back(entry);
    }
    return entry;
}

UserVariantPtr user_variant(const KernelRef& ref) {
    if (!is_user_ref(ref)) return nullptr;
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (const UserVariantPtr& e : r.entries)
        if (e->ref.family == ref.family && e->ref.variant == ref.variant) return e;
    return nullptr;
}

std::vector<UserVariantPtr> user_variants(KernelFamily family) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<UserVariantPtr> out;
    for (const UserVariantPtr& e : r.entries)
        if (e->ref.family == family) out.push_back(e);
    return out;
}

UserVariantPtr find_user_variant(KernelFamily family, const std::string& name) {
    for (const UserVariantPtr& e : user_variants(family))
        if (e->name == name) return e;
    return nullptr;
}

void remove_user_variant(const KernelRef& ref) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    auto it = std::find_if(r.entries.begin(), r.entries.end(), [&](const UserVariantPtr& e) {
        return e->ref.family == ref.family && e->ref.variant == ref.variant;
    });
    if (it == r.entries.end()) return;
    r.retired.push_back(*it);
    r.entries.erase(it);
}

void set_user_variant_resources(const KernelRef& ref, const KernelResources& resources) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (UserVariantPtr& e : r.entries)
        if (e->ref.family == ref.family && e->ref.variant == ref.variant) {
            UserVariant copy = *e;
            copy.resources = resources;
            r.retired.push_back(e);
            e = std::make_shared<const UserVariant>(std::move(copy));
            return;
        }
}

const KernelInfo* any_kernel_info(const KernelRef& ref) {
    if (!is_user_ref(ref)) return kernel_info(ref);
    const UserVariantPtr v = user_variant(ref);
    return v ? &v->info : nullptr;  // kept alive by the registry, retired entries included
}

std::string kernel_ref_text(const KernelRef& ref) {
    if (!is_user_ref(ref)) return to_string(ref);
    const UserVariantPtr v = user_variant(ref);
    return v ? v->title() : "a removed kernel of yours";
}

}  // namespace cvz
