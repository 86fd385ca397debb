#pragma once
// The dispatcher for code that holds a KernelRef of any family (the occupancy API, the register
// table): the one switch on the family, then the family's own dispatcher.
#include <utility>

#include "../grayscale/grayscale_variants.h"
#include "../matmul/matmul_variants.h"

namespace cvz {

// f(Body{}) with the body of `ref`; the family's dispatcher's errors for an unknown variant or TILE.
template <class F>
Status with_kernel(const KernelRef& ref, F&& f) {
    switch (ref.family) {
        case KernelFamily::Grayscale: return with_grayscale_variant(GrayscaleVariant(ref.variant), std::forward<F>(f));
        case KernelFamily::Matmul: return with_matmul_variant(MatmulVariant(ref.variant), ref.tile, std::forward<F>(f));
    }
    return Status::error(ErrorKind::InvalidInput, "there is no such kernel family");
}
}  // namespace cvz
