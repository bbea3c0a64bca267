#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A downstream Python program using the INSTALLED skn package (python3-skn,
over libskn.so.1): quantize a weight, prepack it, run matmul_wt in both block
orders and compare with NumPy, then the consumer contract check and the
golden decode (docs/packaging.md); then a converter's path: stream a model
with llama.cpp's key types, read it back, route rows to its experts, and
look at it with `python3 -m skn dump`."""
import os
import subprocess
import sys
import tempfile

import numpy as np

import skn

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("CHECK failed: " + what, file=sys.stderr)


def main():
    rows, cols = 4, 768  # 3 Q4_K blocks per row: the two orders differ
    rng = np.random.default_rng(7)
    w = rng.uniform(-1, 1, (rows, cols)).astype(np.float32)
    x = rng.uniform(-1, 1, (2, cols)).astype(np.float32)

    packed = skn.quantize(w, "q4_k")
    decoded = skn.dequantize(packed, "q4_k", w.shape).astype(np.float64)
    view = skn.View.from_bytes(packed, "q4_k", w.shape)
    kernel = view.prepack(skn.INPUT_BLOCK_MAJOR)
    check(kernel.order == skn.INPUT_BLOCK_MAJOR, "prepacked view is in kernel order")
    ready = skn.prepack_for_matmul(view)

    ref = x.astype(np.float64) @ decoded.T
    scale = np.abs(x.astype(np.float64)) @ np.abs(decoded).T
    for precision, tol in (("exact", 1e-5), ("fast", 2e-2)):
        base = skn.matmul_wt(x, view, precision=precision)
        check(bool(np.all(np.abs(base - ref) <= tol * scale + 1e-6)), precision + " y near the NumPy product")
        for name, v in (("kernel_order", kernel), ("prepared", ready)):
            y = skn.matmul_wt(x, v, precision=precision, threads=2)
            check(y.tobytes() == base.tobytes(), "%s weight gives identical y (%s)" % (name, precision))
    float_ref = x.astype(np.float64) @ w.astype(np.float64).T
    check(bool(np.all(np.abs(skn.matmul_wt(x, view, precision="exact") - float_ref) <= 0.1 * scale)),
          "y near the product of the unquantized floats")

    # The contract check.
    check(skn.disagreement(skn.fixture_bytes("q4_k", kernel_order=True), "q4_k", kernel_order=True) is None,
          "kernel-order fixture passes")
    msg = skn.disagreement(skn.fixture_bytes("q4_k"), "q4_k", kernel_order=True)
    check(bool(msg), "canonical bytes read as kernel order are named")

    g = skn.golden("q4_k")
    mine = skn.dequantize(g.packed, "q4_k", g.decoded.shape)
    check(mine.tobytes() == g.decoded.tobytes(), "golden DECODED == dequantize(PACKED)")

    convert_and_route()

    print("consumer_python: skn %s from %s against libskn %s: %s"
          % (skn.__version__, skn.__file__, skn.version(), "FAILED" if failures else "all checks passed"))
    return 1 if failures else 0


def convert_and_route():
    experts, rows, cols = 4, 8, 768
    rng = np.random.default_rng(9)
    gate = rng.uniform(-1, 1, (experts, rows, cols)).astype(np.float32)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "moe.gguf")
        w = skn.GGUFWriter()
        w.add("general.architecture", "llama")
        w.add("llama.block_count", 1)
        w.add("llama.expert_count", experts)
        w.declare_tensor("blk.0.ffn_gate_exps.weight", "q4_k", gate.shape)
        with w.stream(path) as s:
            for e in range(experts):  # one expert in memory at a time
                s.write("blk.0.ffn_gate_exps.weight", skn.quantize(gate[e], "q4_k"))
        with skn.GGUF(path) as g:
            check(g.metadata.type_of("llama.block_count") == "u32", "block_count stored as llama.cpp's u32")
            data = g.data("blk.0.ffn_gate_exps.weight")
            check(data.shape == (experts, rows, 3 * 144), "quantized data is (..., row_bytes)")
            check(skn.dequantize(data, "q4_k").shape == gate.shape, "dequantize reads the shape from the bytes")
            view = skn.prepack_for_matmul(g.view("blk.0.ffn_gate_exps.weight"))
            x = rng.uniform(-1, 1, (3, cols)).astype(np.float32)
            ids = np.array([[0, 3], [1, 1], [2, 0]])
            events = []
            with skn.Context(threads=2, trace=events.append) as ctx:
                y = ctx.matmul_wt_id(x, view, ids)
            check(y.shape == (3, 2, rows), "matmul_wt_id gives [n, k, out]")
            for i, s_ in ((0, 1), (2, 0)):
                one = skn.matmul_wt(x[i:i + 1], view.select(0, int(ids[i, s_])))[0]
                check(one.tobytes() == y[i, s_].tobytes(), "routed row %d slot %d == matmul_wt on its expert"
                      % (i, s_))
            check(any(e.kind == "kernel" for e in events), "the trace sink saw the kernel")
        r = subprocess.run([sys.executable, "-m", "skn", "dump", path], capture_output=True, text=True, cwd=d)
        check(r.returncode == 0 and "blk.0.ffn_gate_exps.weight" in r.stdout, "python3 -m skn dump lists the tensor")


if __name__ == "__main__":
    sys.exit(main())
