#include "convolution_emulated.h"

#include <algorithm>

#include "../emulator/emulate.h"
#include "convolution_variants.h"

namespace cvz {

Status convolution_emulated(const ConvolutionProblem& p, const ConvolutionLaunch& l, const EmuOptions& options) {
    if (std::string e = validate_convolution_launch(l, p.width, p.height, p.mask_side); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 grid = convolution_grid(l, p.width, p.height);
    return with_convolution_variant(l.kernel, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o = options;
        o.barriers = o.barriers || Body::barriers;
        o.shared_bytes = std::max(o.shared_bytes, Body::shared_bytes(l.block, p.mask_side));
        return emulate(grid, l.block, o, [&p](const EmuContext& ctx) { Body::run(ctx, p); });
    });
}

}  // namespace cvz
