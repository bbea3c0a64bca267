# SPDX-License-Identifier: MIT
"""Python values as GGUF metadata values for the writer: each scalar checked
against its type (no silent wrapping or truncation), arrays of any depth as
skn_gguf_array_value trees (skn.h section 8, "nested arrays")."""
from __future__ import annotations

import ctypes
from typing import Any, List, Optional

import numpy as np

from ._buffers import ptr
from ._lib import SCALAR_CTYPES, GgufArrayValue, lib
from .errors import InvalidArgumentError, check

TYPE_IDS = {name: tid for tid, (name, _) in SCALAR_CTYPES.items()}
TYPE_IDS["string"] = 8
_ARRAY = 9
_INTEGER_TYPES = ("u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64")
NUMPY_TYPES = {np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8", np.dtype(np.uint16): "u16",
               np.dtype(np.int16): "i16", np.dtype(np.uint32): "u32", np.dtype(np.int32): "i32",
               np.dtype(np.float32): "f32", np.dtype(np.bool_): "bool", np.dtype(np.uint64): "u64",
               np.dtype(np.int64): "i64", np.dtype(np.float64): "f64"}
_DTYPES = {name: dt.newbyteorder("<") for dt, name in NUMPY_TYPES.items()}
_DTYPES["bool"] = np.dtype("<u1")  # bools are bytes 0 or 1 in the file


def int_range(t: str) -> tuple:
    bits = int(t[1:])
    return (0, 2**bits - 1) if t[0] == "u" else (-2**(bits - 1), 2**(bits - 1) - 1)


def _is_bool(v: Any) -> bool:
    return isinstance(v, (bool, np.bool_))


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not _is_bool(v)


def _is_number(v: Any) -> bool:
    return _is_int(v) or isinstance(v, (float, np.floating))


def _is_text(v: Any) -> bool:
    return isinstance(v, (str, bytes))


def is_sequence(v: Any) -> bool:
    return isinstance(v, (list, tuple)) or (isinstance(v, np.ndarray) and v.ndim > 0)


def infer_scalar(value: Any) -> str:
    """The GGUF type a Python scalar gets without `type=` (as gguf-py's writer does)."""
    if _is_bool(value):
        return "bool"
    if _is_int(value):
        return "i32" if -2**31 <= int(value) < 2**31 else "i64"
    if isinstance(value, (float, np.floating)):
        return "f32"
    if _is_text(value):
        return "string"
    raise TypeError("cannot store a %s in GGUF metadata" % type(value).__name__)


def fits(value: Any, t: str) -> bool:
    """Whether `value`'s kind is one GGUF type `t` holds (an int for an integer type,
    a number for a float, a bool for bool, text for string)."""
    if t in _INTEGER_TYPES:
        return _is_int(value)
    if t in ("f32", "f64"):
        return _is_number(value)
    if t == "bool":
        return _is_bool(value)
    return t == "string" and _is_text(value)


def _check_type(t: str, what: str) -> None:
    if t not in TYPE_IDS:
        raise InvalidArgumentError("unknown GGUF type %r for %s: one of %s" % (t, what, ", ".join(sorted(TYPE_IDS))))


def _checked(value: Any, t: str, what: str) -> Any:
    """`value` as the Python number type `t` stores, or InvalidArgumentError saying why not."""
    if not fits(value, t) and not (t == "bool" and _is_int(value) and int(value) in (0, 1)):
        raise InvalidArgumentError("%s = %.60r is %s %s, not a value of GGUF type %s" % (
            what, value, "an" if type(value).__name__[0] in "aeiou" else "a", type(value).__name__, t))
    if t in ("f32", "f64"):
        return float(value)
    if t == "string":
        return value if isinstance(value, bytes) else value.encode()
    v = int(value)
    lo, hi = (0, 1) if t == "bool" else int_range(t)
    if not lo <= v <= hi:
        raise InvalidArgumentError("%s = %d does not fit GGUF type %s (%d..%d)" % (what, v, t, lo, hi))
    return v


def put_scalar(h: Any, key: str, value: Any, t: str) -> None:
    """Add one scalar pair of GGUF type `t` ("u32", "string", ...)."""
    _check_type(t, key)
    v = _checked(value, t, key)
    k = key.encode()
    if t == "string":
        check(lib.skn_gguf_writer_add_string(h, k, v, len(v)))
    else:
        check(getattr(lib, "skn_gguf_writer_add_" + t)(h, k, v))


