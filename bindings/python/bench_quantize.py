#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How much skn.quantize / skn.dequantize on NumPy arrays cost over the C API.

For each format, times on the same large float32 tensor:
  C API     skn_quantize / skn_dequantize called through ctypes with
            preallocated buffers and pointers resolved once (the C call and
            nothing else a C program would not also pay);
  Python    skn.quantize(array, fmt) / skn.dequantize(buf, fmt, shape), which
            look the format up, check the array and allocate the output.
Prints the best of --repeat runs of each and the ratio Python / C (1.00 = no
overhead; the target is within 1.10). Best-of-N, interleaved, so that a
shared machine's noise hits both sides alike; use a quiet machine for
conclusions.

    /usr/bin/python3 bindings/python/bench_quantize.py [--rows 4096] [--cols 4096] [--repeat 7]
"""
import argparse
import ctypes
import time

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
    print("%-8s %-10s %10s %10s %7s" % ("format", "op", "C API ms", "Python ms", "ratio"))
    worst = 0.0
    for name in args.formats.split(","):
        fid = skn.format_id(name)
        n = skn.quantized_size(fid, w.shape)
        dst = np.empty(n, dtype=np.uint8)
        out = np.empty_like(w)
        src_p, dst_p, out_p = (ctypes.c_void_p(a.ctypes.data) for a in (w, dst, out))

        def c_quantize():
            if lib.skn_quantize(fid, src_p, rows, cols, dst_p, n) != 0:
                raise RuntimeError(lib.skn_last_error().decode())

        def c_dequantize():
            if lib.skn_dequantize(fid, dst_p, n, rows, cols, out_p, w.size) != 0:
                raise RuntimeError(lib.skn_last_error().decode())

        def py_quantize():
            skn.quantize(w, name)

        packed = skn.quantize(w, name)

        def py_dequantize():
            skn.dequantize(packed, name, w.shape)

        for op, c_fn, py_fn in (("quantize", c_quantize, py_quantize), ("dequantize", c_dequantize, py_dequantize)):
            c_fn(), py_fn()  # warm up: page faults of the outputs, code in cache
            c_best, py_best = float("inf"), float("inf")
            for _ in range(args.repeat):
                c_best = min(c_best, best(c_fn, 1))
                py_best = min(py_best, best(py_fn, 1))
            ratio = py_best / c_best
            worst = max(worst, ratio)
            print("%-8s %-10s %10.2f %10.2f %7.3f" % (name, op, c_best * 1e3, py_best * 1e3, ratio))
    print("worst ratio %.3f (target <= 1.10)" % worst)


if __name__ == "__main__":
    main()
