#!/usr/bin/env python3
"""The convolution kernels' compiled instruction counts for the performance model
(app/convolution/convolution_compiled_issue.cpp), from Nsight Compute's raw pages of the calibration
sweep (scripts/perf_model_sweeps.sh ... ncu: 1000x777, masks 3, 7 and 15, six blocks per variant):

    scripts/convolution_issue_fit.py sweeps/ncu/m3.csv sweeps/ncu/m7.csv sweeps/ncu/m15.csv

Per variant, a least-squares fit of the warp instructions a warp executes (smsp__inst_executed.sum over
the launch's warps) to the counts the model computes from the launch's geometry (convolution_warp_work in
convolution_prediction.cpp, written out again below):
    fixed + per_row * side + per_tap * side^2 + per_stage * staging iterations
          + per_shared_tap * taps where a lane reads the tile + per_global_tap * taps where a lane reads the halo
(the last three only where the variant has them). Prints the coefficients, each row's count against
the fit, and the busiest SM's issue rate per scheduler with its resident warps (the rate's model is
fitted on the calibration sweep's times, not here). Plain Python, no numpy.
"""
import csv
import math
import sys

VARIANTS = ['conv_naive', 'conv_constant', 'conv_tiled', 'conv_tiled_cached']


def features(variant, bx, by, side):
    """Per warp, averaged over an interior block's warps: [1, side, side^2, stage iterations, shared taps,
    halo taps]."""
    threads = bx * by
    warps = (threads + 31) // 32
    r = side // 2
    stage = shared = halo = 0.0
    for w in range(warps):
        lanes = range(32 * w, min(threads, 32 * w + 32))
        if variant == 'conv_tiled':
            tile = (bx + 2 * r) * (by + 2 * r)
            stage += max(0, math.ceil((tile - 32 * w) / threads))
        elif variant == 'conv_tiled_cached':
            stage += 1
            for i in range(side):
                for j in range(side):
                    ins = out = False
                    for t in lanes:
                        tx, ty = t % bx, t // bx
                        sy, sx = ty + i - r, tx + j - r
                        if 0 <= sy < by and 0 <= sx < bx:
                            ins = True
                        else:
                            out = True
                    shared += ins
                    halo += out
    return [1.0, side, side * side, stage / warps, shared / warps, halo / warps]


def used(variant):
    if variant in ('conv_naive', 'conv_constant'):
        return [0, 1, 2]
    if variant == 'conv_tiled':
        return [0, 1, 2, 3]
    return [0, 1, 2, 4, 5]


def lstsq(X, y):
    n = len(X[0])
    A = [[sum(X[k][i] * X[k][j] for k in range(len(X))) for j in range(n)] for i in range(n)]
    b = [sum(X[k][i] * y[k] for k in range(len(X))) for i in range(n)]
    for i in range(n):  # Gauss-Jordan
        p = max(range(i, n), key=lambda r: abs(A[r][i]))
        A[i], A[p] = A[p], A[i]
        b[i], b[p] = b[p], b[i]
        for r in range(n):
            if r != i and A[i][i]:
                f = A[r][i] / A[i][i]
                A[r] = [a - f * c for a, c in zip(A[r], A[i])]
                b[r] -= f * b[i]
    return [b[i] / A[i][i] for i in range(n)]


def load(path, side):
    rows = []
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    rd = csv.DictReader(lines)
    for r in rd:
        name = r.get('Kernel Name', '')
        if not name or name.startswith('"') or r.get('ID') == '':
            continue
        try:
            inst = float(r['smsp__inst_executed.sum'].replace(',', ''))
        except (KeyError, ValueError):
            continue
        def num(k):
            return float(r[k].replace(',', ''))
        dims = [int(x) for x in r.get('Block Size', '(0, 0, 0)').strip('()').split(',')]
        rows.append({'name': name, 'side': side, 'inst': inst, 'block': num('launch__block_size'),
                     'bx': dims[0], 'by': dims[1],
                     'grid': num('launch__grid_size'), 'sm_inst_max': num('sm__inst_executed.max'),
                     'cycles': num('sm__cycles_elapsed.max'), 'warps_active': num('smsp__warps_active.avg.per_cycle_active'),
                     'ns': num('gpu__time_duration.sum'), 'regs': num('launch__registers_per_thread')})
    return rows


def kernel_of(name):
    for v in ('conv_tiled_cached', 'conv_tiled', 'conv_constant', 'conv_naive'):
        tag = {'conv_naive': 'ConvNaive', 'conv_constant': 'ConvConstant', 'conv_tiled': 'ConvTiled',
               'conv_tiled_cached': 'ConvTiledCached'}[v]
        if tag.lower() in name.lower():
            return v
    return None


def fit_instructions(rows):
    """Per variant: the coefficients of the warp instructions, and each row against the fit."""
    out = {}
    for v in VARIANTS:
        data = []
        for r in rows:
            if r['variant'] != v:
                continue
            f = features(v, r['bx'], r['by'], r['side'])
            data.append(([f[i] for i in used(v)], r['inst_per_warp'], r))
        if not data:
            continue
        coef = lstsq([d[0] for d in data], [d[1] for d in data])
        full = [0.0] * 6
        for i, c in zip(used(v), coef):
            full[i] = c
        out[v] = full
        print(f"\n{v}: fixed {full[0]:.1f}, per row {full[1]:.2f}, per tap {full[2]:.3f}, per stage turn {full[3]:.2f}, "
              f"per tile tap {full[4]:.3f}, per halo tap {full[5]:.3f}")
        for x, y, r in data:
            fit = sum(a * b for a, b in zip(x, coef))
            print(f"  side {r['side']:2d} block {r['bx']:3d}x{r['by']:<3d} warp instructions {y:10.1f} fit {fit:10.1f} "
                  f"({100 * (fit / y - 1):+.1f}%)  rate/scheduler {r['rate']:.3f} at W {r['w']:.1f}  regs {r['regs']:.0f}")
    return out


def main(argv):
    import re
    rows = []
    for p in argv[1:]:
        side = int(re.search(r'm(\d+)\.csv', p).group(1))
        rows += load(p, side)
    # One launch per (kernel, block, side): the sweep's warm-up launches repeat the timed one.
    seen = {}
    for r in rows:
        v = kernel_of(r['name'])
        if v is None:
            continue
        r['variant'] = v
        seen[(v, r['block'], r['grid'], r['side'])] = r
    rows = sorted(seen.values(), key=lambda r: (r['variant'], r['side'], r['block']))
    for r in rows:
        warps = r['grid'] * math.ceil(r['block'] / 32)
        r['inst_per_warp'] = r['inst'] / warps
        # the busiest SM's issue rate per scheduler over the elapsed cycles, and its resident warps per scheduler
        r['rate'] = r['sm_inst_max'] / (4 * r['cycles'])
        r['w'] = r['warps_active']
    print(f"{len(rows)} profiled launches")
    return fit_instructions(rows)


if __name__ == '__main__':
    main(sys.argv)