def _leaf_type(items: Any, elem: Optional[str], path: str) -> str:
    """The element type of a flat array: `elem` when given, else the one its items agree on."""
    if isinstance(items, np.ndarray):
        if elem is None and items.dtype not in NUMPY_TYPES:
            raise InvalidArgumentError("%s: no GGUF array type for NumPy dtype %s" % (path, items.dtype))
        return elem or NUMPY_TYPES[items.dtype]
    if elem is not None:
        return elem
    if not items:
        return "i32"
    kinds = ["string" if _is_text(v) else "bool" if _is_bool(v) else "int" if _is_int(v)
             else "float" if _is_number(v) else None for v in items]
    for i, kind in enumerate(kinds):
        if kind is None:
            raise InvalidArgumentError("%s[%d] is %.60r (%s): GGUF arrays hold numbers, bools, strings or arrays"
                                       % (path, i, items[i], type(items[i]).__name__))
    if all(k == "string" for k in kinds):
        return "string"
    if all(k == "bool" for k in kinds):
        return "bool"
    if all(k == "int" for k in kinds):
        return "i32" if all(-2**31 <= int(v) < 2**31 for v in items) else "i64"
    if all(k in ("int", "float") for k in kinds):
        return "f32"
    first = kinds[0]
    i = next(i for i, k in enumerate(kinds) if k != first and not {k, first} <= {"int", "float"})
    raise InvalidArgumentError("GGUF arrays hold one type: %s[0] is %s and %s[%d] is %s (%.40r); pass type= to "
                               "say which, or split the values" % (path, first, path, i, kinds[i], items[i]))


def _leaf(node: GgufArrayValue, items: Any, elem: Optional[str], path: str, keep: List[Any]) -> None:
    t = _leaf_type(items, elem, path)
    _check_type(t, path)
    node.element_type = TYPE_IDS[t]
    node.count = len(items)
    if t == "string":
        raws = [_checked(v, "string", "%s[%d]" % (path, i)) for i, v in enumerate(items)]
        bufs = [ctypes.create_string_buffer(r, len(r) or 1) for r in raws]
        strings = (ctypes.c_void_p * max(1, len(raws)))(*[ctypes.addressof(b) for b in bufs])
        lengths = (ctypes.c_size_t * max(1, len(raws)))(*[len(r) for r in raws])
        keep.extend((bufs, strings, lengths))
        node.strings = ctypes.addressof(strings)
        node.lengths = ctypes.addressof(lengths)
        return
    if isinstance(items, np.ndarray):
        if items.dtype.kind not in "biuf":
            raise InvalidArgumentError("%s: no GGUF array type for NumPy dtype %s" % (path, items.dtype))
        if t in _INTEGER_TYPES or t == "bool":
            if items.dtype.kind == "f":
                raise InvalidArgumentError("%s: float values cannot be stored as GGUF %s" % (path, t))
            lo, hi = (0, 1) if t == "bool" else int_range(t)
            if items.size and (items.min() < lo or items.max() > hi):
                i = int(np.argmax((items < lo) | (items > hi)))
                raise InvalidArgumentError("%s[%d] = %s does not fit GGUF type %s (%d..%d)"
                                           % (path, i, items[i], t, lo, hi))
        arr = np.ascontiguousarray(items.astype(_DTYPES[t]))
    else:
        values = [_checked(v, t, "%s[%d]" % (path, i)) for i, v in enumerate(items)]
        arr = np.array(values, dtype=_DTYPES[t]) if values else np.zeros(0, dtype=_DTYPES[t])
    keep.append(arr)
    node.data = ptr(arr) if arr.size else None


def _node(value: Any, elem: Optional[str], path: str, keep: List[Any]) -> GgufArrayValue:
    node = GgufArrayValue()
    node.struct_size = ctypes.sizeof(GgufArrayValue)
    keep.append(node)
    if isinstance(value, np.ndarray) and (value.ndim > 1 or value.dtype.kind in "USO"):
        value = list(value) if value.ndim > 1 else value.tolist()  # rows; or Python strings and objects
    nested = [is_sequence(v) for v in value] if not isinstance(value, np.ndarray) else []
    if nested and all(nested):
        children = [_node(v, elem, "%s[%d]" % (path, i), keep) for i, v in enumerate(value)]
        arrays = (ctypes.POINTER(GgufArrayValue) * len(children))(*[ctypes.pointer(c) for c in children])
        keep.append(arrays)
        node.element_type = _ARRAY
        node.count = len(children)
        node.arrays = arrays
    elif any(nested):
        i = nested.index(not nested[0])
        raise InvalidArgumentError("GGUF arrays hold one type: %s[0] is %s and %s[%d] is %s" % (
            path, "an array" if nested[0] else "a scalar", path, i, "an array" if nested[i] else "a scalar"))
    else:
        _leaf(node, value, elem, path, keep)
    return node


def put_array(h: Any, key: str, value: Any, elem: Optional[str] = None) -> None:
    """Add an array pair: `value` a list/tuple/ndarray, its items numbers, bools,
    strings, or arrays again (each its own type and length). `elem` fixes the
    element type of every innermost array."""
    keep: List[Any] = []  # every buffer the tree points into, alive for the call
    root = _node(value, elem, key, keep)
    check(lib.skn_gguf_writer_add_array_value(h, key.encode(), ctypes.byref(root)))
