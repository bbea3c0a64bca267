# SPDX-License-Identifier: MIT
"""Contexts and matmul_wt: y[n, out] = x[n, in] . W[out, in]^T (skn.h section 10)."""
from __future__ import annotations

import ctypes
import threading
from contextlib import contextmanager
from typing import Any, Iterator, List, Optional

import numpy as np

from ._buffers import as_f32, ptr
from ._enums import isas
from ._lib import NO_TRACE, MatmulOptions, lib
from .errors import ClosedError, InvalidArgumentError, check
from .matmul_id import routed_call
from .trace import TraceFn, TraceSink
from .views import View

_PRECISIONS = {"fast": 0, "exact": 1}


def _isa_id(name: str) -> int:
    known = isas()
    try:
        return known[name.lower()]
    except KeyError:
        raise InvalidArgumentError("unknown ISA %r: one of %s" % (name, ", ".join(sorted(known)))) from None


@contextmanager
def _options(precision: str, strict: bool, prepack_weights: bool) -> Iterator[MatmulOptions]:
    """skn_matmul_options for one call; with prepack_weights, a scope for the
    per-call copy that lives as long as the call."""
    if precision not in _PRECISIONS:
        raise InvalidArgumentError("precision must be 'fast' or 'exact', not %r" % (precision,))
    opts = MatmulOptions(ctypes.sizeof(MatmulOptions), _PRECISIONS[precision], int(bool(prepack_weights)),
                         int(bool(strict)), None)
    scope = ctypes.c_void_p()
    if prepack_weights:
        check(lib.skn_scope_create(ctypes.byref(scope)))
        opts.scope = scope
    try:
        yield opts
    finally:
        if scope.value:
            lib.skn_scope_destroy(scope)


def cpu_isa() -> str:
    """The best ISA tier this CPU supports ("avx512vnni", "neon", "scalar", ...)."""
    return lib.skn_isa_name(lib.skn_cpu_isa()).decode()


def cpu_features() -> str:
    """The CPU features skn detected, as one line (for logs and bug reports)."""
    return lib.skn_cpu_features().decode()


def kernel_names() -> List[str]:
    """Every registered kernel: matmul_wt_<format>_<order>_<activation>_<isa>."""
    return [lib.skn_kernel_name(i).decode() for i in range(lib.skn_kernel_count())]


