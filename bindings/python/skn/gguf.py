# SPDX-License-Identifier: MIT
"""Reading GGUF files (skn.h section 8; docs/gguf.md).

Lifetime: the file's mapping is owned by a private _Mapping object. A GGUF
holds it, and so does every zero-copy array, memoryview and View handed out
(tensor data points into the mapping). GGUF.close() drops the GGUF's hold
and makes the GGUF unusable (ClosedError); the mapping itself is unmapped
when the last array or View over it is gone, so nothing handed out ever
dangles. Tensor arrays are read-only: the mapping is."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from ._buffers import as_bytes, ptr
from ._lib import GgufOptions, GgufTensorProps, lib
from .errors import ClosedError, UnsupportedError, check
from .formats import format_info
from .gguf_metadata import Metadata, text_at
from .quant import byte_shape
from .views import View

_ORIENTATIONS = {"out_in": 0, "as_stored": 1}
# skn_i2_s_layout: SKN_I2_S_LAYOUT_FROM_FILE, _X86, _ARM64.
_I2_S_LAYOUTS = {"from_file": 0, "x86": 1, "arm64": 2}
TensorKey = Union[str, int]


class _Mapping:
    """Owns one skn_gguf (and, for GGUF.from_bytes, the caller's buffer it reads)."""

    def __init__(self, handle: ctypes.c_void_p, keep: Any) -> None:
        self.handle = handle
        self.keep = keep

    def __del__(self) -> None:
        if self.handle is not None and self.handle.value and lib is not None:  # None late in shutdown
            lib.skn_gguf_close(self.handle)
            self.handle = None


@dataclass(frozen=True)
class TensorInfo:
    """What the file says about one tensor. `shape` is labelled per the orientation
    ([out, in] by default), `ne` is the file's own (ggml) order."""
    index: int
    name: str
    type_id: int
    type_name: str
    supported: bool
    shape: Tuple[int, ...]
    ne: Tuple[int, ...]
    offset: int
    size: int
    format_id: int = -1  # the skn format the bytes are read as (-1 when not supported)


class GGUF:
    """A GGUF v2/v3 file opened for reading, every offset and size checked by skn.

        with skn.GGUF("model.gguf") as g:
            print(g.metadata["general.architecture"])
            w = g.view("blk.0.attn_q.weight")        # zero-copy skn.View [out, in]
            raw = g.data("blk.0.attn_q.weight")      # zero-copy read-only uint8 array

    orientation "out_in" (default) labels a 2-D weight [out, in] as matmul_wt wants;
    "as_stored" keeps the file's ne order. allow_unsupported: open files holding tensor
    types skn does not implement (listed with supported=False). read_into_memory: copy
    the file at open so that it may change on disk afterwards. i2_s_layout: "x86" or
    "arm64", the layout of I2_S (type 36) tensors in a file without the
    "skn.i2_s_layout" key (which bitnet.cpp build wrote it); the default, "from_file",
    lists such tensors with supported=False and refuses to decode them (FormatError).
    A layout the file's key contradicts raises InvalidArgumentError.
    Raises NotFoundError, FileIOError, FormatError (malformed: the message names the
    byte offset and the key or tensor), UnsupportedError."""

    def __init__(self, path: Union[str, os.PathLike], orientation: str = "out_in",
                 allow_unsupported: bool = False, read_into_memory: bool = False,
                 i2_s_layout: str = "from_file") -> None:
        opts = self._options(orientation, allow_unsupported, read_into_memory, i2_s_layout)
        h = ctypes.c_void_p()
        check(lib.skn_gguf_open(os.fsencode(path), ctypes.byref(opts), ctypes.byref(h)))
        self._init(_Mapping(h, None), orientation)

    @classmethod
    def from_bytes(cls, data: Any, orientation: str = "out_in", allow_unsupported: bool = False,
                   i2_s_layout: str = "from_file") -> "GGUF":
        """Read a GGUF file held in memory (bytes, bytearray, ndarray); the buffer is kept
        alive, not copied: do not change it while the GGUF or its arrays are in use."""
        buf = as_bytes(data, "data")
        opts = cls._options(orientation, allow_unsupported, False, i2_s_layout)
        h = ctypes.c_void_p()
        addr = ptr(buf) if buf.size else ptr(np.zeros(1, dtype=np.uint8))
        check(lib.skn_gguf_open_memory(addr, buf.size, ctypes.byref(opts), ctypes.byref(h)))
        self = cls.__new__(cls)
        self._init(_Mapping(h, buf), orientation)
        return self

    @staticmethod
    def _options(orientation: str, allow_unsupported: bool, read_into_memory: bool,
                 i2_s_layout: str) -> GgufOptions:
        if orientation not in _ORIENTATIONS:
            raise ValueError("orientation must be 'out_in' or 'as_stored', not %r" % (orientation,))
        if i2_s_layout not in _I2_S_LAYOUTS:
            raise ValueError("i2_s_layout must be 'from_file', 'x86' or 'arm64', not %r" % (i2_s_layout,))
        return GgufOptions(ctypes.sizeof(GgufOptions), _ORIENTATIONS[orientation], int(bool(allow_unsupported)),
                           int(bool(read_into_memory)), _I2_S_LAYOUTS[i2_s_layout])

    def _init(self, mapping: _Mapping, orientation: str) -> None:
        self._mapping: Optional[_Mapping] = mapping
        self._orientation = orientation
        self._index: Dict[str, int] = {}
        self._infos: List[TensorInfo] = [self._info(i) for i in range(lib.skn_gguf_tensor_count(mapping.handle))]
        for t in self._infos:
            self._index.setdefault(t.name, t.index)
        self.metadata = Metadata(self)

    # ---- lifetime
    def _h(self) -> ctypes.c_void_p:
        if self._mapping is None:
            raise ClosedError("the skn.GGUF is closed")
        return self._mapping.handle

    def close(self) -> None:
        """Stop using the file. Arrays and Views already handed out stay valid (they hold
        the mapping); the file is unmapped when the last of them is gone."""
        self._mapping = None

    @property
    def closed(self) -> bool:
        return self._mapping is None

    def __enter__(self) -> "GGUF":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- file facts
    @property
    def version(self) -> int:
        return int(lib.skn_gguf_version(self._h()))

    @property
    def alignment(self) -> int:
        return int(lib.skn_gguf_alignment(self._h()))

    @property
    def data_offset(self) -> int:
        return int(lib.skn_gguf_data_offset(self._h()))

    @property
    def file_size(self) -> int:
        return int(lib.skn_gguf_file_size(self._h()))

    # ---- tensors
    def _info(self, index: int) -> TensorInfo:
        p = GgufTensorProps()
        p.struct_size = ctypes.sizeof(GgufTensorProps)
        check(lib.skn_gguf_tensor_info(self._h(), index, ctypes.byref(p)))
        name = text_at(p.name, p.name_len)
        return TensorInfo(index, name if isinstance(name, str) else name.decode("utf-8", "replace"), p.type_id,
                          p.type_name.decode(), bool(p.supported), tuple(p.shape[:p.rank]), tuple(p.ne[:p.rank]),
                          int(p.offset), int(p.size), int(p.format) if p.supported else -1)

    @property
    def tensors(self) -> List[TensorInfo]:
        """Every tensor, in file order."""
        self._h()
        return list(self._infos)

    def __len__(self) -> int:
        return len(self._infos)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def tensor_info(self, key: TensorKey) -> TensorInfo:
        """A tensor by name or index. Raises KeyError (no tensor of that name),
        IndexError (index out of range)."""
        self._h()
        if isinstance(key, str):
            if key not in self._index:
                raise KeyError("no tensor named %r in this GGUF file (%d tensors)" % (key, len(self._infos)))
            return self._infos[self._index[key]]
        if not 0 <= key < len(self._infos):
            raise IndexError("tensor index %d out of range 0..%d" % (key, len(self._infos) - 1))
        return self._infos[key]

    def data(self, key: TensorKey) -> np.ndarray:
        """The tensor's bytes as a read-only uint8 array over the mapping (zero-copy), shaped
        as gguf-py shapes them: (..., row_bytes), the [out, in] shape with its last
        dimension replaced by the bytes of one row, so skn.dequantize(data, fmt) needs
        no shape. I2_S tensors (bytes ending in a per-tensor trailer) and tensors of
        types skn does not implement are flat. memoryview(g.data(name)) gives a
        memoryview. Keeps the mapping alive."""
        t = self.tensor_info(key)
        mapping = self._mapping
        assert mapping is not None
        addr = ctypes.c_void_p()
        size = ctypes.c_size_t()
        check(lib.skn_gguf_tensor_data(mapping.handle, t.index, ctypes.byref(addr), ctypes.byref(size)))
        if size.value == 0:
            return np.empty(0, dtype=np.uint8)
        raw = (ctypes.c_uint8 * size.value).from_address(addr.value)
        raw._skn_mapping = mapping  # the array's base chain holds the mapping
        arr = np.frombuffer(raw, dtype=np.uint8)
        arr.flags.writeable = False
        shape = byte_shape(format_info(t.format_id), tuple(reversed(t.ne))) if t.supported else None
        return arr if shape is None or int(np.prod(shape)) != arr.size else arr.reshape(shape)

    def array(self, key: TensorKey) -> np.ndarray:
        """A dense F32 or F16 tensor as a read-only float32/float16 array of its shape
        (zero-copy). Block formats raise UnsupportedError: use view() or to_float()."""
        t = self.tensor_info(key)
        dtypes = {0: np.dtype("<f4"), 1: np.dtype("<f2")}
        if t.type_id not in dtypes:
            raise UnsupportedError("tensor %r is %s: only F32 and F16 tensors are NumPy arrays as stored; "
                                   "use GGUF.to_float() or GGUF.view()" % (t.name, t.type_name))
        arr = self.data(t.index).reshape(-1).view(dtypes[t.type_id])
        # The bytes are row-major over reversed(ne) (ne0 is the contiguous axis): that is
        # the out_in labelling; as_stored gets the same memory as its transpose.
        arr = arr.reshape(tuple(reversed(t.ne)))
        return arr.T if self._orientation == "as_stored" else arr

    def view(self, key: TensorKey) -> View:
        """The tensor as a zero-copy ROW_MAJOR skn.View (a weight is [out, in] when opened
        out_in), ready for prepack_for_matmul / matmul_wt. Keeps the mapping alive.
        Raises UnsupportedError for a tensor type skn does not implement."""
        t = self.tensor_info(key)
        out = ctypes.c_void_p()
        check(lib.skn_gguf_tensor_view(self._h(), t.index, ctypes.byref(out)))
        return View(out.value, self._mapping)

    def to_float(self, key: TensorKey) -> np.ndarray:
        """The tensor decoded to a float32 array of its (labelled) shape."""
        return self.view(key).to_float()

    def __getitem__(self, key: TensorKey) -> "Tensor":
        """g["blk.0.attn_q.weight"] (or g[index]): the tensor, for .data, .view(), .to_float()."""
        return Tensor(self, self.tensor_info(key))

    def __iter__(self) -> Iterator["Tensor"]:
        return (Tensor(self, t) for t in self.tensors)

    def __repr__(self) -> str:
        if self._mapping is None:
            return "<skn.GGUF closed>"
        return "<skn.GGUF v%d, %d tensors, %d metadata keys>" % (self.version, len(self._infos), len(self.metadata))


class Tensor:
    """One tensor of a GGUF file: its TensorInfo fields (name, shape, type_name, ...)
    as attributes, and the GGUF's per-tensor methods without the name."""

    def __init__(self, gguf: GGUF, info: TensorInfo) -> None:
        self._gguf = gguf
        self.info = info

    def __getattr__(self, field: str) -> Any:
        return getattr(self.info, field)

    @property
    def data(self) -> np.ndarray:
        """The bytes, a read-only uint8 array over the mapping (GGUF.data)."""
        return self._gguf.data(self.info.index)

    def memoryview(self) -> memoryview:
        """The bytes as a read-only memoryview over the mapping."""
        return memoryview(self._gguf.data(self.info.index))

    def array(self) -> np.ndarray:
        """An F32/F16 tensor as a read-only array of its shape (GGUF.array)."""
        return self._gguf.array(self.info.index)

    def view(self) -> View:
        """A zero-copy skn.View (GGUF.view)."""
        return self._gguf.view(self.info.index)

    def to_float(self) -> np.ndarray:
        """Decoded to float32 (GGUF.to_float)."""
        return self._gguf.to_float(self.info.index)

    def __repr__(self) -> str:
        return "<skn.Tensor %s %s %s>" % (self.info.name, self.info.type_name, list(self.info.shape))
