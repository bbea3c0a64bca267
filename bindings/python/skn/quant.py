# SPDX-License-Identifier: MIT
"""Quantize float32 arrays to block formats and decode them again (skn.h section 3).

Both work on NumPy arrays in place of C pointers: a C-contiguous float32 input
is passed to skn as it is (no copy), the output is allocated once and filled
by the C call, and the GIL is released while skn works (ctypes does so for
every call), so the cost over the C API is one allocation."""
from __future__ import annotations

import ctypes
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from ._buffers import as_bytes, as_f32, ptr, shape_tuple
from ._lib import QuantizeOptions, lib
from .errors import check
from .formats import FormatLike, format_id


_ONE_BYTE = np.zeros(1, dtype=np.uint8)


def _rows_cols(shape: Tuple[int, ...]) -> Tuple[int, int]:
    cols = shape[-1]
    rows = 1
    for d in shape[:-1]:
        rows *= d
    return rows, cols


def quantized_size(fmt: FormatLike, shape: Union[int, Sequence[int]]) -> int:
    """The bytes a row-major tensor of `shape` (last dimension = n_per_row) takes in `fmt`,
    trailer included."""
    rows, cols = _rows_cols(shape_tuple(shape))
    out = ctypes.c_size_t()
    check(lib.skn_quantized_size(format_id(fmt), rows, cols, ctypes.byref(out)))
    return out.value


def quantize(array: Any, fmt: FormatLike, imatrix: Optional[Any] = None, threads: Optional[int] = None,
             out: Optional[np.ndarray] = None) -> np.ndarray:
    """Quantize a float array to `fmt`, returning its ROW_MAJOR bytes as a 1-D uint8 array.

    `array` is [..., n_per_row]: every dimension but the last is a row (a 1-D
    array is one row). The bytes are those the GGUF ecosystem's reference
    quantizers write. `imatrix`: importance weights, one per column (an imatrix
    entry for this tensor), required by IQ2_XXS, IQ2_XS and IQ1_S. `threads`:
    threads sharing the rows (None: one); the bytes never depend on it.
    `out`: an existing uint8 array of at least quantized_size bytes to fill.
    Raises InvalidArgumentError (n_per_row not a multiple of the block size, a
    NaN or infinity: the message names its row and column), UnknownFormatError,
    BufferTooSmallError (`out` too small)."""
    fid = format_id(fmt)
    src = as_f32(array, "array")
    rows, cols = _rows_cols(src.shape)
    need = ctypes.c_size_t()
    check(lib.skn_quantized_size(fid, rows, cols, ctypes.byref(need)))
    if out is None:
        dst = np.empty(need.value, dtype=np.uint8)
    else:
        if not isinstance(out, np.ndarray) or out.dtype != np.uint8 or not out.flags.c_contiguous \
                or not out.flags.writeable:
            raise TypeError("out must be a writeable C-contiguous uint8 ndarray")
        dst = out.reshape(-1)
    if imatrix is None and threads is None:
        check(lib.skn_quantize(fid, ptr(src), rows, cols, ptr(dst), dst.size))
    else:
        opts = QuantizeOptions()
        opts.struct_size = ctypes.sizeof(QuantizeOptions)
        weights = None
        if imatrix is not None:
            weights = as_f32(imatrix, "imatrix").reshape(-1)
            opts.importance = ptr(weights)
            opts.importance_count = weights.size
        opts.threads = 0 if threads is None else int(threads)
        check(lib.skn_quantize_with_options(fid, ptr(src), rows, cols, ptr(dst), dst.size, ctypes.byref(opts)))
    return dst if out is None else dst[:need.value]


def dequantize(buf: Any, fmt: FormatLike, shape: Union[int, Sequence[int]], out: Optional[np.ndarray] = None
               ) -> np.ndarray:
    """Decode ROW_MAJOR bytes of `fmt` to a float32 array of `shape` (last dimension =
    n_per_row). `buf` is any bytes-like object (bytes, memoryview, a uint8 ndarray, a
    GGUF tensor's data); it is read in place. `out`: a float32 array to fill.
    Raises InvalidArgumentError (n_per_row not a multiple of the block size),
    UnknownFormatError, BufferTooSmallError (`buf` smaller than the tensor: both
    sizes are in the message)."""
    fid = format_id(fmt)
    dims = shape_tuple(shape)
    rows, cols = _rows_cols(dims)
    src = as_bytes(buf, "buf")
    if out is None:
        dst = np.empty(dims, dtype=np.float32)
    else:
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 or not out.flags.c_contiguous \
                or not out.flags.writeable:
            raise TypeError("out must be a writeable C-contiguous float32 ndarray")
        dst = out
    # An empty buffer still gets a real address, so skn reports its size
    # (BUFFER_TOO_SMALL) rather than a NULL pointer.
    src_ptr = ptr(src) if src.size else ptr(_ONE_BYTE)
    check(lib.skn_dequantize(fid, src_ptr, src.size, rows, cols, ptr(dst), dst.size))
    return dst