class Context:
    """An skn_context: threads, the ISA cap, the trace sink and scratch reused
    between calls. Use one Context per thread at a time (skn.matmul_wt keeps one
    per thread for you). close() (or a with-block) frees it; a closed Context
    raises ClosedError. `trace`: a callable given every skn.TraceEvent of this
    context's calls (set_trace)."""

    def __init__(self, threads: Optional[int] = None, isa: Optional[str] = None,
                 trace: Optional[TraceFn] = None) -> None:
        h = ctypes.c_void_p()
        check(lib.skn_context_create(ctypes.byref(h)))
        self._handle: Optional[ctypes.c_void_p] = h
        self._threads = 1
        self._trace: Optional[TraceSink] = None
        try:
            if threads is not None:
                self.set_threads(threads)
            if isa is not None:
                check(lib.skn_context_set_isa(h, _isa_id(isa)))
            if trace is not None:
                self.set_trace(trace)
        except Exception:
            self.close()
            raise

    def _h(self) -> ctypes.c_void_p:
        if self._handle is None:
            raise ClosedError("the skn.Context is closed")
        return self._handle

    def set_threads(self, threads: int) -> None:
        """Use `threads` (1..1024) threads of the context's pool for matmul work."""
        if threads != self._threads:
            check(lib.skn_context_set_threads(self._h(), int(threads)))
            self._threads = int(threads)

    def set_trace(self, fn: Optional[TraceFn]) -> None:
        """Send the "adapter", "kernel" and "fallback" events of this context's calls to
        fn(event) (None: none). fn runs on the thread doing the work, possibly on several
        of the context's threads at once; what it raises is raised when the call returns.

            events = []
            ctx.set_trace(events.append)
        """
        sink = None if fn is None else TraceSink(fn)
        check(lib.skn_context_set_trace(self._h(), NO_TRACE if sink is None else sink.c_fn, None))
        self._trace = sink  # skn holds only the C pointer: keep its Python side alive

    def _check(self, status: int) -> None:
        check(status, pending=None if self._trace is None else self._trace.errors)

    def close(self) -> None:
        if self._handle is not None:
            lib.skn_context_destroy(self._handle)
            self._handle = None
        self._trace = None

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None and lib is not None:  # None late in shutdown
            self.close()

    def matmul_wt(self, x: Any, w: View, bias: Optional[Any] = None, precision: str = "fast",
                  strict: bool = False, prepack_weights: bool = False,
                  out: Optional[np.ndarray] = None) -> np.ndarray:
        """y = x . W^T (+ bias): x is [n, in] (or [in], giving [out]) float32, w a View
        [out, in] in either block order. precision "fast" (activations quantized as the
        GGUF ecosystem does) or "exact" (float32 activations). strict: a fallback to the
        reference kernel raises UnsupportedError. The result has the same bits for a
        weight in either order and for any thread count.
        Raises InvalidArgumentError (shapes that do not match: the message says which,
        a weight that looks like [in, out], a NaN in x in fast precision)."""
        if not isinstance(w, View):
            raise TypeError("w must be an skn.View (View.from_bytes, GGUF.view, prepack_for_matmul)")
        if precision not in _PRECISIONS:
            raise InvalidArgumentError("precision must be 'fast' or 'exact', not %r" % (precision,))
        xs = as_f32(x, "x")
        one_row = xs.ndim == 1
        x2 = xs.reshape(1, -1) if one_row else xs
        if x2.ndim != 2:
            raise InvalidArgumentError("x must be [n, in] or [in], got shape %s" % (xs.shape,))
        wshape = w.shape
        if len(wshape) != 2:
            raise InvalidArgumentError("w must be a rank-2 [out, in] weight, got shape %s" % (wshape,))
        n, k = x2.shape
        rows, cols = wshape
        if k != cols:
            raise InvalidArgumentError("x has %d columns but the weight is [out=%d, in=%d]: x must be [n, %d]"
                             % (k, rows, cols, cols))
        b = None
        if bias is not None:
            b = as_f32(bias, "bias").reshape(-1)
            if b.size != rows:
                raise InvalidArgumentError("bias has %d values, the weight has out=%d rows" % (b.size, rows))
        if out is None:
            y = np.empty((n, rows), dtype=np.float32)
        else:
            if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (n, rows) \
                    or not out.flags.c_contiguous:
                raise InvalidArgumentError("out must be a C-contiguous float32 array of shape %s" % ((n, rows),))
            y = out
        h = self._h()
        with _options(precision, strict, prepack_weights) as opts:
            self._check(lib.skn_matmul_wt(h, ptr(x2), n, k, w.handle, None if b is None else ptr(b),
                                          ptr(y), rows, ctypes.byref(opts)))
        return y.reshape(rows) if one_row else y

    def matmul_wt_id(self, x: Any, w: View, ids: Any, gates: Optional[Any] = None, bias: Optional[Any] = None,
                     precision: str = "fast", strict: bool = False, prepack_weights: bool = False,
                     out: Optional[np.ndarray] = None) -> np.ndarray:
        """Expert-routed matmul_wt (mixture-of-experts layers; llama.cpp's mul_mat_id):
        for row i and slot s, with e = ids[i, s],
            y[i, s] = gates[i, s] * (x_is . W[e]^T + bias[e])
        w: a stacked expert weight View [E, out, in] (a GGUF tensor, or its prepacked copy).
        ids: integers [n, k] (k experts per row), each in 0..E-1. x: [n, in], shared by
        the k slots of a row (gate and up projections), or [n, k, in], one input per slot
        (the down projection). gates: None (no multiply) or [n, k] floats. bias: None or
        [E, out]. Returns y [n, k, out] float32 (the sum over slots is left to the caller);
        each y[i, s] has the bits matmul_wt gives for that row on expert e's weight (where
        docs/kernels.md lets bits depend on the batch, the batch of rows routed to e).
        Raises InvalidArgumentError (shapes that do not match, an id outside 0..E-1: the
        message names its row, slot and E; a NaN in x in fast precision)."""
        if not isinstance(w, View):
            raise TypeError("w must be an skn.View [E, out, in] (GGUF.view, View.from_bytes)")
        h = self._h()
        with _options(precision, strict, prepack_weights) as opts:
            return routed_call(lambda *args: self._check(lib.skn_matmul_wt_id(h, *args, ctypes.byref(opts))),
                               x, w, ids, gates, bias, out)

    def prepack_for_matmul(self, w: View) -> View:
        """`w` in the block order fastest for this context's ISA (checks [out, in]).
        Call once per weight at load: a conversion copies the whole weight."""
        h = self._h()
        scope = ctypes.c_void_p()
        check(lib.skn_scope_create(ctypes.byref(scope)))
        try:
            out = ctypes.c_void_p()
            self._check(lib.skn_prepack_for_matmul(h, w.handle, scope, ctypes.byref(out)))
        finally:
            lib.skn_scope_destroy(scope)
        return View(out.value, w._keep)


_local = threading.local()


def _thread_context() -> Context:
    ctx = getattr(_local, "context", None)
    if ctx is None:
        ctx = Context()
        _local.context = ctx
    return ctx


def matmul_wt(x: Any, w: View, threads: Optional[int] = None, bias: Optional[Any] = None,
              precision: str = "fast", strict: bool = False) -> np.ndarray:
    """y = x . W^T (+ bias) on this thread's default Context (see Context.matmul_wt).
    threads: how many threads to use (None: the context's current setting, one at first)."""
    ctx = _thread_context()
    if threads is not None:
        ctx.set_threads(threads)
    return ctx.matmul_wt(x, w, bias=bias, precision=precision, strict=strict)


def matmul_wt_id(x: Any, w: View, ids: Any, threads: Optional[int] = None, gates: Optional[Any] = None,
                 bias: Optional[Any] = None, precision: str = "fast", strict: bool = False) -> np.ndarray:
    """Expert-routed matmul_wt on this thread's default Context (see Context.matmul_wt_id)."""
    ctx = _thread_context()
    if threads is not None:
        ctx.set_threads(threads)
    return ctx.matmul_wt_id(x, w, ids, gates=gates, bias=bias, precision=precision, strict=strict)


def prepack_for_matmul(w: View) -> View:
    """`w` in the block order fastest for this CPU, on this thread's default Context."""
    return _thread_context().prepack_for_matmul(w)
