# SPDX-License-Identifier: MIT
"""Writing GGUF v3 files (skn.h section 8, "writing"): metadata and tensors
are copied into the writer as they are added and checked there, so whatever
it writes reads back with skn.GGUF."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Optional, Sequence, Union

import numpy as np

from ._buffers import as_bytes, ptr, shape_tuple
from ._lib import I64, SCALAR_CTYPES, lib
from .errors import ClosedError, check
from .formats import FormatLike, format_id

_TYPE_IDS = {name: tid for tid, (name, _) in SCALAR_CTYPES.items()}
_TYPE_IDS["string"] = 8
_NUMPY_TYPES = {np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8", np.dtype(np.uint16): "u16",
                np.dtype(np.int16): "i16", np.dtype(np.uint32): "u32", np.dtype(np.int32): "i32",
                np.dtype(np.float32): "f32", np.dtype(np.bool_): "bool", np.dtype(np.uint64): "u64",
                np.dtype(np.int64): "i64", np.dtype(np.float64): "f64"}


class GGUFWriter:
    """Build a GGUF v3 file in memory, then write() it (atomically: a temporary file
    renamed over the path) or to_bytes() it.

        w = skn.GGUFWriter()
        w.add("general.architecture", "llama")
        w.add("llama.block_count", 32, type="u32")
        w.add_tensor("blk.0.ffn_up.weight", skn.quantize(up, "q4_k"), "q4_k", up.shape)
        w.write("model.gguf")
    """

    def __init__(self, alignment: Optional[int] = None) -> None:
        h = ctypes.c_void_p()
        check(lib.skn_gguf_writer_create(ctypes.byref(h)))
        self._handle: Optional[ctypes.c_void_p] = h
        if alignment is not None:
            self.set_alignment(alignment)

    def _h(self) -> ctypes.c_void_p:
        if self._handle is None:
            raise ClosedError("the skn.GGUFWriter is closed")
        return self._handle

    def close(self) -> None:
        if self._handle is not None:
            lib.skn_gguf_writer_destroy(self._handle)
            self._handle = None

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None and lib is not None:  # None late in shutdown
            self.close()

    def __enter__(self) -> "GGUFWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def set_alignment(self, alignment: int) -> None:
        """Tensor data alignment: a positive multiple of 8 (32 by default)."""
        check(lib.skn_gguf_writer_set_alignment(self._h(), int(alignment)))

    def add(self, key: str, value: Any, type: Optional[str] = None) -> None:
        """Add a metadata pair. `type` ("u8" ... "f64", "bool", "string") fixes the GGUF type;
        without it: bool -> bool, int -> i32 (i64 when it does not fit), float -> f32,
        str/bytes -> string, a list of str -> string array, a NumPy array or a list of
        numbers -> an array of the matching type (lists: i32 or f32 as scalars are).
        With `type` and a sequence value, `type` is the element type.
        Raises InvalidArgumentError (empty or repeated key, a value that does not fit)."""
        h = self._h()
        k = key.encode()
        if isinstance(value, (list, tuple, np.ndarray)):
            self._add_array(h, k, value, type)
            return
        t = type or self._infer(value)
        if t == "string":
            raw = value if isinstance(value, bytes) else str(value).encode()
            check(lib.skn_gguf_writer_add_string(h, k, raw, len(raw)))
            return
        if t not in _TYPE_IDS:
            raise ValueError("unknown GGUF type %r: one of %s" % (t, ", ".join(sorted(_TYPE_IDS))))
        if t in ("f32", "f64"):
            v: Any = float(value)
        else:
            v = int(value)
            name, ct = SCALAR_CTYPES[_TYPE_IDS[t]]
            lo, hi = _int_range(ct) if t != "bool" else (0, 1)
            if not lo <= v <= hi:
                raise ValueError("%s = %d does not fit GGUF type %s (%d..%d)" % (key, v, t, lo, hi))
        check(getattr(lib, "skn_gguf_writer_add_" + t)(h, k, v))

    @staticmethod
    def _infer(value: Any) -> str:
        if isinstance(value, (bool, np.bool_)):
            return "bool"
        if isinstance(value, (int, np.integer)):
            return "i32" if -2**31 <= int(value) < 2**31 else "i64"
        if isinstance(value, (float, np.floating)):
            return "f32"
        if isinstance(value, (str, bytes)):
            return "string"
        raise TypeError("cannot store a %s in GGUF metadata" % type(value).__name__)

    def _add_array(self, h: ctypes.c_void_p, k: bytes, value: Any, elem: Optional[str]) -> None:
        if not isinstance(value, np.ndarray) and (elem == "string" or (elem is None and value and all(
                isinstance(v, (str, bytes)) for v in value))):
            raws = [v if isinstance(v, bytes) else str(v).encode() for v in value]
            bufs = [ctypes.create_string_buffer(r, len(r) or 1) for r in raws]
            strings = (ctypes.c_void_p * max(1, len(raws)))(*[ctypes.addressof(b) for b in bufs])
            lengths = (ctypes.c_size_t * max(1, len(raws)))(*[len(r) for r in raws])
            check(lib.skn_gguf_writer_add_string_array(h, k, strings, lengths, len(raws)))
            return
        if elem is None:
            if isinstance(value, np.ndarray):
                if value.dtype not in _NUMPY_TYPES:
                    raise TypeError("no GGUF array type for NumPy dtype %s" % value.dtype)
                elem = _NUMPY_TYPES[value.dtype]
            elif value and all(isinstance(v, (bool, np.bool_)) for v in value):
                elem = "bool"
            elif all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
                elem = "i32"
            else:
                elem = "f32"
        if elem not in _TYPE_IDS or elem == "string":
            raise ValueError("unknown GGUF array element type %r" % (elem,))
        dtype = np.dtype("<u1") if elem == "bool" else np.dtype(
            [d for d, n in _NUMPY_TYPES.items() if n == elem][0]).newbyteorder("<")
        arr = np.ascontiguousarray(np.asarray(value).reshape(-1).astype(dtype, casting="unsafe"))
        addr = ptr(arr) if arr.size else None
        check(lib.skn_gguf_writer_add_array(h, k, _TYPE_IDS[elem], addr, arr.size))

    def add_tensor(self, name: str, data: Any, fmt: Optional[FormatLike] = None,
                   shape: Optional[Union[int, Sequence[int]]] = None) -> None:
        """Add a tensor. `data`: the ROW_MAJOR bytes of `fmt` (skn.quantize's output) with
        `shape` labelled as skn.GGUF reads it by default, [out, in] (block axis last; the
        file stores ne = reversed(shape)); or a float32/float16 ndarray with fmt None
        (F32/F16, its own shape). The bytes are copied.
        Raises InvalidArgumentError (bad name, shape not block-aligned, a byte count that
        is not the tensor's: both sizes are in the message), UnknownFormatError."""
        if fmt is None:
            if not isinstance(data, np.ndarray) or data.dtype not in (np.float32, np.float16):
                raise TypeError("without fmt, data must be a float32 or float16 ndarray")
            fid = 0 if data.dtype == np.float32 else 1
            dims = shape_tuple(data.shape if shape is None else shape)
            data = np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("<"))
        else:
            fid = format_id(fmt)
            if shape is None:
                raise TypeError("shape is required with fmt (the [out, in] labelling of the tensor)")
            dims = shape_tuple(shape)
        raw = as_bytes(data, "data")
        ne = (I64 * len(dims))(*reversed(dims))
        addr = ptr(raw) if raw.size else None
        check(lib.skn_gguf_writer_add_tensor(self._h(), name.encode(), fid, len(dims), ne, addr, raw.size))

    @property
    def size(self) -> int:
        """The size in bytes of the file write() would write now."""
        out = ctypes.c_uint64()
        check(lib.skn_gguf_writer_size(self._h(), ctypes.byref(out)))
        return out.value

    def to_bytes(self) -> bytes:
        """The file's bytes."""
        buf = np.empty(self.size, dtype=np.uint8)
        check(lib.skn_gguf_writer_write_memory(self._h(), ptr(buf), buf.size))
        return buf.tobytes()

    def write(self, path: Union[str, os.PathLike]) -> None:
        """Write the file at `path`, replacing any file there (all or nothing).
        Raises FileIOError with the system's reason."""
        check(lib.skn_gguf_writer_write_file(self._h(), os.fsencode(path)))


def _int_range(ct: Any) -> tuple:
    bits = ctypes.sizeof(ct) * 8
    if ct in (ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64):
        return 0, 2**bits - 1
    return -2**(bits - 1), 2**(bits - 1) - 1
