# SPDX-License-Identifier: MIT
"""A GGUF file's metadata as Python values (skn.h section 8, "metadata")."""
from __future__ import annotations

import ctypes
from collections.abc import Mapping
from typing import Any, Iterator, Optional, Tuple, Union

import numpy as np

from ._lib import SCALAR_CTYPES, lib
from .errors import check

_TYPE_ARRAY, _TYPE_STRING, _TYPE_BOOL = 9, 8, 7
# numpy dtypes of the fixed-size metadata types (little-endian in the file).
_DTYPES = {0: "<u1", 1: "<i1", 2: "<u2", 3: "<i2", 4: "<u4", 5: "<i4", 6: "<f4", 7: "<u1", 10: "<u8",
           11: "<i8", 12: "<f8"}


def text_at(p: Optional[int], n: int) -> Union[str, bytes]:
    """The n bytes at p (not NUL-terminated) as str, or as bytes when not UTF-8."""
    raw = ctypes.string_at(p, n) if n else b""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw  # not UTF-8: the bytes as stored


class Metadata(Mapping):
    """A GGUF file's metadata as a read-only mapping key -> Python value: int, float,
    bool, str (bytes when not UTF-8), a NumPy array (a copy) for numeric arrays, a
    list of str for string arrays, a list for arrays of arrays. Values are read on
    access. type_of(key) gives the GGUF type name ("u32", "array")."""

    def __init__(self, gguf: Any) -> None:
        self._gguf = gguf

    def _h(self) -> ctypes.c_void_p:
        return self._gguf._h()

    def _index(self, key: str) -> int:
        idx = ctypes.c_int64()
        check(lib.skn_gguf_find_key(self._h(), key.encode(), ctypes.byref(idx)))
        if idx.value < 0:
            raise KeyError(key)
        return idx.value

    def __len__(self) -> int:
        return int(lib.skn_gguf_kv_count(self._h()))

    def __iter__(self) -> Iterator[str]:
        h = self._h()
        for i in range(int(lib.skn_gguf_kv_count(h))):
            name = ctypes.c_void_p()
            n = ctypes.c_size_t()
            check(lib.skn_gguf_kv_key(h, i, ctypes.byref(name), ctypes.byref(n)))
            key = text_at(name.value, n.value)
            yield key if isinstance(key, str) else key.decode("utf-8", "replace")

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self._index(key)
            return True
        except KeyError:
            return False

    def type_of(self, key: str) -> str:
        t = ctypes.c_int()
        check(lib.skn_gguf_kv_type(self._h(), self._index(key), ctypes.byref(t)))
        return lib.skn_gguf_type_name(t.value).decode()

    def array_info(self, key: str) -> Tuple[str, int]:
        """(element type name, element count) of an array value, without reading it."""
        et = ctypes.c_int()
        count = ctypes.c_uint64()
        check(lib.skn_gguf_array_info(self._h(), self._index(key), ctypes.byref(et), ctypes.byref(count)))
        return lib.skn_gguf_type_name(et.value).decode(), int(count.value)

    def __getitem__(self, key: str) -> Any:
        return self.value(key)

    def value(self, key: str, limit: Optional[int] = None) -> Any:
        """The value of `key` (KeyError when absent); `limit`: read at most that many
        elements of an array (and of each array in it), for a look at a 150k-entry
        vocabulary without reading it all."""
        h = self._h()
        idx = self._index(key)
        t = ctypes.c_int()
        check(lib.skn_gguf_kv_type(h, idx, ctypes.byref(t)))
        if t.value == _TYPE_STRING:
            p = ctypes.c_void_p()
            n = ctypes.c_size_t()
            check(lib.skn_gguf_get_string(h, idx, ctypes.byref(p), ctypes.byref(n)))
            return text_at(p.value, n.value)
        if t.value == _TYPE_ARRAY:
            return self._array(h, idx, limit)
        suffix, ctype = SCALAR_CTYPES[t.value]
        out = ctype()
        check(getattr(lib, "skn_gguf_get_" + suffix)(h, idx, ctypes.byref(out)))
        return bool(out.value) if suffix == "bool" else out.value

    def _array(self, h: ctypes.c_void_p, array: int, limit: Optional[int] = None) -> Any:
        et = ctypes.c_int()
        count = ctypes.c_uint64()
        check(lib.skn_gguf_array_info(h, array, ctypes.byref(et), ctypes.byref(count)))
        n = count.value if limit is None else min(count.value, limit)
        if et.value == _TYPE_STRING:
            out = []
            p = ctypes.c_void_p()
            size = ctypes.c_size_t()
            for i in range(n):
                check(lib.skn_gguf_array_string(h, array, i, ctypes.byref(p), ctypes.byref(size)))
                out.append(text_at(p.value, size.value))
            return out
        if et.value == _TYPE_ARRAY:
            nested = ctypes.c_uint64()
            items = []
            for i in range(n):
                check(lib.skn_gguf_array_nested(h, array, i, ctypes.byref(nested)))
                items.append(self._array(h, nested.value, limit))
            return items
        p = ctypes.c_void_p()
        check(lib.skn_gguf_array_data(h, array, ctypes.byref(p), ctypes.byref(count)))
        n = min(n, count.value)
        dtype = np.dtype(_DTYPES[et.value])
        raw = ctypes.string_at(p.value, n * dtype.itemsize) if n else b""
        arr = np.frombuffer(raw, dtype=dtype).astype(dtype.newbyteorder("="))
        return arr.astype(bool) if et.value == _TYPE_BOOL else arr
