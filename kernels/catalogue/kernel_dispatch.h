#pragma once
// The dispatcher for code that holds a KernelRef of any family (the register table, the tests): the
// family's trait found in the registered list (families.h), then the family's own dispatcher.
#include <utility>

#include "families.h"

namespace cvz {

namespace detail {
template <class... Families, class F>
Status with_kernel_in(FamilyList<Families...>, const KernelRef& ref, F& f) {
    Status s = Status::error(ErrorKind::InvalidInput, "there is no such kernel family");
    ((Families::id == ref.family ? (s = with_family_variant<Families>(ref.variant, ref.tile, f), true) : false) || ...);
    return s;
}
}  // namespace detail

// f(Body{}) with the body of `ref`; the family's dispatcher's errors for an unknown variant or TILE.
template <class F>
Status with_kernel(const KernelRef& ref, F&& f) {
    return detail::with_kernel_in(KernelFamilies{}, ref, f);
}

}  // namespace cvz
