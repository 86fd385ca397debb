#include "matmul_emulated.h"

#include <algorithm>

#include "../emulator/emulate.h"
#include "matmul_variants.h"

namespace cvz {

Status matmul_emulated(const MatmulProblem& p, const MatmulLaunch& l, const EmuOptions& options) {
    if (std::string e = validate_matmul_launch(l, p.m, p.k, p.n); !e.empty()) return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 grid = matmul_grid(l, p.m, p.n), block = l.block_shape();
    const MatmulRunOptions run{l.second_barrier};
    return with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o = options;
        o.barriers = o.barriers || Body::barriers;
        o.shared_bytes = std::max(o.shared_bytes, Body::shared_bytes(block));
        return emulate(grid, block, o, [&p, run](const EmuContext& ctx) { Body::run(ctx, p, run); });
    });
}

}  // namespace cvz
