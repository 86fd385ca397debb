#include "grayscale_emulated.h"

#include <algorithm>

#include "../emulator/emulate.h"
#include "grayscale_launch.h"
#include "grayscale_variants.h"

namespace cvz {

Status grayscale_emulated(const GrayscaleImage& im, const LaunchShape& shape, const EmuOptions& options) {
    if (std::string e = validate_grayscale_launch(shape, im.width, im.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    if (std::string e = validate_grayscale_layout(shape, im.layout); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 grid = grayscale_grid(shape, im.width, im.height);
    return with_grayscale_variant(shape.kind, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o = options;
        o.barriers = o.barriers || Body::barriers;
        o.shared_bytes = std::max(o.shared_bytes, Body::shared_bytes(shape.block));
        // `im` by value: the emulator runs a private copy of the body, so its fields stay in registers
        // instead of being re-read after every byte stored (a byte may alias anything).
        return emulate(grid, shape.block, o, [im](const EmuContext& ctx) { Body::run(ctx, im); });
    });
}

}  // namespace cvz
