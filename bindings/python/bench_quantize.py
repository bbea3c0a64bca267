#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How much skn.quantize / skn.dequantize on NumPy arrays cost over the C API.

For each format, on the same large float32 tensor, two pairs of timings:
  into a preallocated output (the binding's own cost):
    C        skn_quantize / skn_dequantize through ctypes, pointers resolved
             once, writing into a buffer allocated (and paged in) beforehand;
    Python   skn.quantize(w, fmt, out=buf) / skn.dequantize(b, fmt, shape, out=buf):
             format lookup, argument checks, the same call;
  with a fresh output each call (what a program that needs a new result pays):
    C        np.empty (malloc: the kernel pages it in on first write) + the C call;
    Python   skn.quantize(w, fmt) / skn.dequantize(b, fmt, shape).
Prints the best of --repeat interleaved runs of each and the ratios Python / C
(1.00 = no overhead; the target is <= 1.10). Interleaving spreads a shared
machine's noise over both sides; use a quiet machine for conclusions.

    /usr/bin/python3 bindings/python/bench_quantize.py [--rows 4096] [--cols 4096] [--repeat 7]
"""
import argparse
import ctypes
import time
import timeit

import numpy as np

import skn
from skn._lib import lib


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--formats", default="q4_0,q8_0,q4_k,q6_k,iq4_xs")
    args = ap.parse_args()

    rows, cols = args.rows, args.cols
    w = np.random.default_rng(1).standard_normal((rows, cols), dtype=np.float32)
    print("skn %s, %s, tensor [%d, %d] float32 (%.0f MiB), best of %d"
          % (skn.version(), skn.cpu_isa(), rows, cols, w.nbytes / 2**20, args.repeat))
    print("%-8s %-10s %9s %9s %6s   %9s %9s %6s" % ("format", "op", "C ms", "Py ms", "ratio", "C+new ms",
                                                       "Py+new ms", "ratio"))
    worst = 0.0
    fastest_c = float("inf")
    for name in args.formats.split(","):
        fid = skn.format_id(name)
        n = skn.quantized_size(fid, w.shape)
        dst = np.empty(n, dtype=np.uint8)
        out = np.empty_like(w)
        dst.fill(0), out.fill(0)  # paged in
        src_p, dst_p, out_p = (ctypes.c_void_p(a.ctypes.data) for a in (w, dst, out))

        def c_quantize(dst_p=dst_p):
            if lib.skn_quantize(fid, src_p, rows, cols, dst_p, n) != 0:
                raise RuntimeError(lib.skn_last_error().decode())

        def c_dequantize(out_p=out_p):
            if lib.skn_dequantize(fid, dst_p, n, rows, cols, out_p, w.size) != 0:
                raise RuntimeError(lib.skn_last_error().decode())

        def c_quantize_new():
            fresh = np.empty(n, dtype=np.uint8)
            c_quantize(ctypes.c_void_p(fresh.ctypes.data))

        def c_dequantize_new():
            fresh = np.empty(w.shape, dtype=np.float32)
            c_dequantize(ctypes.c_void_p(fresh.ctypes.data))

        c_quantize()
        packed = dst.copy()
        cases = (
            ("quantize", c_quantize, lambda: skn.quantize(w, name, out=dst),
             c_quantize_new, lambda: skn.quantize(w, name)),
            ("dequantize", c_dequantize, lambda: skn.dequantize(packed, name, w.shape, out=out),
             c_dequantize_new, lambda: skn.dequantize(packed, name, w.shape)),
        )
        for op, *fns in cases:
            for f in fns:
                f()  # warm up
            bests = [float("inf")] * 4
            for _ in range(args.repeat):
                for i, f in enumerate(fns):
                    bests[i] = min(bests[i], best(f, 1))
            fastest_c = min(fastest_c, bests[0])
            r_out, r_new = bests[1] / bests[0], bests[3] / bests[2]
            worst = max(worst, r_out, r_new)
            print("%-8s %-10s %9.2f %9.2f %6.3f   %9.2f %9.2f %6.3f"
                  % (name, op, bests[0] * 1e3, bests[1] * 1e3, r_out, bests[2] * 1e3, bests[3] * 1e3, r_new))
    print("worst ratio %.3f (target <= 1.10)" % worst)
    fixed = per_call_overhead()
    print("the binding's fixed cost per call (one Q4_0 block, best of 5 x 20000 calls): %.1f us over the C call,"
          " %.3f%% of the fastest C call above" % (fixed * 1e6, 100 * fixed / fastest_c))


def per_call_overhead():
    """What skn.dequantize adds to a C call whose work is negligible: the format
    lookup, the argument checks and the output's allocation. On a tensor of one
    block this is the whole difference, free of the large calls' noise."""
    w = np.ones((1, 32), dtype=np.float32)
    packed = skn.quantize(w, "q4_0")
    out = np.empty_like(w)
    src_p, out_p = ctypes.c_void_p(packed.ctypes.data), ctypes.c_void_p(out.ctypes.data)
    fid = skn.format_id("q4_0")
    calls = 20000

    def timed(fn):
        return min(timeit.repeat(fn, number=calls, repeat=5)) / calls

    c = timed(lambda: lib.skn_dequantize(fid, src_p, packed.size, 1, 32, out_p, 32))
    py = timed(lambda: skn.dequantize(packed, "q4_0", (1, 32)))
    return py - c


if __name__ == "__main__":
    main()
