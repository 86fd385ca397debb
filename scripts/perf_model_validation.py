#!/usr/bin/env python3
"""Validation of the performance model (issue 15 item 4, issue 29 item 3) from `cudaviz-cli sweep ... --json` files.

    perf_model_validation.py [--predicted DIR] MEASURED.json...
    perf_model_validation.py --predict CLI DIR MEASURED.json...

The second form first predicts every MEASURED file again with the current model (CLI is a built
cudaviz-cli, run with --backend cpu into DIR/<same file name>), then compares as --predicted DIR does.
The problem is read off the file name, as scripts/perf_model_sweeps.sh names them: [cal_|again_]gray_WxH,
[cal_]matmul_MxKxN, [cal_]conv_WxH_mSIDE (masks of side 3 are box3, 5 gauss5, others any .npy of that side).

Each MEASURED file is a sweep run on the GPU (--backend cuda): its rows carry measured_us. With
--predicted DIR, the predictions are taken from DIR/<same file name> instead (a sweep of the same
problem run later with --backend cpu, e.g. after a change of the model), matched by kernel and block.
Prints, per file: the median and worst |predicted/measured - 1|, Spearman's rank correlation, whether
the shape predicted best is within 10% of the measured best, and the worst rows; for matmul, each
variant's best shape against its measured time and the variants' order. Plain Python, no numpy.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib


def write_png(path, w, h):
    """A w x h RGB PNG of one colour (only the size matters to the model)."""
    raw = b''.join(b'\x00' + b'\x78\x3c\xc8' * w for _ in range(h))
    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def write_mask(path, side):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (side, side)
    hdr += ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() +
                struct.pack('<%df' % (side * side), *([1.0 / (side * side)] * (side * side))))


def predict(cli, out_dir, paths):
    """Runs the sweep of each measured file again with --backend cpu into out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    tmp = tempfile.mkdtemp()
    for path in paths:
        name = os.path.basename(path)
        base = re.sub(r'^(cal_|again_)', '', name[:-5])
        m = re.fullmatch(r'(gray|grayplanar|conv)_(\d+)x(\d+)(?:_m(\d+))?', base)
        args = None
        if m:
            w, h = int(m.group(2)), int(m.group(3))
            image = os.path.join(tmp, f'img_{w}x{h}.png')
            if not os.path.exists(image):
                write_png(image, w, h)
            if m.group(1) == 'conv':
                side = int(m.group(4))
                mask = {3: 'box3', 5: 'gauss5'}.get(side)
                if mask is None:
                    mask = os.path.join(tmp, f'm{side}.npy')
                    write_mask(mask, side)
                args = ['convolution', image, '--mask', mask]
            else:
                args = ['grayscale', image] + (['--layout', 'planar'] if m.group(1) == 'grayplanar' else [])
        m = re.fullmatch(r'matmul_(\d+x\d+x\d+)(?:_(\w+))?', base)
        if m:
            args = ['matmul', '--size', m.group(1)] + (['--kernel', m.group(2)] if m.group(2) else [])
        if args is None:
            print(f"{name}: not a file name this script knows; skipped")
            continue
        subprocess.run([cli, 'sweep'] + args + ['--backend', 'cpu', '--device', 'H200', '--json',
                                                os.path.join(out_dir, name)], check=True, stdout=subprocess.DEVNULL)


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for t in range(i, j + 1):
            r[order[t]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def median(v):
    s = sorted(v)
    n = len(s)
    return (s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2) if n else float("nan")


def key(row):
    # split-K's rows share a block and differ by their slices ("tile"); older files have no tile
    return (row["kernel"], row["block"], row.get("tile"))


def shape(row):
    return row.get("label") or row["block"]


def load(path, predicted_dir):
    doc = json.load(open(path))
    rows = [r for r in doc["rows"] if r.get("measured_us") is not None]
    if predicted_dir:
        pred = json.load(open(os.path.join(predicted_dir, os.path.basename(path))))
        by = {key(r): r for r in pred["rows"]}
        for r in rows:
            p = by.get(key(r))
            r["predicted_us"] = p["predicted_us"] if p else None
            r["bound"] = p.get("bound") if p else None
    rows = [r for r in rows if r.get("predicted_us")]
    return doc, rows


def report(path, predicted_dir):
    doc, rows = load(path, predicted_dir)
    name = os.path.basename(path)
    if not rows:
        print(f"{name}: no rows with both times")
        return None
    err = [r["predicted_us"] / r["measured_us"] - 1 for r in rows]
    rho = spearman([r["predicted_us"] for r in rows], [r["measured_us"] for r in rows])
    best_meas = min(rows, key=lambda r: r["measured_us"])
    best_pred = min(rows, key=lambda r: r["predicted_us"])
    best_gap = best_pred["measured_us"] / best_meas["measured_us"] - 1
    print(f"\n{name} ({doc.get('problem')}, {len(rows)} shapes, GPU {doc.get('gpu')})")
    print(f"  median |pred/meas-1| {100 * median([abs(e) for e in err]):.1f}%   "
          f"within 20%: {sum(abs(e) <= 0.2 for e in err)}/{len(err)}   Spearman {rho:.3f}")
    print(f"  measured best {best_meas['kernel']} {shape(best_meas)} {best_meas['measured_us']:.1f} us; "
          f"predicted best {best_pred['kernel']} {shape(best_pred)} measures {best_pred['measured_us']:.1f} us "
          f"({100 * best_gap:+.1f}%)")
    worst = sorted(zip(err, rows), key=lambda t: -abs(t[0]))[:5]
    for e, r in worst:
        print(f"    worst: {r['kernel']:20s} {shape(r):>8s} pred {r['predicted_us']:10.1f} meas {r['measured_us']:10.1f} "
              f"({100 * e:+.0f}%, bound {r.get('bound')})")
    if doc.get("family") in ("matmul", "convolution"):
        variants = {}
        for r in rows:
            v = variants.get(r["kernel"])
            if v is None or r["measured_us"] < v["measured_us"]:
                variants[r["kernel"]] = r
        order_meas = sorted(variants, key=lambda k: variants[k]["measured_us"])
        order_pred = sorted(variants, key=lambda k: variants[k]["predicted_us"])
        for k in order_meas:
            r = variants[k]
            print(f"    {k:22s} {shape(r):>6s} meas {r['measured_us']:10.1f} pred {r['predicted_us']:10.1f} "
                  f"({100 * (r['predicted_us'] / r['measured_us'] - 1):+.0f}%)")
        print(f"  variants in measured order: {order_meas == order_pred} (predicted: {', '.join(order_pred)})")
    return {"file": name, "median": median([abs(e) for e in err]), "spearman": rho, "best_gap": best_gap,
            "errors": err}


def main(argv):
    predicted_dir = None
    if len(argv) > 3 and argv[1] == "--predict":
        predicted_dir = argv[3]
        predict(argv[2], predicted_dir, argv[4:])
        argv = argv[3:]
    elif len(argv) > 2 and argv[1] == "--predicted":
        predicted_dir = argv[2]
        argv = argv[2:]
    results = [r for r in (report(p, predicted_dir) for p in argv[1:]) if r]
    # Issue 29's targets per workload: median |error| <= 10%, Spearman >= 0.9, predicted best within 5%.
    # Files named cal_* are calibration sizes (the model's constants were fitted on them): listed apart.
    if results:
        for title, group in (("validation", [r for r in results if not r["file"].startswith("cal_")]),
                             ("calibration (fitted on these)", [r for r in results if r["file"].startswith("cal_")])):
            if not group:
                continue
            print(f"\n{title}\n| workload | shapes | median \\|error\\| | Spearman | predicted best measures | targets (10% / 0.9 / 5%) |")
            print("| --- | --- | --- | --- | --- | --- |")
            for r in group:
                ok = r["median"] <= 0.10 and r["spearman"] >= 0.9 and r["best_gap"] <= 0.05
                print(f"| {r['file'][:-5]} | {len(r['errors'])} | {100 * r['median']:.1f}% | {r['spearman']:.3f} | "
                      f"{100 * r['best_gap']:+.1f}% | {'met' if ok else 'NOT met'} |")
    gray = [e for r in results if r["file"].startswith("gray") for e in r["errors"]]
    if gray:
        print(f"\nall grayscale rows: median |pred/meas-1| {100 * median([abs(e) for e in gray]):.1f}% over {len(gray)}")


if __name__ == "__main__":
    main(sys.argv)
