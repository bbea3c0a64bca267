# SPDX-License-Identifier: MIT
"""Packed-weight views, their block order, prepack and byte relayout
(skn.h sections 5 and 6; docs/packed-weight-layout.md).

A View is an skn_view handle: a layout over bytes. A View made from a
Python buffer keeps that buffer alive, one made from a GGUF tensor keeps the
file mapping alive, and a prepacked View owns its copy; so a View never
dangles, whatever the caller drops first."""
from __future__ import annotations

import ctypes
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ._buffers import as_bytes, ptr, shape_tuple
from ._enums import INPUT_BLOCK_MAJOR, LAYOUT_CLASSES, ORDER_NAMES, ORDERS, ROW_MAJOR
from ._lib import I64, NO_TRACE, lib
from .errors import check
from .formats import FormatLike, format_id, format_name
from .trace import TraceFn, TraceSink


def order_id(order: Any) -> int:
    """The skn_block_order of "row_major" / "input_block_major" (or 0 / 1)."""
    if isinstance(order, str):
        key = order.lower()
        if key in ("kernel", "kernel_order", "ibm"):
            key = INPUT_BLOCK_MAJOR
        if key in ("canonical", "rm"):
            key = ROW_MAJOR
        if key in ORDERS:
            return ORDERS[key]
        raise ValueError("unknown block order %r: use 'row_major' or 'input_block_major'" % order)
    if order in (0, 1) and not isinstance(order, bool):
        return int(order)
    raise ValueError("unknown block order %r: use 'row_major' or 'input_block_major'" % (order,))


class View:
    """An skn_view: a [rank <= 4] layout in a format and block order over bytes.

    Make one with View.from_bytes (caller bytes), GGUF.view (a file's tensor,
    zero-copy) or View.prepack / Context.prepack_for_matmul (a copy in the
    other order). Views are immutable; every method returns a new View."""

    __slots__ = ("_handle", "_keep")

    def __init__(self, handle: int, keep: Any = None) -> None:
        """Take ownership of one reference to skn_view `handle`; `keep` is held
        alive as long as the view (the memory it borrows)."""
        self._handle = ctypes.c_void_p(handle)
        self._keep = keep

    def __del__(self) -> None:
        h = getattr(self, "_handle", None)
        if h is not None and h.value and lib is not None:  # lib is None late in interpreter shutdown
            lib.skn_view_release(h)
            self._handle = ctypes.c_void_p()

    @property
    def handle(self) -> ctypes.c_void_p:
        """The skn_view* (borrowed: valid while this View lives)."""
        return self._handle

    def _derived(self, handle: ctypes.c_void_p) -> "View":
        return View(handle.value, self._keep)

    @classmethod
    def from_bytes(cls, buf: Any, fmt: FormatLike, shape: Sequence[int], order: Any = ROW_MAJOR) -> "View":
        """Wrap bytes as a view of `shape` ([out, in] for a weight: the block axis last)
        in block `order` ("row_major", what files and quantize give, or
        "input_block_major"). Nothing is copied: the View holds `buf` alive.
        Raises InvalidArgumentError (shape not block-aligned, or one that "looks like
        [in, out]", buf too small: both sizes in the message), UnknownFormatError."""
        data = as_bytes(buf, "buf")
        dims = shape_tuple(shape)
        c_shape = (I64 * len(dims))(*dims)
        out = ctypes.c_void_p()
        addr = ptr(data) if data.size else ptr(np.zeros(1, dtype=np.uint8))
        check(lib.skn_view_from_bytes(addr, data.size, format_id(fmt), c_shape, len(dims), order_id(order),
                                      ctypes.byref(out)))
        return cls(out.value, data)

    @property
    def format(self) -> str:
        """The format's name ("Q4_K")."""
        return format_name(lib.skn_view_format(self._handle))

    @property
    def format_id(self) -> int:
        return int(lib.skn_view_format(self._handle))

    @property
    def order(self) -> str:
        """"row_major" or "input_block_major"."""
        return ORDER_NAMES[lib.skn_view_order(self._handle)]

    @property
    def layout_class(self) -> str:
        """"contiguous", "strided", "blocked_row_major" or "blocked_input_major"."""
        return LAYOUT_CLASSES[lib.skn_view_layout_class(self._handle)]

    @property
    def shape(self) -> Tuple[int, ...]:
        dims = (I64 * 4)()
        check(lib.skn_view_shape(self._handle, dims))
        return tuple(dims[i] for i in range(lib.skn_view_rank(self._handle)))

    @property
    def ndim(self) -> int:
        return int(lib.skn_view_rank(self._handle))

    def describe(self) -> str:
        """skn's one-line description of the layout."""
        return lib.skn_view_describe(self._handle).decode()

    def __repr__(self) -> str:
        return "<skn.View %s>" % self.describe()

    def narrow(self, dim: int, start: int, length: int) -> "View":
        """Indices [start, start + length) along `dim` (block-aligned on the block axis)."""
        out = ctypes.c_void_p()
        check(lib.skn_view_narrow(self._handle, dim, start, length, ctypes.byref(out)))
        return self._derived(out)

    def select(self, dim: int, index: int) -> "View":
        """The slice at `index` of `dim`, that dimension dropped (an expert of [E, out, in])."""
        out = ctypes.c_void_p()
        check(lib.skn_view_select(self._handle, dim, index, ctypes.byref(out)))
        return self._derived(out)

    def transpose(self, dim0: int, dim1: int) -> "View":
        """Swap two dimensions of a dense view (a packed one raises UnsupportedError)."""
        out = ctypes.c_void_p()
        check(lib.skn_view_transpose(self._handle, dim0, dim1, ctypes.byref(out)))
        return self._derived(out)

    def unsqueeze(self, dim: int) -> "View":
        """Insert a dimension of extent 1 before `dim`."""
        out = ctypes.c_void_p()
        check(lib.skn_view_unsqueeze(self._handle, dim, ctypes.byref(out)))
        return self._derived(out)

    def get(self, *indices: int) -> float:
        """The element at `indices`, decoded through the layout (the same in either order)."""
        if len(indices) == 1 and isinstance(indices[0], (tuple, list)):
            indices = tuple(indices[0])
        idx = (I64 * max(1, len(indices)))(*indices)
        out = ctypes.c_float()
        check(lib.skn_view_get(self._handle, idx, len(indices), ctypes.byref(out)))
        return out.value

    def to_float(self) -> np.ndarray:
        """The whole view decoded to a float32 array of its shape (the same in either order)."""
        dst = np.empty(self.shape, dtype=np.float32)
        check(lib.skn_view_to_float(self._handle, ptr(dst), dst.size))
        return dst

    def prepack(self, order: Any, trace: Optional[TraceFn] = None) -> "View":
        """This view in block `order`: the same View's handle (no copy) when it already is,
        else a copy in the new order that the returned View owns. `trace`: a callable
        given the copy's "adapter" TraceEvent (nothing is sent when no copy is made).
        Raises UnsupportedError for a dense view."""
        sink = None if trace is None else TraceSink(trace)
        scope = ctypes.c_void_p()
        check(lib.skn_scope_create(ctypes.byref(scope)))
        try:
            out = ctypes.c_void_p()
            status = lib.skn_view_prepack(self._handle, order_id(order), scope, NO_TRACE if sink is None else sink.c_fn,
                                          None, ctypes.byref(out))
            check(status, pending=None if sink is None else sink.errors)
        finally:
            # The copy outlives the scope: skn frees it with the last view over it.
            lib.skn_scope_destroy(scope)
        return self._derived(out)


