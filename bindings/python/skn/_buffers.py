# SPDX-License-Identifier: MIT
"""NumPy helpers: C pointers to arrays without copying when the caller's
array already has the layout the C call wants."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from .errors import InvalidArgumentError

_NUMBER_KINDS = "biuf"  # NumPy dtype kinds of real numbers (bool, int, uint, float)


def _is_sequence(a: Any) -> bool:
    return isinstance(a, (list, tuple)) or (isinstance(a, np.ndarray) and a.ndim > 0)


def _first_problem(a: Any, path: str) -> Optional[str]:
    """Why nested lists are not a rectangular array of numbers, naming the first
    place at fault ("array[1][2] is a str ..."); None when they are."""
    if isinstance(a, np.ndarray) and a.ndim > 0:
        return None if a.dtype.kind in _NUMBER_KINDS else "%s is a NumPy array of dtype %s" % (path, a.dtype)
    if not isinstance(a, (list, tuple)):
        if isinstance(a, (bool, int, float, np.number, np.bool_)) and not isinstance(a, np.complexfloating):
            return None
        if isinstance(a, np.ndarray) and a.dtype.kind in _NUMBER_KINDS:
            return None
        if a is None:
            return "%s is None, not a number" % path
        return "%s is %s %s (%.40r), not a real number" % (path, "an" if type(a).__name__[0] in "aeiou" else "a",
                                                            type(a).__name__, a)
    for i, item in enumerate(a):
        problem = _first_problem(item, "%s[%d]" % (path, i))
        if problem:
            return problem
    nested = [_is_sequence(item) for item in a]
    if any(nested) and not all(nested):
        i = nested.index(not nested[0])
        return "%s mixes lists and numbers: %s[0] is %s, %s[%d] is %s" % (
            path, path, "a list" if nested[0] else "a number", path, i, "a list" if nested[i] else "a number")
    if nested and all(nested):
        lengths = [len(item) for item in a]
        for i, n in enumerate(lengths):
            if n != lengths[0]:
                return "%s is ragged: %s[0] has %d items, %s[%d] has %d" % (path, path, lengths[0], path, i, n)
    return None


def as_numbers(a: Any, name: str) -> np.ndarray:
    """`a` (an ndarray, nested lists, a number) as a NumPy array of real numbers,
    without copying an ndarray. Raises InvalidArgumentError naming the first
    element at fault for ragged or mixed lists, strings, None, complex numbers."""
    if isinstance(a, np.ndarray):
        arr = a
    else:
        try:
            arr = np.asarray(a)
        except (ValueError, TypeError):
            arr = None  # ragged lists: NumPy's message does not say where
    if arr is None or arr.dtype.kind not in _NUMBER_KINDS:
        problem = _first_problem(a, name) if arr is None or not isinstance(a, np.ndarray) else None
        raise InvalidArgumentError("%s must be a rectangular array of real numbers (a NumPy array, or nested lists "
                                   "of equal lengths): %s" % (name, problem or "got dtype %s" % arr.dtype))
    return arr


def as_f32(a: Any, name: str) -> np.ndarray:
    """`a` as a C-contiguous float32 array: the same array when it already is one."""
    arr = as_numbers(a, name)
    if arr.ndim == 0:  # checked first: ascontiguousarray would make it 1-D
        raise InvalidArgumentError("%s must have at least one dimension, got a single number" % name)
    return np.ascontiguousarray(arr, dtype=np.float32)


def as_ints(a: Any, name: str, dtype: Any) -> np.ndarray:
    """`a` as a C-contiguous array of integer `dtype`, refusing floats, bools and
    values the type cannot hold (a cast would wrap them silently)."""
    arr = as_numbers(a, name)
    if arr.dtype.kind not in "iu":
        raise InvalidArgumentError("%s must hold integers, got dtype %s" % (name, arr.dtype))
    info = np.iinfo(dtype)
    if arr.size and (arr.min() < info.min or arr.max() > info.max):
        bad = np.argwhere((arr < info.min) | (arr > info.max))[0]
        raise InvalidArgumentError("%s%s = %d does not fit %s" % (name, list(bad), arr[tuple(bad)], np.dtype(dtype)))
    return np.ascontiguousarray(arr, dtype=dtype)


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
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) for d in shape):
        raise TypeError("%s must be an int or a sequence of ints, got %r" % (name, tuple(shape)))
    out = tuple(int(d) for d in shape)
    if not out:
        raise ValueError("%s must have at least one dimension" % name)
    return out
