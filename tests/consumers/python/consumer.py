#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A downstream Python program using the INSTALLED libskn through ctypes only
(no numpy, no compiled extension): ctypes.CDLL("libskn.so.1").

It quantizes a weight, prepacks it (skn_view_from_bytes + skn_view_prepack,
and skn_prepack_for_matmul), runs skn_matmul_wt and compares y with the same
product computed in pure Python, then runs the consumer contract check
(docs/packaging.md)."""
import ctypes
import math
import sys

lib = ctypes.CDLL("libskn.so.1")

c_status = ctypes.c_int
SKN_OK = 0
Q4_K = 12
Q8_0 = 8
ROW_MAJOR, INPUT_BLOCK_MAJOR = 0, 1
GOLDEN_PACKED, GOLDEN_DECODED = 1, 3
PRECISION_FAST, PRECISION_EXACT = 0, 1


class MatmulOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("precision", ctypes.c_int),
                ("prepack_weights", ctypes.c_int), ("strict", ctypes.c_int),
                ("scope", ctypes.c_void_p)]


class GoldenInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("rows", ctypes.c_int64),
                ("cols", ctypes.c_int64), ("x_rows", ctypes.c_int64)]


def fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


P = ctypes.c_void_p
I64 = ctypes.c_int64
SZ = ctypes.c_size_t
skn_version = fn("skn_version", ctypes.c_uint)
skn_version_string = fn("skn_version_string", ctypes.c_char_p)
skn_last_error = fn("skn_last_error", ctypes.c_char_p)
skn_quantized_size = fn("skn_quantized_size", c_status, ctypes.c_int, I64, I64, ctypes.POINTER(SZ))
skn_quantize = fn("skn_quantize", c_status, ctypes.c_int, P, I64, I64, P, SZ)
skn_dequantize = fn("skn_dequantize", c_status, ctypes.c_int, P, SZ, I64, I64, P, SZ)
skn_scope_create = fn("skn_scope_create", c_status, ctypes.POINTER(P))
skn_scope_destroy = fn("skn_scope_destroy", None, P)
skn_view_from_bytes = fn("skn_view_from_bytes", c_status, P, SZ, ctypes.c_int, ctypes.POINTER(I64),
                         ctypes.c_int, ctypes.c_int, ctypes.POINTER(P))
skn_view_prepack = fn("skn_view_prepack", c_status, P, ctypes.c_int, P, P, P, ctypes.POINTER(P))
skn_view_order = fn("skn_view_order", ctypes.c_int, P)
skn_view_release = fn("skn_view_release", None, P)
skn_context_create = fn("skn_context_create", c_status, ctypes.POINTER(P))
skn_context_destroy = fn("skn_context_destroy", None, P)
skn_prepack_for_matmul = fn("skn_prepack_for_matmul", c_status, P, P, P, ctypes.POINTER(P))
skn_matmul_wt = fn("skn_matmul_wt", c_status, P, P, I64, I64, P, P, P, I64, ctypes.POINTER(MatmulOptions))
skn_fixture_bytes = fn("skn_fixture_bytes", c_status, ctypes.c_int, ctypes.c_int, I64, I64, P, SZ,
                       ctypes.POINTER(SZ))
skn_fixture_disagreement = fn("skn_fixture_disagreement", ctypes.c_char_p, P, SZ, ctypes.c_int, ctypes.c_int,
                              I64, I64)
skn_fixture_golden_info = fn("skn_fixture_golden_info", c_status, ctypes.c_int, ctypes.POINTER(GoldenInfo))
skn_fixture_golden = fn("skn_fixture_golden", c_status, ctypes.c_int, ctypes.c_int, P, SZ, ctypes.POINTER(SZ))

checks = 0
failures = 0


def check(ok, what):
    global checks, failures
    checks += 1
    if not ok:
        failures += 1
        print("CHECK failed: %s (%s)" % (what, skn_last_error().decode()), file=sys.stderr)


def ok(status, what):
    if status != SKN_OK:
        raise RuntimeError("%s: status %d: %s" % (what, status, skn_last_error().decode()))


def floats(values):
    return (ctypes.c_float * len(values))(*values)


def lcg_values(n, seed):
    """Deterministic values in [-1, 1) without the random module's version drift."""
    out = []
    state = seed
    for _ in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(((state >> 40) / float(1 << 24)) * 2.0 - 1.0)
    return out