def _relayout(fn: Any, buf: Any, fmt: FormatLike, rows: int, blocks_per_row: int,
              out: Optional[np.ndarray]) -> np.ndarray:
    src = as_bytes(buf, "buf")
    dst = np.empty(src.size, dtype=np.uint8) if out is None else as_bytes(out, "out")
    check(fn(format_id(fmt), ptr(src), src.size, ptr(dst), dst.size, rows, blocks_per_row))
    return dst


def to_kernel_order(buf: Any, fmt: FormatLike, rows: int, blocks_per_row: int,
                    out: Optional[np.ndarray] = None) -> np.ndarray:
    """Copy a ROW_MAJOR [rows, blocks_per_row] block grid to INPUT_BLOCK_MAJOR bytes
    (skn_packed_to_kernel_order), returned as a uint8 array (or written to `out`)."""
    return _relayout(lib.skn_packed_to_kernel_order, buf, fmt, rows, blocks_per_row, out)


def to_canonical_order(buf: Any, fmt: FormatLike, rows: int, blocks_per_row: int,
                       out: Optional[np.ndarray] = None) -> np.ndarray:
    """The inverse of to_kernel_order (skn_packed_to_canonical_order)."""
    return _relayout(lib.skn_packed_to_canonical_order, buf, fmt, rows, blocks_per_row, out)


def require_out_in(rows: int, cols: int, fmt: FormatLike) -> None:
    """Raise InvalidArgumentError when a weight [rows, cols] looks labelled [in, out]."""
    check(lib.skn_require_out_in(rows, cols, format_id(fmt)))
