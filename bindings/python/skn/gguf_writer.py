# SPDX-License-Identifier: MIT
"""Writing GGUF v3 files (skn.h section 8, "writing"): metadata and tensors
are copied into the writer as they are added and checked there, so whatever
it writes reads back with skn.GGUF. For files larger than memory, tensors are
declared and their bytes streamed (GGUFWriter.stream)."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from ._buffers import as_bytes, ptr, shape_tuple
from ._lib import I64, lib
from .errors import ClosedError, InvalidArgumentError, check
from .formats import FormatLike, format_id, format_info
from .gguf_keys import U8_ARRAY, llama_key_type, may_be_array
from .gguf_stream import GGUFStream
from .gguf_values import fits, infer_scalar, is_sequence, put_array, put_scalar
from .quant import shape_from_bytes

ShapeLike = Union[int, Sequence[int]]


class GGUFWriter:
    """Build a GGUF v3 file in memory, then write() it (atomically: a temporary file
    renamed over the path) or to_bytes() it; or declare its tensors and stream()
    their bytes to a file.

        w = skn.GGUFWriter()
        w.add("general.architecture", "llama")
        w.add("llama.block_count", 32)              # u32: llama.cpp's type for the key
        w.add_uint32("my.count", 7)                 # typed, as gguf-py's helpers
        w.add_tensor("blk.0.ffn_up.weight", skn.quantize(up, "q4_k"), "q4_k")
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

    # ---- metadata
    def add(self, key: str, value: Any, type: Optional[str] = None) -> None:
        """Add a metadata pair. `type` ("u8" ... "f64", "bool", "string") fixes the GGUF
        type (for a sequence, its element type). Without it, a key llama.cpp reads
        (skn.llama_key_type: "llama.block_count", "general.file_type", ...) gets the type
        llama.cpp requires, and a value of another kind (a str or a float for a u32 key)
        is refused rather than stored as a type llama.cpp would reject. Any other key:
        bool -> bool, int -> i32 (i64 when it does not fit), float -> f32, str/bytes ->
        string; a list, tuple or NumPy array -> an array (NumPy arrays keep their dtype;
        lists: string, bool, i32 or f32 as their items are), and a list of lists (or a
        2-D array) -> an array of arrays, each with its own type and length.
        Raises InvalidArgumentError (empty or repeated key, a value that does not fit its
        type, mixed or ragged items: the message names the first one)."""
        h = self._h()
        if not isinstance(key, str):
            raise TypeError("a metadata key is a str, not %s" % key.__class__.__name__)
        if type is None:
            type = self._llama_type(key, value)
        if type == U8_ARRAY:
            value, type = np.frombuffer(value, dtype=np.uint8) if isinstance(value, bytes) else value, "u8"
        if is_sequence(value):
            put_array(h, key, value, type)
        else:
            put_scalar(h, key, value, type or infer_scalar(value))

    @staticmethod
    def _llama_type(key: str, value: Any) -> Optional[str]:
        want = llama_key_type(key)
        if want is None:
            return None
        if want == U8_ARRAY:
            if isinstance(value, bytes) or is_sequence(value):
                return want
        elif is_sequence(value) and not isinstance(value, (str, bytes)):
            if may_be_array(key):
                return None  # one value per layer: typed as any array
        elif fits(value, want):
            return want
        raise InvalidArgumentError(
            "%s is %s in llama.cpp, which refuses the file for any other type; got %s %.60r. Pass a value of "
            "that kind, or type= to store it as another type anyway" % (
                key, "an array of u8" if want == U8_ARRAY else "a " + want, type(value).__name__, value))

    def add_array(self, key: str, values: Any, element_type: Optional[str] = None) -> None:
        """Add an array (of arrays...) pair; `element_type` fixes the innermost arrays' type."""
        if not is_sequence(values):
            raise TypeError("add_array takes a list, tuple or NumPy array, not %s" % type(values).__name__)
        put_array(self._h(), key, values, element_type)

    def add_uint8(self, key: str, value: int) -> None:
        self.add(key, value, type="u8")

    def add_int8(self, key: str, value: int) -> None:
        self.add(key, value, type="i8")

    def add_uint16(self, key: str, value: int) -> None:
        self.add(key, value, type="u16")

    def add_int16(self, key: str, value: int) -> None:
        self.add(key, value, type="i16")

    def add_uint32(self, key: str, value: int) -> None:
        self.add(key, value, type="u32")

    def add_int32(self, key: str, value: int) -> None:
        self.add(key, value, type="i32")

    def add_uint64(self, key: str, value: int) -> None:
        self.add(key, value, type="u64")

    def add_int64(self, key: str, value: int) -> None:
        self.add(key, value, type="i64")

    def add_float32(self, key: str, value: float) -> None:
        self.add(key, value, type="f32")

    def add_float64(self, key: str, value: float) -> None:
        self.add(key, value, type="f64")

    def add_bool(self, key: str, value: bool) -> None:
        self.add(key, value, type="bool")

    def add_string(self, key: str, value: Union[str, bytes]) -> None:
        self.add(key, value, type="string")

    # ---- tensors
    def _tensor_args(self, data: Any, fmt: Optional[FormatLike], shape: Optional[ShapeLike]
                     ) -> Tuple[int, Tuple[int, ...], Any]:
        if fmt is None:
            if not isinstance(data, np.ndarray) or data.dtype not in (np.float32, np.float16):
                raise TypeError("without fmt, data must be a float32 or float16 ndarray")
            fid = 0 if data.dtype == np.float32 else 1
            dims = shape_tuple(data.shape if shape is None else shape)
            return fid, dims, np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("<"))
        info = format_info(fmt)
        if shape is None:
            try:
                return info.id, shape_from_bytes(info, data, "data"), data
            except TypeError:
                raise TypeError("shape is required with fmt for flat bytes (the [out, in] labelling of the tensor); "
                                "a (rows, row_bytes) uint8 array, as skn.quantize returns, needs none") from None
        return info.id, shape_tuple(shape), data

    def add_tensor(self, name: str, data: Any, fmt: Optional[FormatLike] = None,
                   shape: Optional[ShapeLike] = None) -> None:
        """Add a tensor. `data`: the ROW_MAJOR bytes of `fmt` (skn.quantize's output) with
        `shape` labelled as skn.GGUF reads it by default, [out, in] (block axis last; the
        file stores ne = reversed(shape)), which a (..., row_bytes) uint8 array gives by
        itself; or a float32/float16 ndarray with fmt None (F32/F16, its own shape).
        The bytes are copied.
        Raises InvalidArgumentError (bad name, shape not block-aligned, a byte count that
        is not the tensor's: both sizes are in the message), UnknownFormatError."""
        fid, dims, data = self._tensor_args(data, fmt, shape)
        raw = as_bytes(data, "data")
        ne = (I64 * len(dims))(*reversed(dims))
        addr = ptr(raw) if raw.size else None
        check(lib.skn_gguf_writer_add_tensor(self._h(), name.encode(), fid, len(dims), ne, addr, raw.size))

    def declare_tensor(self, name: str, fmt: FormatLike, shape: ShapeLike) -> None:
        """Declare a tensor whose bytes stream() will be given: its name, format and
        [out, in] shape (as add_tensor labels it). Counted in `size` at once. A writer
        holding declared tensors can only stream(), not write() or to_bytes().
        Raises InvalidArgumentError (bad name or shape), UnknownFormatError."""
        dims = shape_tuple(shape)
        ne = (I64 * len(dims))(*reversed(dims))
        check(lib.skn_gguf_writer_declare_tensor(self._h(), name.encode(), format_id(fmt), len(dims), ne))

    def stream(self, path: Union[str, os.PathLike]) -> GGUFStream:
        """Start writing the file to `path`, for tensors declared with declare_tensor:
        give each one's bytes, in the order declared, to the stream's write(). Used as a
        context manager, the file is finished when the block ends normally and abandoned
        (no file left at `path`) when it raises.

            with w.stream("big.gguf") as s:
                for name, weight in weights:
                    s.write(name, skn.quantize(weight, "q4_k"))
        """
        out = ctypes.c_void_p()
        check(lib.skn_gguf_stream_begin(self._h(), os.fsencode(path), ctypes.byref(out)))
        return GGUFStream(out)

    # ---- output
    @property
    def size(self) -> int:
        """The size in bytes of the file write() (or a stream) would write now."""
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
