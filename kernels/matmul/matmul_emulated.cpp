#include "matmul_emulated.h"

#include <algorithm>
#include <vector>

#include "../emulator/emulate.h"
#include "matmul_variants.h"

namespace cvz {

Status matmul_emulated(const MatmulProblem& p, const MatmulLaunch& l, const EmuOptions& options) {
    if (std::string e = validate_matmul_launch(l, p.m, p.k, p.n); !e.empty()) return Status::error(ErrorKind::InvalidInput, e);
    const Dim3 grid = matmul_grid(l, p.m, p.n), block = l.block_shape();
    const MatmulRunOptions run{l.second_barrier};
    std::vector<float> workspace;
    MatmulProblem q = p;
    if (const std::size_t floats = matmul_workspace_floats(l, p.m, p.n); floats > 0 && !q.partials) {
        workspace.resize(floats);
        q.partials = workspace.data();
    }
    Status s = with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        EmuOptions o = options;
        o.barriers = o.barriers || Body::barriers;
        o.shared_bytes = std::max(o.shared_bytes, Body::shared_bytes(block));
        return emulate(grid, block, o, [&q, run](const EmuContext& ctx) { Body::run(ctx, q, run); });
    });
    if (s && grid.z > 1) {
        EmuOptions o;  // the second pass: no barriers, no schedule (a recorded schedule is the first pass's)
        o.host_threads = options.host_threads;
        s = emulate_split_k_reduce(q, grid.z, o);
    }
    return s;
}

Status emulate_split_k_reduce(const MatmulProblem& p, unsigned slices, const EmuOptions& options) {
    const Dim3 grid{unsigned(cdiv(std::uint64_t(p.m) * p.n, kSplitKReduceThreads)), 1, 1};
    return emulate(grid, Dim3{kSplitKReduceThreads, 1, 1}, options,
                   [&p, slices](const EmuContext& ctx) { matmul_split_k_reduce(ctx, p, slices); });
}

}  // namespace cvz
