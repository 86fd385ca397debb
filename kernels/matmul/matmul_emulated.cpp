#include "matmul_emulated.h"

#include "../emulator/emulate.h"
#include "matmul_body.h"

namespace cvz {

namespace {

template <unsigned TILE>
Status run_tiled(const MatmulProblem& p, const MatmulLaunch& l, EmuOptions o) {
    o.barriers = true;
    o.shared_bytes = l.shared_bytes();
    const TiledOptions t{l.second_barrier};
    return emulate(matmul_grid(l, p.m, p.n), l.block_shape(), o,
                   [&p, t](const EmuContext& ctx) { matmul_tiled<TILE>(ctx, p, t); });
}

}  // namespace

Status matmul_emulated(const MatmulProblem& p, const MatmulLaunch& l, const EmuOptions& options) {
    if (std::string e = validate_matmul_launch(l, p.m, p.k, p.n); !e.empty()) return Status::error(ErrorKind::InvalidInput, e);
    if (l.kernel == MatmulKernel::Naive)
        return emulate(matmul_grid(l, p.m, p.n), l.block, options, [&p](const EmuContext& ctx) { matmul_naive(ctx, p); });
    switch (l.tile) {
        case 8: return run_tiled<8>(p, l, options);
        case 16: return run_tiled<16>(p, l, options);
        default: return run_tiled<32>(p, l, options);
    }
}

}  // namespace cvz
