# SPDX-License-Identifier: MIT
"""Importance matrices: llama.cpp's imatrix files, GGUF or legacy .dat
(skn.h section 9; docs/imatrix.md). Each entry's values are what
llama-quantize hands the quantizer for that weight, float for float.

    with skn.Imatrix("imatrix.gguf") as im:
        packed = skn.quantize(w, "iq2_xs", imatrix=im["blk.0.ffn_up.weight"])
"""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Union

import numpy as np

from ._buffers import as_bytes, ptr
from ._lib import ImatrixEntryProps, ImatrixProps, lib
from .errors import ClosedError, check

_FORMS = {1: "gguf", 2: "legacy"}
_ALL_MATRICES = -1


class _Owner:
    """Owns one skn_imatrix; arrays handed out point into it and hold this."""

    def __init__(self, handle: ctypes.c_void_p) -> None:
        self.handle = handle

    def __del__(self) -> None:
        if self.handle is not None and self.handle.value and lib is not None:  # None late in shutdown
            lib.skn_imatrix_close(self.handle)
            self.handle = None


@dataclass(frozen=True)
class ImatrixEntry:
    """One weight tensor's entry. values_per_row: the weight's row length (its input
    dimension); matrices: experts of a 3-D weight (1 for a 2-D one, and for every
    legacy entry); count: legacy, the entry's call count; GGUF, the largest per-matrix
    count; unused_matrices: GGUF matrices calibration never reached (importance 1.0)."""
    index: int
    name: str
    values_per_row: int
    matrices: int
    count: int
    unused_matrices: int


class Imatrix:
    """An imatrix file read whole into memory (the file may change afterwards); a
    mapping from weight tensor name to its importance values.

    form ("gguf" or "legacy"), chunk_count and chunk_size (None when the file does
    not record them), datasets (the calibration files' names), entries.
    im[name] / im.values(name): float32 [matrices, values_per_row] (read-only,
    zero-copy); im.values(name, matrix=e): expert e's vector; im.get(name) is None
    for a weight without an entry (llama-quantize quantizes it without importance).
    Raises NotFoundError, FileIOError, FormatError (malformed: the message names the
    byte offset and the entry), UnsupportedError."""

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        h = ctypes.c_void_p()
        check(lib.skn_imatrix_open(os.fsencode(path), ctypes.byref(h)))
        self._init(_Owner(h))

    @classmethod
    def from_bytes(cls, data: Any) -> "Imatrix":
        """Read an imatrix file held in memory (read during the call only)."""
        buf = as_bytes(data, "data")
        h = ctypes.c_void_p()
        addr = ptr(buf) if buf.size else ptr(np.zeros(1, dtype=np.uint8))
        check(lib.skn_imatrix_open_memory(addr, buf.size, ctypes.byref(h)))
        self = cls.__new__(cls)
        self._init(_Owner(h))
        return self

    def _init(self, owner: _Owner) -> None:
        self._owner: Optional[_Owner] = owner
        props = ImatrixProps()
        props.struct_size = ctypes.sizeof(ImatrixProps)
        check(lib.skn_imatrix_info(owner.handle, ctypes.byref(props)))
        self.form = _FORMS.get(props.form, str(props.form))
        self.chunk_count = None if props.chunk_count < 0 else int(props.chunk_count)
        self.chunk_size = None if props.chunk_size < 0 else int(props.chunk_size)
        self.datasets: List[str] = []
        name = ctypes.c_void_p()
        n = ctypes.c_size_t()
        for i in range(props.dataset_count):
            check(lib.skn_imatrix_dataset(owner.handle, i, ctypes.byref(name), ctypes.byref(n)))
            self.datasets.append(ctypes.string_at(name.value, n.value).decode("utf-8", "replace"))
        self.entries: List[ImatrixEntry] = [self._entry(owner.handle, i) for i in range(props.entry_count)]
        self._index = {e.name: e.index for e in self.entries}

    @staticmethod
    def _entry(h: ctypes.c_void_p, index: int) -> ImatrixEntry:
        p = ImatrixEntryProps()
        p.struct_size = ctypes.sizeof(ImatrixEntryProps)
        check(lib.skn_imatrix_entry_info(h, index, ctypes.byref(p)))
        return ImatrixEntry(index, ctypes.string_at(p.name, p.name_len).decode("utf-8", "replace"),
                            int(p.values_per_row), int(p.matrices), int(p.count), int(p.unused_matrices))

    def _h(self) -> ctypes.c_void_p:
        if self._owner is None:
            raise ClosedError("the skn.Imatrix is closed")
        return self._owner.handle

    def close(self) -> None:
        """Stop using the imatrix; arrays already handed out stay valid."""
        self._owner = None

    @property
    def closed(self) -> bool:
        return self._owner is None

    def __enter__(self) -> "Imatrix":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def entry(self, name: str) -> ImatrixEntry:
        """The entry of weight `name`. Raises KeyError when there is none."""
        self._h()
        if name not in self._index:
            raise KeyError("no imatrix entry for %r (%d entries)" % (name, len(self.entries)))
        return self.entries[self._index[name]]

    def values(self, name: str, matrix: Optional[int] = None) -> np.ndarray:
        """Importance values of weight `name`: float32 [matrices, values_per_row], or the
        values_per_row of expert `matrix`. Read-only and zero-copy (the array keeps the
        imatrix's memory alive). Raises KeyError, InvalidArgumentError (matrix out of range)."""
        e = self.entry(name)
        owner = self._owner
        assert owner is not None
        p = ctypes.c_void_p()
        n = ctypes.c_size_t()
        check(lib.skn_imatrix_values(owner.handle, e.index, _ALL_MATRICES if matrix is None else int(matrix),
                                     ctypes.byref(p), ctypes.byref(n)))
        if n.value == 0:
            return np.empty((e.matrices, 0) if matrix is None else 0, dtype=np.float32)
        raw = (ctypes.c_float * n.value).from_address(p.value)
        raw._skn_owner = owner  # the array's base chain holds the imatrix
        arr = np.frombuffer(raw, dtype=np.float32)
        arr.flags.writeable = False
        return arr if matrix is not None else arr.reshape(e.matrices, e.values_per_row)

    def counts(self, name: str) -> np.ndarray:
        """Per matrix, the count its values were divided by (GGUF: activation rows seen;
        legacy: the entry's call count), as int64 [matrices]."""
        e = self.entry(name)
        out = np.empty(e.matrices, dtype=np.int64)
        c = ctypes.c_int64()
        for m in range(e.matrices):
            check(lib.skn_imatrix_matrix_count(self._h(), e.index, m, ctypes.byref(c)))
            out[m] = c.value
        return out

    def __getitem__(self, name: str) -> np.ndarray:
        return self.values(name)

    def get(self, name: str, default: Any = None) -> Any:
        """values(name), or `default` when `name` has no entry."""
        return self.values(name) if name in self._index else default

    def __repr__(self) -> str:
        if self._owner is None:
            return "<skn.Imatrix closed>"
        return "<skn.Imatrix %s, %d entries, %s chunks>" % (self.form, len(self.entries), self.chunk_count)
