#!/usr/bin/env python3
"""Global store requests and sectors of matmul_warptile and matmul_double_buffer's edge path, grouped
two ways from the same addresses (the kernels' own index formulas, C float32 row-major, 256-byte
aligned):
  - by issue 10's definition: the k-th execution of the store's source line by each lane of a warp
    (what the traced emulator and `cudaviz-cli matmul --metrics` report);
  - by unrolled iteration: one request per (i, j[, q]) of the thread's store loops with at least one
    lane inside the matrix (what the GPU issues: one predicated instruction per unrolled iteration,
    and what Nsight Compute counted on the H200, 2026-12-01).
Usage: scripts/store_grouping.py [M N]...   (default: 97 61 and 257 255, i.e. 97x33@33x61, 257x129@129x255)
"""
import sys


def sectors(addresses):
    return len({a // 32 for a in addresses})


def group(lanes):
    """lanes: per lane, an ordered dict iteration -> byte address. Returns ((requests, sectors) by
    iteration, (requests, sectors) by the definition)."""
    iterations = sorted({it for lane in lanes for it in lane})
    by_iteration = [0, 0]
    for it in iterations:
        a = [lane[it] for lane in lanes if it in lane]
        by_iteration[0] += 1
        by_iteration[1] += sectors(a)
    by_definition = [0, 0]
    sequences = [list(lane.values()) for lane in lanes]
    for k in range(max((len(s) for s in sequences), default=0)):
        a = [s[k] for s in sequences if k < len(s)]
        by_definition[0] += 1
        by_definition[1] += sectors(a)
    return by_iteration, by_definition


def warptile(m, n):
    # MatmulWarptileBody: BM = BN = 128, WM = WN = 64, WNITER = 4, TM = 8, TN = 4; 128 threads.
    BM = BN = 128; WM = WN = 64; WNITER = 4; TM = 8; TN = 4; WSUBM = 64; WSUBN = 16
    total = [[0, 0], [0, 0]]
    for by in range((m + BM - 1) // BM):
        for bx in range((n + BN - 1) // BN):
            for warp in range(4):
                warp_row, warp_col = warp // (BN // WN), warp % (BN // WN)
                lanes = []
                for lane in range(32):
                    t_col, t_row = lane % (WSUBN // TN), lane // (WSUBN // TN)
                    seq = {}
                    for i in range(TM):
                        for wn in range(WNITER):
                            for j in range(TN):
                                r = by * BM + warp_row * WM + t_row * TM + i
                                c = bx * BN + warp_col * WN + wn * WSUBN + t_col * TN + j
                                if r < m and c < n:
                                    seq[(i, wn, j)] = 4 * (r * n + c)
                    lanes.append(seq)
                for t, g in zip(total, group(lanes)):
                    t[0] += g[0]; t[1] += g[1]
    return total


def double_buffer_edge(m, n):
    # MatmulDoubleBufferBody's element-by-element stores (N not a multiple of 4): BM = BN = 128,
    # TM = TN = 8 in 4x4 sub-tiles 64 apart, 16 threads of a warp along N; 256 threads.
    BM = BN = 128; TM = TN = 8; WX = 16; SUB_M = SUB_N = 64; TX = BN // TN
    total = [[0, 0], [0, 0]]
    for by in range((m + BM - 1) // BM):
        for bx in range((n + BN - 1) // BN):
            for warp in range(8):
                lanes = []
                for lane in range(32):
                    tx = (warp % (TX // WX)) * WX + lane % WX
                    ty = (warp // (TX // WX)) * (32 // WX) + lane // WX
                    seq = {}
                    for i in range(TM):
                        for j in range(0, TN, 4):
                            for q in range(4):
                                r = by * BM + (i // 4) * SUB_M + ty * 4 + i % 4
                                c = bx * BN + (j // 4) * SUB_N + tx * 4 + j % 4
                                if r < m and c + q < n:
                                    seq[(i, j, q)] = 4 * (r * n + c + q)
                    lanes.append(seq)
                for t, g in zip(total, group(lanes)):
                    t[0] += g[0]; t[1] += g[1]
    return total


def main():
    args = [int(a) for a in sys.argv[1:]] or [97, 61, 257, 255]
    for m, n in zip(args[0::2], args[1::2]):
        for name, f in (("matmul_warptile", warptile), ("matmul_double_buffer (N % 4 != 0)", double_buffer_edge)):
            if name.startswith("matmul_double_buffer") and n % 4 == 0:
                continue
            (ri, si), (rd, sd) = f(m, n)
            print(f"{name} M={m} N={n}: by iteration {ri} requests {si} sectors; by the definition {rd} requests {sd} sectors")


if __name__ == "__main__":
    main()
