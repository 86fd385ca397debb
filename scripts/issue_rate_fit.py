#!/usr/bin/env python3
"""Fits a compiled kernel's issue rate (app/models/compiled_issue.h: one warp alone ready a share `ready`
of the cycles, at most `ceiling` a clock per scheduler) to measured times of calibration sweeps:

    scripts/issue_rate_fit.py PRED_DIR KERNEL MEASURED.json...

PRED_DIR holds the same sweeps predicted by the model with that kernel's ready = ceiling = 1 (its issue
term is then its instructions at one a clock per scheduler). Each row's issue term is divided by the
rate at its busiest SM's resident warps per scheduler; the row's time is the launch, the larger of that
and its other terms, and what the waves' composition added before. Prints the (ready, ceiling) with
the least median |error| over the rows of KERNEL, on a grid. Plain Python.
"""
import json
import math
import os
import sys

SMS, WARPS_PER_SM, SCHEDULERS = 132, 64, 4


def rate(w, p, u):
    return u * (1 - (1 - p / u) ** w) if w > 0 else 0


def problem_blocks(doc, row):
    """The launch's blocks: from the problem's size and the row's block (a convolution or grayscale 2-D launch)."""
    return row.get('blocks')


def rows_of(measured, pred_dir, kernel):
    out = []
    for path in measured:
        doc = json.load(open(path))
        pred = json.load(open(os.path.join(pred_dir, os.path.basename(path))))
        by = {(r['kernel'], r['block'], r.get('tile')): r for r in pred['rows']}
        size = doc['problem'].split(' ')[0]
        width, height = (int(x) for x in size.split('x'))
        for r in doc['rows']:
            if r['kernel'] != kernel or r.get('measured_us') is None:
                continue
            p = by.get((r['kernel'], r['block'], r.get('tile')))
            if not p or p.get('predicted_us') is None:
                continue
            bx, by_ = (int(x) for x in r['block'].split('x'))
            wpb = math.ceil(bx * by_ / 32)
            blocks = math.ceil(width / bx) * math.ceil(height / by_)
            bps = max(1, round(p['occupancy'] * WARPS_PER_SM / wpb))
            on_sm = min(bps, math.ceil(blocks / SMS))
            terms = dict(p['terms'])
            launch = terms.pop('launch')
            issue = terms.pop('issue')
            others = max(terms.values())
            residual = p['predicted_us'] - launch - max(issue, others)
            out.append({'w': on_sm * wpb / SCHEDULERS, 'issue': issue, 'others': others, 'launch': launch,
                        'residual': residual, 'measured': r['measured_us']})
    return out


def median(v):
    s = sorted(v)
    n = len(s)
    return (s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2) if n else float('nan')


def errors(rows, p, u):
    e = []
    for r in rows:
        t = r['launch'] + max(r['issue'] / rate(r['w'], p, u), r['others']) + r['residual']
        e.append(t / r['measured'] - 1)
    return e


def main(argv):
    pred_dir, kernel, measured = argv[1], argv[2], argv[3:]
    rows = rows_of(measured, pred_dir, kernel)
    best = None
    for ui in range(20, 101):
        u = ui / 100
        for pi in range(1, 200):
            p = u * pi / 200
            m = median([abs(x) for x in errors(rows, p, u)])
            if best is None or m < best[0]:
                best = (m, p, u)
    m, p, u = best
    e = errors(rows, p, u)
    print(f"{kernel}: {len(rows)} rows; ready {p:.4f}, ceiling {u:.2f}: median |error| {100 * m:.1f}%, "
          f"median error {100 * median(e):+.1f}%, within 20% {sum(abs(x) <= 0.2 for x in e)}/{len(e)}")
    return p, u


if __name__ == '__main__':
    main(sys.argv)
