#include "app/grayscale/grayscale_choice.h"

namespace cvz {

LaunchChoice grayscale_choice(const LaunchShape& shape) {
    LaunchChoice choice;
    const KernelInfo* info = kernel_info(KernelFamily::Grayscale, std::uint8_t(shape.kind));
    // A variant that takes a TILE runs TILE x TILE blocks: the TILE is the block's side.
    choice.ref = info ? info->ref(shape.block.x) : KernelRef{KernelFamily::Grayscale, std::uint8_t(shape.kind), 0};
    choice.block = shape.block;
    return choice;
}

LaunchShape grayscale_shape(const LaunchChoice& choice) {
    return LaunchShape::of(GrayscaleVariant(choice.ref.variant), launched_block(choice));
}

}  // namespace cvz
