#!/usr/bin/env python3
"""The compiled matmul kernels' issue figures for the performance model (app/compiled_issue.cpp), from
Nsight Compute's details pages at two calibration sizes (scripts/ncu_issue_profiles.sh):

  scripts/compiled_issue_table.py DIR     (DIR holds NAME-1280.details.csv and NAME-2048.details.csv)

For each kernel it prints
- the warp instructions a warp executes: per step of K and once (a line through the two sizes'
  Executed Instructions / warps: the counts are exact, so the line is too);
- the shared-memory load wavefronts per warp and step of K (2048^3);
- how its warps issue: IPC per scheduler = U * (1 - (1 - p/U)^W) with W the resident warps per
  scheduler (Active Warps Per Scheduler) and IPC the instructions issued per scheduler per active cycle
(Avg. Issued Instructions Per Scheduler / SM Active Cycles, Issued Warp Per Scheduler unrounded): p is how
  often one warp alone is ready (1/p its cycles per instruction), U the most the scheduler issues of
  this kernel's mix. Both are solved from the two sizes when their W differ by 1.5x or more; else U = 1
  and p comes from 2048^3 alone (the sizes cannot tell p and U apart).
"""
import csv
import os
import sys

KERNELS = ['naive', 'tiled8', 'tiled16', 'tiled32', 'blocktile_1d', 'blocktile_2d', 'blocktile_vec', 'warptile',
           'double_buffer']


def load(path):
    d = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            d.setdefault(r['Metric Name'], r['Metric Value'])
    return lambda k: float(d[k].replace(',', ''))


def rate(w, p, u):
    return u * (1 - (1 - p / u) ** w)


def p_for(w, ipc, u):
    return u * (1 - (1 - ipc / u) ** (1 / w))


def fit(w1, i1, w2, i2):
    if max(w1, w2) < 1.5 * min(w1, w2):
        return p_for(w2, i2, 1.0), 1.0
    lo, hi = max(i1, i2) * 1.0001, 1.0
    # rate(w1) falls as U grows (from U itself near the larger IPC to the U = 1 curve's)
    if rate(w1, p_for(w2, i2, hi), hi) >= i1:  # the U = 1 curve already issues enough at w1: no ceiling
        return p_for(w2, i2, 1.0), 1.0
    for _ in range(200):
        u = (lo + hi) / 2
        if rate(w1, p_for(w2, i2, u), u) > i1:
            lo = u
        else:
            hi = u
    u = (lo + hi) / 2
    return p_for(w2, i2, u), u


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else '.'
    print('kernel          instr/k  fixed  shared_wf/k     p      U    W(1280) ipc   W(2048) ipc   SM GHz')
    for n in KERNELS:
        pts = []
        for s in (1280, 2048):
            f = os.path.join(d, f'{n}-{s}.details.csv')
            if not os.path.exists(f):
                break
            g = load(f)
            warps = g('Threads') / 32
            pts.append((s, g('Executed Instructions') / warps, g('Active Warps Per Scheduler'),
                        g('Avg. Issued Instructions Per Scheduler') / g('SM Active Cycles'), g('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum') / warps / s,
                        g('SM Frequency')))
        if len(pts) < 2:
            print(f'{n}: missing')
            continue
        (s1, n1, w1, i1, _, f1), (s2, n2, w2, i2, wf2, f2) = pts
        per_k = (n2 - n1) / (s2 - s1)
        fixed = n2 - per_k * s2
        p, u = fit(w1, i1, w2, i2)
        print(f'{n:14s} {per_k:8.3f} {fixed:6.0f} {wf2:10.3f} {p:8.4f} {u:6.3f}   {w1:5.2f} {i1:.3f}   {w2:5.2f} {i2:.3f}   {f1:.2f}/{f2:.2f}')


if __name__ == '__main__':
    main()
