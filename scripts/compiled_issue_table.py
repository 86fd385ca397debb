#!/usr/bin/env python3
"""The compiled matmul kernels' issue figures for the performance model (app/models/compiled_issue.cpp), from
Nsight Compute's details pages at two calibration sizes (scripts/ncu_issue_profiles.sh):

  scripts/compiled_issue_table.py DIR     (DIR holds NAME-1280.details.csv and NAME-2048.details.csv)

For each kernel it prints
- the warp instructions a warp executes: per step of K and once (a line through the two sizes'
  Executed Instructions / warps: the counts are exact, so the line is too);
- the shared-memory load wavefronts per warp and step of K (2048^3);
- how its warps issue: IPC per scheduler = U * (1 - (1 - p/U)^W), for the busiest SM (the one whose
  time is the kernel's, as in the model): W its resident warps per scheduler and IPC the rate at which
  its schedulers issued its instructions over the launch's Elapsed Cycles (its blocks, round-robin over
  the SMs, times the warps and instructions per warp). Not Nsight Compute's own IPC, which is per active
  cycle and averaged over the SMs: where some SMs have fewer blocks, or none (1280^3's 100 blocks on 132
  SMs), the busiest SM sets the time and the average overstates its rate (warptile 0.293 a clock per
  active cycle, 0.257 over the elapsed ones). p is how often one warp alone is ready (1/p its cycles
  per instruction), U the most the scheduler issues of this kernel's mix. Both are solved from the two sizes when their W differ by 1.5x or more; else U = 1
  and p comes from 2048^3 alone (the sizes cannot tell p and U apart).
"""
import csv
import os
import sys

KERNELS = ['naive', 'tiled8', 'tiled16', 'tiled32', 'blocktile_1d', 'blocktile_2d', 'blocktile_vec', 'warptile',
           'double_buffer', 'split_k', 'tf32', 'tf32x3', 'tf32_wgmma', 'tf32x3_wgmma']


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
            per_warp = g('Executed Instructions') / warps
            # The busiest SM: the blocks it runs (round-robin over the SMs), its resident warps per
            # scheduler, and the rate at which its schedulers must have issued its instructions over the
            # launch's elapsed cycles (the kernel's time is this SM's).
            sms = g('# SMs')
            warps_per_block = g('Block Size') / 32
            per_sm_limit = min(g('Block Limit Registers'), g('Block Limit Shared Mem'), g('Block Limit Warps'),
                               g('Block Limit SM'))
            on_sm = -(-g('Grid Size') // sms)
            w = min(on_sm, per_sm_limit) * warps_per_block / 4
            ipc = on_sm * warps_per_block * per_warp / 4 / g('Elapsed Cycles')
            pts.append((s, per_warp, w, ipc, g('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum') / warps / s,
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
