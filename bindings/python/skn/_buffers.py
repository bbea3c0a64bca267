# SPDX-License-Identifier: MIT
"""NumPy helpers: C pointers to arrays without copying when the caller's
array already has the layout the C call wants."""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np


def as_f32(a: Any, name: str) -> np.ndarray:
    """`a` as a C-contiguous float32 array: the same array when it already is one."""
    arr = np.ascontiguousarray(a, dtype=np.float32)
    if arr.ndim == 0:
        raise ValueError("%s must have at least one dimension" % name)
    return arr


def as_bytes(buf: Any, name: str) -> np.ndarray:
    """Any buffer (bytes, bytearray, memoryview, ndarray) as a flat uint8 array
    over the same memory (read-only input is fine: skn only reads it)."""
    if isinstance(buf, np.ndarray):
        if not buf.flags.c_contiguous:
            raise ValueError("%s must be C-contiguous (got strides %s)" % (name, buf.strides))
        return buf.reshape(-1).view(np.uint8)
    try:
        return np.frombuffer(buf, dtype=np.uint8)
    except (TypeError, ValueError) as e:
        raise TypeError("%s must be bytes-like (bytes, bytearray, memoryview or ndarray): %s" % (name, e)) from e


def ptr(arr: np.ndarray) -> int:
    """The address of an array's first byte (0 for an empty array is never passed)."""
    return arr.__array_interface__["data"][0]


def shape_tuple(shape: Any, name: str = "shape") -> Tuple[int, ...]:
    """A shape given as an int or a sequence of ints, as a tuple of ints."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if not isinstance(shape, Sequence) and not isinstance(shape, np.ndarray):
        raise TypeError("%s must be an int or a sequence of ints" % name)
    out = tuple(int(d) for d in shape)
    if not out:
        raise ValueError("%s must have at least one dimension" % name)
    return out
