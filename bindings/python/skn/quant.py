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
from .errors import InvalidArgumentError, check
from .formats import FormatInfo, FormatLike, format_id, format_info


_ONE_BYTE = np.zeros(1, dtype=np.uint8)


def _rows_cols(shape: Tuple[int, ...]) -> Tuple[int, int]:
    cols = shape[-1]
    rows = 1
    for d in shape[:-1]:
        rows *= d
    return rows, cols


def byte_shape(info: FormatInfo, shape: Tuple[int, ...]) -> Optional[Tuple[int, ...]]:
    """The shape of a tensor's ROW_MAJOR bytes as gguf-py gives them: every dimension
    but the last, then the bytes of one row; None for a format whose bytes end in a
    per-tensor trailer (I2_S), which are only a flat array, or a row length that
    is not a whole number of blocks."""
    if info.tensor_trailer_bytes or shape[-1] % info.block_elems:
        return None
    return tuple(shape[:-1]) + (shape[-1] // info.block_elems * info.block_bytes,)


def shape_from_bytes(info: FormatInfo, buf: Any, name: str = "buf") -> Tuple[int, ...]:
    """The element shape of `buf`, a (..., row_bytes) uint8 array of `info`'s bytes:
    what dequantize infers when it is given no shape."""
    if not isinstance(buf, np.ndarray) or buf.dtype != np.uint8 or buf.ndim == 0:
        raise TypeError("%s is a flat %s: pass shape=(rows, n_per_row), or give a (rows, row_bytes) uint8 "
                        "array such as skn.quantize and GGUF.data return" % (name, type(buf).__name__))
    if info.tensor_trailer_bytes:
        raise InvalidArgumentError("%s tensors end in a %d-byte per-tensor trailer, so their bytes do not say "
                                   "the shape: pass shape=(rows, n_per_row)" % (info.name, info.tensor_trailer_bytes))
    row_bytes = buf.shape[-1]
    if row_bytes == 0 or row_bytes % info.block_bytes:
        raise InvalidArgumentError("%s has rows of %d bytes, not a whole number of %d-byte %s blocks: pass the "
                                   "format the bytes are in, or shape=" % (name, row_bytes, info.block_bytes,
                                                                          info.name))
    return tuple(buf.shape[:-1]) + (row_bytes // info.block_bytes * info.block_elems,)


def quantized_size(fmt: FormatLike, shape: Union[int, Sequence[int]]) -> int:
    """The bytes a row-major tensor of `shape` (last dimension = n_per_row) takes in `fmt`,
    trailer included."""
    rows, cols = _rows_cols(shape_tuple(shape))
    out = ctypes.c_size_t()
    check(lib.skn_quantized_size(format_id(fmt), rows, cols, ctypes.byref(out)))
    return out.value


def quantize(array: Any, fmt: FormatLike, imatrix: Optional[Any] = None, threads: Optional[int] = None,
             out: Optional[np.ndarray] = None) -> np.ndarray:
    """Quantize a float array to `fmt` (a name, id or FormatInfo), returning its ROW_MAJOR
    bytes as a uint8 array of shape (..., row_bytes): the array's shape with its last
    dimension replaced by the bytes of one row, as gguf-py lays out quantized data
    (I2_S, whose bytes end in a per-tensor trailer: a flat array).

    `array` is [..., n_per_row]: every dimension but the last is a row (a 1-D
    array is one row). The bytes are those the GGUF ecosystem's reference
    quantizers write. `imatrix`: importance weights, one per column (an imatrix
    entry for this tensor), required by IQ2_XXS, IQ2_XS and IQ1_S. `threads`:
    threads sharing the rows (None: one); the bytes never depend on it.
    `out`: an existing uint8 array of at least quantized_size bytes to fill (the
    result is a view of its first bytes).
    Raises InvalidArgumentError (n_per_row not a multiple of the block size, a
    NaN or infinity: the message names its row and column; ragged or non-numeric
    lists), UnknownFormatError, BufferTooSmallError (`out` too small)."""
    info = format_info(fmt)
    fid = info.id
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
    packed = dst[:need.value]
    shape = byte_shape(info, src.shape)
    return packed if shape is None else packed.reshape(shape)


def _fitting_shape(info: FormatInfo, dims: Tuple[int, ...], nbytes: int) -> Optional[Tuple[int, ...]]:
    """The shape with `dims`' rows whose bytes are exactly nbytes, if there is one."""
    rows, _ = _rows_cols(dims)
    if info.tensor_trailer_bytes or nbytes % rows or (nbytes // rows) % info.block_bytes:
        return None
    return tuple(dims[:-1]) + (nbytes // rows // info.block_bytes * info.block_elems,)


def dequantize(buf: Any, fmt: FormatLike, shape: Optional[Union[int, Sequence[int]]] = None,
               out: Optional[np.ndarray] = None, prefix: bool = False) -> np.ndarray:
    """Decode ROW_MAJOR bytes of `fmt` to a float32 array of `shape` (last dimension =
    n_per_row). `buf` is any bytes-like object (bytes, memoryview, a uint8 ndarray, a
    GGUF tensor's data); it is read in place. Without `shape`, buf must be a
    (..., row_bytes) uint8 array (what skn.quantize and GGUF.data return) and the
    shape is (..., row_bytes / block_bytes * block_elems).
    buf must hold exactly the tensor's bytes: more is refused unless `prefix` is True,
    which decodes the first quantized_size(fmt, shape) bytes and ignores the rest.
    `out`: a float32 array to fill.
    Raises InvalidArgumentError (n_per_row not a multiple of the block size, buf
    larger than the tensor without prefix, rows of buf that disagree with shape),
    UnknownFormatError, BufferTooSmallError (`buf` smaller than the tensor: both
    sizes are in the message), TypeError (no shape for a flat buffer)."""
    info = format_info(fmt)
    dims = shape_from_bytes(info, buf) if shape is None else shape_tuple(shape)
    rows, cols = _rows_cols(dims)
    src = as_bytes(buf, "buf")
    need = ctypes.c_size_t()
    check(lib.skn_quantized_size(info.id, rows, cols, ctypes.byref(need)))
    if not prefix:
        if src.size > need.value:
            fits = _fitting_shape(info, dims, src.size)
            raise InvalidArgumentError(
                "buf holds %d bytes but a %s tensor of shape %s is %d bytes%s: give the shape the bytes hold, or "
                "pass prefix=True to decode only the first %d" % (
                    src.size, info.name, list(dims), need.value,
                    " (the bytes are exactly shape %s)" % (list(fits),) if fits else "", need.value))
        expected = byte_shape(info, dims)
        if expected is not None and isinstance(buf, np.ndarray) and buf.dtype == np.uint8 and buf.ndim >= 2 \
                and buf.shape[-1] != expected[-1]:
            raise InvalidArgumentError("buf has rows of %d bytes (shape %s) but shape %s has rows of %d %s bytes"
                                       % (buf.shape[-1], list(buf.shape), list(dims), expected[-1], info.name))
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
    check(lib.skn_dequantize(info.id, src_ptr, src.size, rows, cols, ptr(dst), dst.size))
    return dst
