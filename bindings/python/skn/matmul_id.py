# SPDX-License-Identifier: MIT
"""The NumPy side of skn_matmul_wt_id: shapes checked and named in Python's
terms ([n, k] ids, [n, in] or [n, k, in] x, [n, k, out] y), then the C call's
pointers and strides (skn.h section 10)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from ._buffers import as_f32, as_ints, ptr
from .errors import InvalidArgumentError
from .views import View


def routed_call(call: Callable[..., None], x: Any, w: View, ids: Any, gates: Optional[Any], bias: Optional[Any],
                out: Optional[np.ndarray]) -> np.ndarray:
    """Check the arguments of Context.matmul_wt_id, run `call` with skn_matmul_wt_id's
    arguments from x to y_slot_stride, return y [n, k, out]."""
    wshape = w.shape
    if len(wshape) != 3:
        raise InvalidArgumentError("w must be a stacked expert weight [E, out, in] (rank 3), got shape %s; "
                                   "for one [out, in] weight use matmul_wt" % (wshape,))
    experts, rows, cols = wshape
    id_arr = as_ints(ids, "ids", np.int32)
    if id_arr.ndim != 2:
        raise InvalidArgumentError("ids must be [n, k]: the k experts of each of the n rows, got shape %s"
                                   % (id_arr.shape,))
    n, k = id_arr.shape
    xs = as_f32(x, "x")
    if xs.ndim == 2 and xs.shape == (n, cols):
        x_slot_stride = 0  # every slot of a row reads that row
    elif xs.ndim == 3 and xs.shape == (n, k, cols):
        x_slot_stride = cols
    else:
        raise InvalidArgumentError("x must be [n, in] = [%d, %d] (one input per row) or [n, k, in] = [%d, %d, %d] "
                                   "(one per slot) for ids [%d, %d] and w [E=%d, out=%d, in=%d], got shape %s"
                                   % (n, cols, n, k, cols, n, k, experts, rows, cols, xs.shape))
    g = None
    if gates is not None:
        g = as_f32(gates, "gates")
        if g.shape != (n, k):
            raise InvalidArgumentError("gates must be [n, k] = [%d, %d] like ids, got shape %s" % (n, k, g.shape))
    b = None
    if bias is not None:
        b = as_f32(bias, "bias")
        if b.size != experts * rows or (b.ndim == 2 and b.shape != (experts, rows)):
            raise InvalidArgumentError("bias must be [E, out] = [%d, %d], got shape %s" % (experts, rows, b.shape))
    if out is None:
        y = np.empty((n, k, rows), dtype=np.float32)
    else:
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (n, k, rows) \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise InvalidArgumentError("out must be a writeable C-contiguous float32 array of shape %s"
                                       % ((n, k, rows),))
        y = out
    call(ptr(xs), n, xs.shape[-1] * (k if x_slot_stride else 1), x_slot_stride, ptr(id_arr), k, k,
         None if g is None else ptr(g), k, w.handle, None if b is None else ptr(b), ptr(y), k * rows, rows)
    return y
