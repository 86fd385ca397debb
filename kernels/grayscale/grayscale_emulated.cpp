#include "grayscale_emulated.h"

#include "../emulator/emulate.h"
#include "grayscale_body.h"
#include "grayscale_launch.h"

namespace cvz {

Status grayscale_emulated(const GrayscaleImage& im, const LaunchShape& shape, const EmuOptions& options) {
    if (std::string e = validate_grayscale_launch(shape, im.width, im.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 grid = grayscale_grid(shape, im.width, im.height);
    if (shape.kind == GridKind::OneD)
        return emulate(grid, shape.block, options, [&im](const EmuContext& ctx) { grayscale_1d(ctx, im); });
    return emulate(grid, shape.block, options, [&im](const EmuContext& ctx) { grayscale_2d(ctx, im); });
}

}  // namespace cvz