def matmul_through_skn(rows, cols, x_rows):
    w = lcg_values(rows * cols, 7)
    x = lcg_values(x_rows * cols, 11)
    w_c = floats(w)
    size = SZ()
    ok(skn_quantized_size(Q4_K, rows, cols, ctypes.byref(size)), "quantized_size")
    packed = (ctypes.c_uint8 * size.value)()
    ok(skn_quantize(Q4_K, w_c, rows, cols, packed, size.value), "quantize")
    decoded = (ctypes.c_float * (rows * cols))()
    ok(skn_dequantize(Q4_K, packed, size.value, rows, cols, decoded, rows * cols), "dequantize")

    scope, ctx, view, kview, ready = P(), P(), P(), P(), P()
    ok(skn_scope_create(ctypes.byref(scope)), "scope_create")
    ok(skn_context_create(ctypes.byref(ctx)), "context_create")
    shape = (I64 * 2)(rows, cols)
    ok(skn_view_from_bytes(packed, size.value, Q4_K, shape, 2, ROW_MAJOR, ctypes.byref(view)), "view_from_bytes")
    ok(skn_view_prepack(view, INPUT_BLOCK_MAJOR, scope, None, None, ctypes.byref(kview)), "view_prepack")
    check(skn_view_order(kview) == INPUT_BLOCK_MAJOR, "prepacked view is in kernel order")
    ok(skn_prepack_for_matmul(ctx, view, scope, ctypes.byref(ready)), "prepack_for_matmul")

    x_c = floats(x)
    results = {}
    for name, v in (("row_major", view), ("kernel_order", kview), ("prepared", ready)):
        for precision in (PRECISION_EXACT, PRECISION_FAST):
            opts = MatmulOptions(ctypes.sizeof(MatmulOptions), precision, 0, 0, None)
            y = (ctypes.c_float * (x_rows * rows))()
            ok(skn_matmul_wt(ctx, x_c, x_rows, cols, v, None, y, rows, ctypes.byref(opts)), "matmul_wt " + name)
            results[(name, precision)] = list(y)

    for v in (view, kview, ready):
        skn_view_release(v)
    skn_context_destroy(ctx)
    skn_scope_destroy(scope)
    return w, x, list(decoded), results


def main():
    check(skn_version() // 10000 == 1, "major version 1")
    rows, cols, x_rows = 4, 768, 2  # 3 blocks per row: the two orders differ
    w, x, decoded, results = matmul_through_skn(rows, cols, x_rows)

    # Pure Python: y[i][o] = sum_k x[i][k] * W[o][k], with the decoded weight
    # (what the kernels compute) and with the original floats (quantization error).
    for i in range(x_rows):
        for o in range(rows):
            xs = x[i * cols:(i + 1) * cols]
            ref_decoded = math.fsum(a * b for a, b in zip(xs, decoded[o * cols:(o + 1) * cols]))
            ref_float = math.fsum(a * b for a, b in zip(xs, w[o * cols:(o + 1) * cols]))
            scale = math.fsum(abs(a * b) for a, b in zip(xs, decoded[o * cols:(o + 1) * cols]))
            y_exact = results[("row_major", PRECISION_EXACT)][i * rows + o]
            y_fast = results[("row_major", PRECISION_FAST)][i * rows + o]
            check(abs(y_exact - ref_decoded) <= 1e-5 * scale + 1e-6, "exact y[%d][%d] %g vs %g" % (i, o, y_exact, ref_decoded))
            check(abs(y_fast - ref_decoded) <= 2e-2 * scale, "fast y[%d][%d] %g vs %g" % (i, o, y_fast, ref_decoded))
            check(abs(y_exact - ref_float) <= 0.1 * scale, "y[%d][%d] %g near the float product %g" % (i, o, y_exact, ref_float))
    # Bit-identical in either block order (skn.h: skn_matmul_wt).
    for precision in (PRECISION_EXACT, PRECISION_FAST):
        base = results[("row_major", precision)]
        check(results[("kernel_order", precision)] == base, "kernel-order weight gives identical y")
        check(results[("prepared", precision)] == base, "prepack_for_matmul weight gives identical y")

    # The contract check.
    n = SZ()
    ok(skn_fixture_bytes(Q4_K, 1, 4, 3, None, 0, ctypes.byref(n)), "fixture size")
    kernel = (ctypes.c_uint8 * n.value)()
    canonical = (ctypes.c_uint8 * n.value)()
    ok(skn_fixture_bytes(Q4_K, 1, 4, 3, kernel, n.value, ctypes.byref(n)), "fixture kernel order")
    ok(skn_fixture_bytes(Q4_K, 0, 4, 3, canonical, n.value, ctypes.byref(n)), "fixture canonical")
    check(skn_fixture_disagreement(kernel, n.value, Q4_K, 1, 4, 3) is None, "kernel-order fixture passes")
    msg = skn_fixture_disagreement(canonical, n.value, Q4_K, 1, 4, 3)
    check(msg is not None and len(msg) > 0, "canonical bytes read as kernel order are named")

    info = GoldenInfo(ctypes.sizeof(GoldenInfo), 0, 0, 0)
    ok(skn_fixture_golden_info(Q4_K, ctypes.byref(info)), "golden info")
    pn, dn = SZ(), SZ()
    ok(skn_fixture_golden(Q4_K, GOLDEN_PACKED, None, 0, ctypes.byref(pn)), "golden packed size")
    ok(skn_fixture_golden(Q4_K, GOLDEN_DECODED, None, 0, ctypes.byref(dn)), "golden decoded size")
    gp = (ctypes.c_uint8 * pn.value)()
    gd = (ctypes.c_float * (dn.value // 4))()
    mine = (ctypes.c_float * (dn.value // 4))()
    ok(skn_fixture_golden(Q4_K, GOLDEN_PACKED, gp, pn.value, ctypes.byref(pn)), "golden packed")
    ok(skn_fixture_golden(Q4_K, GOLDEN_DECODED, gd, dn.value, ctypes.byref(dn)), "golden decoded")
    ok(skn_dequantize(Q4_K, gp, pn.value, info.rows, info.cols, mine, dn.value // 4), "dequantize golden")
    check(bytes(mine) == bytes(gd), "golden DECODED == dequantize(PACKED)")

    print("consumer_python against libskn %s: %d passed, %d failed"
          % (skn_version_string().decode(), checks - failures, failures))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
